/**
 * Layout of `transit.duckdb`, the one artifact of a transit release besides manifest.json.
 * The GTFS builder (ingest/transit) creates exactly these tables; the transit engine (engines/transit)
 * reads them READ_ONLY. Every table is written sorted by its lookup key (DuckDB zone maps
 * then skip most row groups; it ignores ART indexes for most lookups).
 *
 * Ids are the service ids of volume 2 ("Transit objects"): svc:transit:<type>:<feed>:<raw id>.
 * Times are integer seconds after "noon minus 12 h" of the service date (GTFS), so 25:10:00
 * is 90600 and VIA Rail's 110:29:00 is 397740.
 */
/** The release kind (and job kind) of transit: one name for builds, jobs, the registry and the API. */
export const TRANSIT_KIND = 'transit';
/**
 * 2 added `transfers`, and `pickup_type` / `drop_off_type` to `stop_times`; a version-1 release has
 * none of them (the engine then has no transfers, and every stop time allows pickup and drop-off).
 */
export const TRANSIT_SCHEMA_VERSION = 2;
export const TRANSIT_DATABASE_FILE = 'transit.duckdb';

export const TRANSIT_TABLES_DDL = `
CREATE TABLE feeds (
  feed_id            VARCHAR PRIMARY KEY,   -- short id from the feeds list
  source             VARCHAR NOT NULL,      -- URL or path it was read from
  licence            VARCHAR,
  attribution        VARCHAR,
  source_updated_at  VARCHAR,               -- ISO 8601 (Last-Modified, else file mtime), may be NULL
  source_version     VARCHAR,               -- feed_info.feed_version, else ETag, may be NULL
  content_hash       VARCHAR NOT NULL,      -- sha256 of the normalized feed
  timezone           VARCHAR NOT NULL       -- the feed's agency_timezone (all agencies share it)
);

CREATE TABLE agencies (        -- sorted by id
  id         VARCHAR NOT NULL, -- svc:transit:agency:<feed>:<agency_id>, or svc:transit:agency:<feed> when the feed has no agency_id
  feed_id    VARCHAR NOT NULL,
  agency_id  VARCHAR,
  name       VARCHAR NOT NULL,
  url        VARCHAR,
  timezone   VARCHAR NOT NULL,
  lang       VARCHAR,
  phone      VARCHAR
);

CREATE TABLE stops (           -- sorted by id
  id              VARCHAR NOT NULL,  -- svc:transit:stop:<feed>:<stop_id>
  feed_id         VARCHAR NOT NULL,
  stop_id         VARCHAR NOT NULL,
  code            VARCHAR,
  name            VARCHAR,
  lat             DOUBLE,            -- NULL only for generic nodes / boarding areas
  lon             DOUBLE,
  location_type   INTEGER NOT NULL,  -- 0 stop/platform, 1 station, 2 entrance, 3 generic node, 4 boarding area
  parent_id       VARCHAR,           -- svc id of parent_station
  timezone        VARCHAR NOT NULL,  -- stop_timezone, else the feed's timezone (display only: GTFS times use the agency zone)
  wheelchair_boarding INTEGER
);

CREATE TABLE routes (          -- sorted by id
  id          VARCHAR NOT NULL,  -- svc:transit:route:<feed>:<route_id>
  feed_id     VARCHAR NOT NULL,
  route_id    VARCHAR NOT NULL,
  agency_id   VARCHAR NOT NULL,  -- svc id of the agency
  short_name  VARCHAR,
  long_name   VARCHAR,
  description VARCHAR,
  type        INTEGER NOT NULL,
  url         VARCHAR,
  color       VARCHAR,
  text_color  VARCHAR
);

CREATE TABLE trips (           -- sorted by id
  id            VARCHAR NOT NULL, -- svc:transit:trip:<feed>:<trip_id>
  feed_id       VARCHAR NOT NULL,
  trip_id       VARCHAR NOT NULL,
  route_id      VARCHAR NOT NULL, -- svc id of the route
  service_id    VARCHAR NOT NULL, -- raw GTFS service_id (unique only within feed_id)
  headsign      VARCHAR,
  short_name    VARCHAR,
  direction_id  INTEGER
);

-- Every date a service runs (calendar weekdays in [start,end], plus calendar_dates type 1, minus type 2),
-- with base_epoch = UTC epoch seconds of "noon minus 12 h" of that date in the feed's timezone
-- (computed with DuckDB ICU, which has current tz data). A departure's instant is base_epoch + seconds.
CREATE TABLE service_days (    -- sorted by feed_id, service_id, service_date
  feed_id       VARCHAR NOT NULL,
  service_id    VARCHAR NOT NULL,
  service_date  DATE NOT NULL,
  base_epoch    BIGINT NOT NULL
);

-- pickup_type / drop_off_type: an empty value is 0, and so is one that is not an integer 0-3
-- (the coverage warnings count those rows).
CREATE TABLE stop_times (      -- sorted by stop_id, departure_secs
  stop_id         VARCHAR NOT NULL, -- svc id of the stop (platform; never a station)
  trip_id         VARCHAR NOT NULL, -- svc id of the trip
  arrival_secs    INTEGER,          -- NULL when the feed leaves the time empty (non-timepoint)
  departure_secs  INTEGER,
  stop_sequence   INTEGER NOT NULL,
  stop_headsign   VARCHAR,
  pickup_type     TINYINT NOT NULL, -- 0 regular (empty), 1 none, 2 phone the agency, 3 ask the driver
  drop_off_type   TINYINT NOT NULL  -- 0 regular (empty), 1 none, 2 phone the agency, 3 ask the driver
);

-- transfers.txt stop-to-stop rules. Left out: rows naming a route or trip (from_/to_route_id,
-- from_/to_trip_id) and in-seat types 4 and 5 (not stop-to-stop rules), and rows whose from/to stop
-- is not in stops.txt, whose transfer_type is not empty or an integer 0-5, or whose min_transfer_time
-- is not a non-negative integer (the coverage warnings count these). An empty transfer_type is 0.
-- One row per (from_stop_id, to_stop_id): of duplicates, type 3 wins, then the largest
-- min_transfer_secs (NULL smallest), then the larger type.
CREATE TABLE transfers (       -- sorted by from_stop_id, to_stop_id
  from_stop_id       VARCHAR NOT NULL, -- svc id of the stop
  to_stop_id         VARCHAR NOT NULL, -- svc id of the stop (may equal from_stop_id)
  transfer_type      INTEGER NOT NULL, -- 0 recommended, 1 timed, 2 min_transfer_time applies, 3 not possible
  min_transfer_secs  INTEGER           -- min_transfer_time, NULL when not given
);

-- Per feed: the largest departure_secs, so a query at instant T only looks at service dates
-- from T - max_secs onwards.
CREATE TABLE feed_stats (
  feed_id          VARCHAR PRIMARY KEY,
  max_secs         INTEGER NOT NULL,
  first_service_date DATE,
  last_service_date  DATE
);
`;

-- Live road events (volume 2 "Road events") and closure snapshots for route warnings (volume 3).
-- Not releases: a successful poll replaces one jurisdiction's rows in one transaction, and the
-- status row of its feed says how fresh they are. Everything lives here, so restarting the API,
-- the worker or Redis loses nothing.

-- One row per feed: 'events:CA-BC' (the 60 s poll), 'closures:CA-BC' (written by that same poll),
-- 'closures:CA-AB', 'closures:CA-ON' (the five-minute 511 snapshots).
CREATE TABLE road_feed_status (
  feed             text PRIMARY KEY,
  jurisdiction     text NOT NULL,
  source_url       text,
  poll_interval_ms integer,               -- the worker's schedule; freshness thresholds scale with it
  last_attempt_at  timestamptz,
  last_success_at  timestamptz,           -- last poll whose answer was accepted
  last_change_at   timestamptz,           -- last accepted poll that changed the stored rows
  last_error       text,                  -- why the last failed attempt failed (kept for operators)
  last_error_at    timestamptz,
  anomaly          text,                  -- a suspect answer refused (e.g. empty feed), or why one was believed
  anomaly_at       timestamptz,
  upstream_count   integer,               -- events in the last accepted answer
  stored_count     integer NOT NULL DEFAULT 0,
  generation       bigint NOT NULL DEFAULT 0,  -- +1 per change: API processes reload when it moves
  not_before       timestamptz,           -- from a 429 Retry-After: no poll before this
  empty_answers    integer NOT NULL DEFAULT 0,  -- suspect empty answers refused in a row...
  empty_since      timestamptz                  -- ...since then (believed after 3 over 5 minutes)
);

-- The current events of each jurisdiction. record is the volume 2 record as served, without
-- status (computed per request from publisher_status and schedule: planned turns active when a
-- window opens, and back when it closes).
CREATE TABLE road_events (
  jurisdiction       text NOT NULL,
  id                 text NOT NULL,
  source_id          text NOT NULL,
  type               text NOT NULL,
  severity           text NOT NULL,
  severity_rank      smallint NOT NULL,    -- the publisher's scale (MAJOR 3, MODERATE 2, MINOR 1, else 0), for ordering
  publisher_status   text NOT NULL CHECK (publisher_status IN ('active', 'archived')),
  starts_at          timestamptz,
  ends_at            timestamptz,
  schedule           json NOT NULL,        -- the normalized schedule (ingest/road-events/schedule.ts ScheduleJson)
  closed             boolean NOT NULL,
  surface            text,
  source_updated_at  timestamptz NOT NULL,
  svc_updated_at     timestamptz NOT NULL,
  minlon             double precision NOT NULL,
  minlat             double precision NOT NULL,
  maxlon             double precision NOT NULL,
  maxlat             double precision NOT NULL,
  content_hash       text NOT NULL,
  record             json NOT NULL,
  PRIMARY KEY (jurisdiction, id)
);

-- Full closures of CA-BC (with every events poll), CA-AB and CA-ON (every five minutes) for route warnings.
-- windows: [[start, end], ...] ISO instants (null = open) when the road is shut.
CREATE TABLE road_closures (
  jurisdiction       text NOT NULL,
  source_id          text NOT NULL,
  road               text,
  direction          text,
  description        text NOT NULL,
  windows            jsonb NOT NULL,
  geometry           json NOT NULL,
  minlon             double precision NOT NULL,
  minlat             double precision NOT NULL,
  maxlon             double precision NOT NULL,
  maxlat             double precision NOT NULL,
  source_updated_at  timestamptz,
  content_hash       text NOT NULL,
  fetched_at         timestamptz NOT NULL,
  PRIMARY KEY (jurisdiction, source_id)
);
CREATE INDEX road_closures_bbox ON road_closures (minlon, maxlon, minlat, maxlat);

-- Live road events (volume 2 "Road events") and closure snapshots for route warnings (volume 3).
-- Not releases: a successful poll replaces one jurisdiction's rows in one transaction, and the
-- status row of its feed says how fresh they are. Everything lives here, so restarting the API,
-- the worker or Redis loses nothing.

-- One row per feed: 'events:CA-BC' (the 60 s poll), 'closures:CA-BC', 'closures:CA-AB', 'closures:CA-ON'.
CREATE TABLE road_feed_status (
  feed             text PRIMARY KEY,
  jurisdiction     text NOT NULL,
  source_url       text,
  last_attempt_at  timestamptz,
  last_success_at  timestamptz,           -- last poll whose answer was accepted
  last_change_at   timestamptz,           -- last accepted poll that changed the stored rows
  last_error       text,                  -- why the last failed attempt failed (kept for operators)
  last_error_at    timestamptz,
  anomaly          text,                  -- a suspect answer that was not accepted (e.g. empty feed)
  anomaly_at       timestamptz,
  upstream_count   integer,               -- events in the last accepted answer
  stored_count     integer NOT NULL DEFAULT 0,
  generation       bigint NOT NULL DEFAULT 0,  -- +1 per change: API processes reload when it moves
  not_before       timestamptz            -- from a 429 Retry-After: no poll before this
);

-- The current events of each jurisdiction. record is the volume 2 record as served, without
-- status (planned turns active when its start passes, so status is computed per request).
CREATE TABLE road_events (
  jurisdiction       text NOT NULL,
  id                 text NOT NULL,
  source_id          text NOT NULL,
  type               text NOT NULL,
  severity           text NOT NULL,
  publisher_status   text NOT NULL CHECK (publisher_status IN ('active', 'archived')),
  starts_at          timestamptz,
  ends_at            timestamptz,
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
CREATE INDEX road_events_bbox ON road_events (jurisdiction, minlon, maxlon, minlat, maxlat);

-- Full closures of CA-BC, CA-AB and CA-ON for route warnings, refreshed every five minutes.
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

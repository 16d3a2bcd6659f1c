-- A 429's Retry-After holds back polls of the upstream (origin) that sent it, whatever feed or
-- URL asks next; it used to sit on the feed's own status row (not_before).
CREATE TABLE road_upstream_backoff (
  origin       text PRIMARY KEY,           -- scheme://host[:port] of the upstream
  not_before   timestamptz NOT NULL,       -- no request to it before this
  recorded_at  timestamptz NOT NULL,       -- when the 429 came
  jurisdiction text NOT NULL               -- the poll that received it
);

ALTER TABLE road_feed_status DROP COLUMN not_before;

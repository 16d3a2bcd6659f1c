-- Road events are ordered by the severity as served (major, minor, then unknown), read from the
-- severity column itself; the publisher's own scale, kept only for ordering, is no longer stored.
ALTER TABLE road_events DROP COLUMN severity_rank;

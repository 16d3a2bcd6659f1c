-- Uploaded overlays (volume 3, "Uploaded overlay"; volume 1: 10 per account, 5 MB each). The
-- bytes are files under BYOD_DIR named by id (engines/byod/files.ts); this is their metadata.
-- owner is 'account:<id>', or 'key:<id>' for keys without an account. The quota is enforced
-- when inserting, under a per-owner advisory lock (engines/byod/store.ts).

CREATE TABLE byod_overlays (
  id          text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{24}$'),
  owner       text NOT NULL,
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  kind        text NOT NULL CHECK (kind IN ('geojson', 'pmtiles')),
  bytes       bigint NOT NULL CHECK (bytes > 0),
  sha256      text NOT NULL,
  status      text NOT NULL CHECK (status IN ('processing', 'ready', 'failed')),
  error       text,
  min_zoom    smallint,
  max_zoom    smallint,
  bounds      double precision[] CHECK (bounds IS NULL OR cardinality(bounds) = 4),
  layers      text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL,
  tiled_at    timestamptz,
  CHECK (status <> 'failed' OR error IS NOT NULL)
);
CREATE INDEX byod_overlays_owner ON byod_overlays (owner, created_at DESC);
-- The worker's sweep looks for uploads whose tiling job never ran.
CREATE INDEX byod_overlays_processing ON byod_overlays (created_at) WHERE status = 'processing';

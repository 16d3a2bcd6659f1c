import { Type, type Static } from '@sinclair/typebox';
import { ERROR_MESSAGE_KEYWORD, Nullable, stringEnum } from './common.ts';

/**
 * Uploaded overlays ("own data", volume 3): POST /byod, GET /byod, GET/DELETE /byod/{id},
 * GET /byod/{id}/data and GET /byod/{id}/{z}/{x}/{y}; limits from volume 1 ("Uploaded overlays:
 * 10 per account, 5 MB each"); the payload of the tiling job of a GeoJSON upload.
 */

// ---- limits and vocabulary ------------------------------------------------------------------

export const BYOD_MAX_OVERLAYS = 10;
/** The refusal of an upload past BYOD_MAX_OVERLAYS, before its body is read or when its row is inserted. */
export const BYOD_QUOTA_FULL = `overlay limit reached: ${BYOD_MAX_OVERLAYS} uploaded overlays per account; delete one (DELETE /byod/{id}) before uploading another`;
/** 5 MB of file content (5 MiB, the binary megabyte: the larger reading, so no 5 MB file is refused). */
export const BYOD_MAX_BYTES = 5 * 1024 * 1024;
/** A multipart body carries the file plus boundaries, part headers and a name field. */
export const BYOD_MULTIPART_OVERHEAD_BYTES = 64 * 1024;
export const BYOD_NAME_MAX_CHARS = 200;

export const BYOD_KINDS = ['geojson', 'pmtiles'] as const;
export type ByodKind = (typeof BYOD_KINDS)[number];

/** processing: a GeoJSON upload waiting for its tiles; ready: tiles are served; failed: see error. */
export const BYOD_STATUSES = ['processing', 'ready', 'failed'] as const;
export type ByodStatus = (typeof BYOD_STATUSES)[number];

export const BYOD_MEDIA_TYPES: Readonly<Record<ByodKind, string>> = {
  geojson: 'application/geo+json',
  pmtiles: 'application/vnd.pmtiles',
};

/** The vector layer a GeoJSON upload's features are tiled into (a style's source-layer). */
export const BYOD_GEOJSON_LAYER = 'byod';
/** The deepest zoom a GeoJSON upload is tiled to; large extents get less (engines/byod/max-zoom.ts). */
export const BYOD_GEOJSON_MAX_ZOOM = 14;

export const BYOD_ERRORS: Readonly<Record<number, string>> = {
  400: 'missing body, wrong content type, file over 5 MB, invalid GeoJSON or PMTiles, an eleventh overlay, or a bad parameter; error names it',
  404: 'no overlay of this account has this id',
  503: 'the upload could not be checked right now (the check did not run to an answer); nothing was stored, retry after Retry-After',
};

// ---- requests -------------------------------------------------------------------------------

export const ByodIdParams = Type.Object({
  id: Type.String({ description: 'overlay id as POST /byod returned it' }),
});

export const ByodTileParams = Type.Object({
  id: Type.String({ description: 'overlay id' }),
  z: Type.String({ description: 'zoom, an integer' }),
  x: Type.String({ description: 'column, an integer below 2^z' }),
  y: Type.String({ description: 'row, an integer below 2^z; a .pbf or .mvt suffix is ignored' }),
});

export const ByodUploadQuery = Type.Object({
  name: Type.Optional(Type.String({
    maxLength: BYOD_NAME_MAX_CHARS,
    description: `display name of a GeoJSON or PMTiles body (multipart uploads take the file name or a name field); at most ${BYOD_NAME_MAX_CHARS} characters`,
    [ERROR_MESSAGE_KEYWORD]: `must be given once, at most ${BYOD_NAME_MAX_CHARS} characters`,
  })),
});
export type ByodUploadQuery = Static<typeof ByodUploadQuery>;

/** Documents the three accepted bodies in /openapi.json; the route reads them itself (api/params/byod/upload-body.ts). */
export const ByodUploadBody = {
  content: {
    [BYOD_MEDIA_TYPES.geojson]: {
      schema: Type.Unknown({ description: 'a GeoJSON FeatureCollection, Feature or geometry (RFC 7946, WGS 84), at most 5 MB' }),
    },
    [BYOD_MEDIA_TYPES.pmtiles]: {
      schema: Type.Unknown({ description: 'a PMTiles v3 archive of vector (MVT) tiles, at most 5 MB' }),
    },
    'multipart/form-data': {
      schema: Type.Unknown({ description: 'a `file` part holding either of the above, and optionally a `name` field' }),
    },
  },
};

// ---- responses ------------------------------------------------------------------------------

export const ByodOverlay = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'display name only; never a path' }),
  kind: stringEnum(BYOD_KINDS, 'what was uploaded'),
  bytes: Type.Integer({ description: 'size of the stored upload' }),
  createdAt: Type.String({ description: 'ISO 8601 UTC' }),
  url: Type.String({ description: 'tile URL template; add key=<API_KEY> (map clients cannot send headers)' }),
  overlay: Type.String({ description: 'byod:<id>, the token a style\'s overlays parameter takes' }),
  status: stringEnum(BYOD_STATUSES, 'processing until a GeoJSON upload is tiled (its tiles answer 204 meanwhile); failed names why in error'),
  error: Nullable(Type.String({ description: 'why tiling failed' })),
  dataUrl: Type.String({ description: 'the stored bytes as uploaded' }),
  minzoom: Nullable(Type.Integer()),
  maxzoom: Nullable(Type.Integer()),
  bounds: Nullable(Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[west, south, east, north]' })),
  layers: Type.Array(Type.String(), { description: 'vector layer names in the tiles (source-layer of a style); empty until tiled' }),
});
export type ByodOverlay = Static<typeof ByodOverlay>;

export const ByodQuota = Type.Object({
  used: Type.Integer({ description: 'overlays stored' }),
  limit: Type.Integer({ description: `overlays allowed (${BYOD_MAX_OVERLAYS})` }),
  remaining: Type.Integer(),
  maxBytes: Type.Integer({ description: `largest file accepted (${BYOD_MAX_BYTES} bytes)` }),
});

export const ByodList = Type.Object({
  overlays: Type.Array(ByodOverlay, { description: 'newest first' }),
  quota: ByodQuota,
});
export type ByodList = Static<typeof ByodList>;

/** GET /byod/{id}/data: the file (the route streams it; nothing is serialized). */
export const ByodData = Type.Unknown({ description: `the stored bytes (${BYOD_MEDIA_TYPES.geojson} or ${BYOD_MEDIA_TYPES.pmtiles})` });
export const ByodNotModified = Type.Null({ description: 'If-None-Match named the current ETag' });

export const ByodDeleted = Type.Null({ description: 'deleted: every route now answers 404 for this id' });

// ---- the tiling job -------------------------------------------------------------------------

/** BullMQ queue of the tiling jobs (jobs/byod/): the API adds one per GeoJSON upload. */
export const BYOD_TILE_QUEUE = 'byod-tiles';
export const BYOD_TILE_JOB = 'tile';

export const ByodTileJob = Type.Object({ overlayId: Type.String() });
export type ByodTileJob = Static<typeof ByodTileJob>;

/** One job per overlay while it exists: a second add (the worker's sweep, a retry) is a no-op. */
export const byodTileJobId = (overlayId: string): string => `byod-tile-${overlayId}`;

/** How a tiling job is added, by the API and by the worker's sweep alike. */
export function byodTileJobOptions(overlayId: string, retry: { attempts: number; backoffMs: number }) {
  return {
    jobId: byodTileJobId(overlayId),
    attempts: retry.attempts,
    backoff: { type: 'exponential', delay: retry.backoffMs },
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 1000 },
  };
}

/**
 * What tiling one GeoJSON upload may cost, and the reasons an overlay that passes a limit is
 * failed with (its `error`, shown to its owner: each says what to do).
 *
 * Archive: 16 × the upload's size, never below 16 MiB nor above 64 MiB (12.8× at the 5 MiB
 * upload limit). Sane uploads stay well inside it (bench/byod/tiling.ts: a GPS track 0.15×,
 * 35,000 points with properties 2.3×, issue 28's line once its zooms follow its density 0.95×);
 * small files gain most from tiling every zoom, which the 16 MiB floor covers. Past it the disk
 * goes to tiles no map needs (issue 28 reported 122×). The limit counts the tiles as they are
 * spooled, so a tiling stops as soon as it passes it, with at most that much on disk. Time and
 * memory are the job's (jobs/byod/tile-process.ts): BYOD_TILING_SECONDS, and a 2 GB heap.
 */

export const ARCHIVE_RATIO = 16;
export const ARCHIVE_MIN_BYTES = 16 * 1024 * 1024;
export const ARCHIVE_MAX_BYTES = 64 * 1024 * 1024;

/** Over the byte cap of one tile, the tolerance may grow to 1024× (3 units become 3,072, most of a tile) before features are dropped. */
export const TILE_COARSEN = 1024;

export function archiveByteLimit(uploadBytes: number): number {
  return Math.min(ARCHIVE_MAX_BYTES, Math.max(ARCHIVE_MIN_BYTES, ARCHIVE_RATIO * uploadBytes));
}

const WHAT_TO_DO = 'simplify the geometry (fewer vertices, e.g. mapshaper -simplify 10%), drop long properties, or split the file into smaller ones, then upload them again';

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export const tooLargeReason = (limitBytes: number) =>
  `the tiles of this file would take more than ${mb(limitBytes)} (the limit for its size); ${WHAT_TO_DO}`;

export const tooSlowReason = (seconds: number) =>
  `tiling this file took longer than ${seconds} s (the limit); ${WHAT_TO_DO}`;

export const tooMuchMemoryReason = (megabytes: number) =>
  `tiling this file needs more than ${megabytes} MB of memory (the limit); ${WHAT_TO_DO}`;

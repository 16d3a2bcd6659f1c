/**
 * The stored closure snapshots (table road_closures, written by the worker's polls) and their
 * feeds' poll status, read from Postgres in one go, with what every route check needs parsed once.
 */
import type { Pool } from 'pg';
import type { BBox } from '../../lib/geo/bbox.ts';
import { Refreshing } from '../../lib/refreshing.ts';
import { readFeedStatuses } from './feed-status.ts';
import type { ClosureSnapshot } from '../../engines/road-events/closure.ts';
import type { RoadGeometry } from '../../engines/road-events/geometry.ts';
import { closuresFeed, CLOSURE_JURISDICTIONS, type Jurisdiction } from '../../engines/road-events/jurisdictions.ts';
import { isoUtc } from '../../engines/road-events/publisher-time.ts';

export type { ClosureSnapshot, StoredClosure } from '../../engines/road-events/closure.ts';

interface Row {
  jurisdiction: Jurisdiction;
  source_id: string;
  road: string | null;
  direction: string | null;
  description: string;
  windows: [string | null, string | null][];
  geometry: RoadGeometry;
  minlon: number;
  minlat: number;
  maxlon: number;
  maxlat: number;
  fetched_at: Date;
}

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** The stored closures (only those whose box meets `box`, when given) and the closure feeds' status. */
export async function readClosureSnapshot(pool: Pool, box?: BBox): Promise<ClosureSnapshot> {
  const where = box ? 'WHERE maxlon >= $1 AND minlon <= $2 AND maxlat >= $3 AND minlat <= $4' : '';
  const [{ rows }, statuses] = await Promise.all([
    pool.query<Row>(
      `SELECT jurisdiction, source_id, road, direction, description, windows, geometry, minlon, minlat, maxlon, maxlat, fetched_at
       FROM road_closures ${where}`,
      box ? [box.minLon, box.maxLon, box.minLat, box.maxLat] : [],
    ),
    readFeedStatuses(pool, CLOSURE_JURISDICTIONS.map(closuresFeed)),
  ]);
  return {
    closures: rows.map((r) => ({
      jurisdiction: r.jurisdiction,
      sourceId: r.source_id,
      road: r.road,
      direction: r.direction,
      description: r.description,
      windows: r.windows.map(([start, end]) => [ms(start), ms(end)]),
      geometry: r.geometry,
      bbox: { minLon: r.minlon, minLat: r.minlat, maxLon: r.maxlon, maxLat: r.maxlat },
      fetchedAt: isoUtc(r.fetched_at.getTime()),
    })),
    statuses,
  };
}

/**
 * How long the API trusts its copy of the closure snapshots. The worker replaces them every few
 * minutes, so a warning is at most this much older than Postgres (while Postgres answers).
 */
export const CLOSURE_CACHE_TTL_MS = 5_000;
/** Longest a route waits for a refresh when the previous copy can answer it. */
const CLOSURE_REFRESH_WAIT_MS = 50;

/**
 * The API process's copy of every stored closure and the feeds' status, read again by the first
 * request after `ttlMs` (one read shared by concurrent requests). When Postgres cannot be read the
 * last good copy keeps answering; coverage then turns `current: false` by itself as its fetch
 * times age. Nothing is ever fetched from the publishers here.
 */
export const closureSnapshotCache = (pool: Pool, onError?: (err: unknown) => void, ttlMs = CLOSURE_CACHE_TTL_MS): Refreshing<ClosureSnapshot> =>
  new Refreshing(() => readClosureSnapshot(pool), { ttlMs, waitMs: CLOSURE_REFRESH_WAIT_MS, onError });

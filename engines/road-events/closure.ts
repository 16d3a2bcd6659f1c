import type { RoadGeometry } from './geometry.ts';
import type { Jurisdiction } from './jurisdictions.ts';
import type { Window } from './schedule.ts';
import type { BBox } from '../../lib/geo/bbox.ts';
import type { FeedStatus } from './poll-status.ts';

/** A road a provincial authority has fully shut (or will), as stored for route warnings. */
export interface Closure {
  jurisdiction: Jurisdiction;
  sourceId: string;
  road: string | null;
  direction: string | null;
  description: string;
  /** When the road is shut; [null, null] = in force with no known start or end. */
  windows: Window[];
  geometry: RoadGeometry;
  bbox: BBox;
  sourceUpdatedAt: string | null;
}

/** How far ahead a recurring schedule is expanded into windows. */
export const CLOSURE_HORIZON_MS = 30 * 24 * 3600_000;

/** A stored closure as route checks read it (io/road-events/closure-snapshot.ts), with what they need parsed once. */
export interface StoredClosure {
  jurisdiction: Jurisdiction;
  sourceId: string;
  road: string | null;
  direction: string | null;
  description: string;
  /** [start, end] epoch ms when the road is shut; null = open. */
  windows: [number | null, number | null][];
  geometry: RoadGeometry;
  /** The stored box of the geometry. */
  bbox: BBox;
  /** ISO 8601 UTC: when the snapshot holding it was fetched. */
  fetchedAt: string;
}

export interface ClosureSnapshot {
  closures: StoredClosure[];
  /** The poll status of each closures:<jurisdiction> feed there is. */
  statuses: FeedStatus[];
}

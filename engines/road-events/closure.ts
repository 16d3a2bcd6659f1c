import type { RoadGeometry } from './geometry.ts';
import type { Jurisdiction } from './jurisdictions.ts';
import type { Window } from './schedule.ts';
import type { BBox } from '../../lib/geo/bbox.ts';

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

/**
 * Where a requested point joins the road graph: the nearest edge the mode may use, looked for in
 * widening circles so the common case (a point on or beside a road) stays a small index query.
 */
import type { CostModel } from './cost-model.ts';
import { endpointOnEdge, type Endpoint } from './endpoints.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { SnapIndex } from './snap.ts';

/** Search radii, metres: a road point is within ~10 m, a street address within ~50 m (volume 3). */
export const SNAP_RADII_METRES = [50, 500, 5_000] as const;
/** Farther than this from the request, the end is reported relocated (ENDPOINT_RELOCATED). */
export const RELOCATION_WARNING_METRES = 50;

export interface Located {
  endpoint: Endpoint;
  /** The point on the road, degrees at six decimals. */
  point: LngLat;
  distanceMetres: number;
}

/** The nearest usable road position, or null when none is within the largest radius. */
export function locate(snap: SnapIndex, model: CostModel, [lng, lat]: LngLat): Located | null {
  for (const radius of SNAP_RADII_METRES) {
    const hit = snap.snap(lng, lat, model, radius);
    if (hit) return { endpoint: endpointOnEdge(model, hit.edge, hit.fraction), point: [hit.lng, hit.lat], distanceMetres: hit.distanceMetres };
  }
  return null;
}

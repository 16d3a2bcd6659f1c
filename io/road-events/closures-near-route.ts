import type { Pool } from 'pg';
import { readClosureSnapshot } from './closure-snapshot.ts';
import { CLOSURE_WARNING_METRES, closuresNearLine, type ClosuresNearRoute } from '../../engines/road-events/closures-near-route.ts';
import { expandBBox, type LngLatPosition } from '../../engines/road-events/geometry.ts';
import { RouteLine } from '../../engines/road-events/route-line.ts';

function checkRoute(route: LngLatPosition[]): void {
  if (!Array.isArray(route) || route.length === 0) throw new TypeError('route must have at least one [lng, lat] position');
  for (const p of route) {
    if (!Array.isArray(p) || !Number.isFinite(p[0]) || !Number.isFinite(p[1]) || Math.abs(p[0]) > 180 || Math.abs(p[1]) > 90) {
      throw new TypeError(`route position ${JSON.stringify(p)} is not [lng, lat] in WGS84`);
    }
  }
}

/**
 * The stored closures (BC from the events poll, Alberta and Ontario snapshots; nothing is fetched here) within
 * `withinMetres` (250) of a route's LineString, read from Postgres: see closuresNearLine.
 */
export async function closuresNearRoute(
  pool: Pool,
  route: LngLatPosition[],
  options: { now?: Date; withinMetres?: number } = {},
): Promise<ClosuresNearRoute> {
  checkRoute(route);
  const line = RouteLine.of(route);
  const snapshot = await readClosureSnapshot(pool, expandBBox(line.bbox, options.withinMetres ?? CLOSURE_WARNING_METRES));
  return closuresNearLine(snapshot, line, options);
}


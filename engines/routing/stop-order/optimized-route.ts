/**
 * POST /optimized-route's engine: the stops located for the mode, one travel table between all of
 * them, the least-duration order (solve.ts) for the requested ends, and the chosen legs' paths
 * joined into one route.
 */
import type { CostModel } from '../cost-model.ts';
import { RELOCATION_WARNING_METRES } from '../locate.ts';
import type { RoadNetwork } from '../release.ts';
import type { LngLat } from '../../../lib/geo/lng-lat.ts';
import { joinLines, legPairs, routeLegs, type RouteLeg } from './legs.ts';
import { orderStops, type StopEnds } from './solve.ts';
import { stopTable } from './travel-table.ts';

export interface StopRelocation {
  /** Index into the request's stops. */
  stop: number;
  /** From the requested point to where the route reaches it. */
  metres: number;
}

export interface OptimizedRoute {
  /** Stop indices in visiting order (a round trip does not repeat its start). */
  order: number[];
  /** In travel order; a round trip's last leg returns to order[0]. */
  legs: RouteLeg[];
  /** The legs' lines joined (micro-degrees, lng,lat interleaved). */
  line: Int32Array;
  /** Stops the route reaches more than RELOCATION_WARNING_METRES away, by stop index. */
  relocations: StopRelocation[];
}

export type OptimizedRouteOutcome =
  | { ok: true; route: OptimizedRoute }
  /** A stop has no usable road near it, or no order of the stops avoids an unreachable pair. */
  | { ok: false; reason: 'unsnappable' | 'unreachable' };

export function optimizedRoute(network: RoadNetwork, model: CostModel, stops: readonly LngLat[], ends: StopEnds): OptimizedRouteOutcome {
  const table = stopTable(network, model, stops);
  if (!table) return { ok: false, reason: 'unsnappable' };
  const solved = orderStops(table.seconds, ends);
  if (!solved) return { ok: false, reason: 'unreachable' };
  const legs = routeLegs(model.graph, table.paths, legPairs(solved.order, ends.end === 'first'));
  const relocations = table.located.flatMap((located, stop) => (located.distanceMetres > RELOCATION_WARNING_METRES ? [{ stop, metres: located.distanceMetres }] : []));
  return { ok: true, route: { order: solved.order, legs, line: joinLines(legs.map((leg) => leg.line)), relocations } };
}

/**
 * A whole route between two requested points: both ends located on the road graph, the
 * least-cost path between them, its line, and where an end had to move to reach a road.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { CostModel } from './cost-model.ts';
import type { RoadNetwork } from './release.ts';
import { locate, RELOCATION_WARNING_METRES } from './locate.ts';
import type { LngLat } from './road-graph.ts';
import { routeGeometry } from './route-geometry.ts';
import type { RouteResult } from './search.ts';
import { shortestPath } from './shortest-path.ts';

export type RouteEnd = 'origin' | 'destination';

export interface Relocation {
  where: RouteEnd;
  /** From the requested point to where the route starts or ends. */
  metres: number;
}

export interface PlannedRoute {
  metres: number;
  seconds: number;
  /** [lng, lat] at six decimals, not simplified; at least two positions. */
  coordinates: LngLat[];
  /** Ends moved farther than RELOCATION_WARNING_METRES (volume 3 ENDPOINT_RELOCATED). */
  relocations: Relocation[];
  /** false when the line has no length, so its ends cannot be told apart to check them. */
  relocationChecked: boolean;
  path: RouteResult;
}

const distinctPositions = (line: LngLat[]) => line.some(([lng, lat]) => lng !== line[0]![0] || lat !== line[0]![1]);

/** The route from `from` to `to` for the cost model, or null when no road connects them. */
export function planRoute(network: RoadNetwork, model: CostModel, from: LngLat, to: LngLat): PlannedRoute | null {
  const origin = locate(network.snap, model, from);
  const destination = origin && locate(network.snap, model, to);
  if (!origin || !destination || origin.endpoint.length === 0 || destination.endpoint.length === 0) return null;
  const path = shortestPath(model, network.hierarchy, origin.endpoint, destination.endpoint, destination.point);
  if (!path) return null;
  const coordinates = routeGeometry(model.graph, path);
  const relocationChecked = distinctPositions(coordinates);
  const relocations: Relocation[] = [];
  if (relocationChecked) {
    const ends: [RouteEnd, LngLat, LngLat][] = [['origin', from, coordinates[0]!], ['destination', to, coordinates.at(-1)!]];
    for (const [where, asked, reached] of ends) {
      const metres = haversineMetres(asked[0], asked[1], reached[0], reached[1]);
      if (metres > RELOCATION_WARNING_METRES) relocations.push({ where, metres });
    }
  }
  return { metres: path.metres, seconds: path.seconds, coordinates, relocations, relocationChecked, path };
}

/**
 * A whole route between two requested points: both ends located on the road graph, the
 * least-cost path between them, its line, and where an end had to move to reach a road.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { CostModel } from './cost-model.ts';
import { fromMicroDegrees } from './graph-format.ts';
import type { RoadNetwork } from './release.ts';
import { locate, RELOCATION_WARNING_METRES } from './locate.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { routeLineMicro } from './route-geometry.ts';
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
  /** The line in micro-degrees (six decimals exactly), lng,lat interleaved, not simplified; at least two positions. */
  line: Int32Array;
  /** Ends moved farther than RELOCATION_WARNING_METRES (volume 3 ENDPOINT_RELOCATED). */
  relocations: Relocation[];
  /** false when the line has no length, so its ends cannot be told apart to check them. */
  relocationChecked: boolean;
  path: RouteResult;
}

function distinctPositions(line: Int32Array): boolean {
  for (let i = 2; i < line.length; i += 2) if (line[i] !== line[0] || line[i + 1] !== line[1]) return true;
  return false;
}

const position = (line: Int32Array, i: number): LngLat => [fromMicroDegrees(line[2 * i]!), fromMicroDegrees(line[2 * i + 1]!)];

/** The route from `from` to `to` for the cost model, or null when no road connects them. */
export function planRoute(network: RoadNetwork, model: CostModel, from: LngLat, to: LngLat): PlannedRoute | null {
  const origin = locate(network.snap, model, from);
  const destination = origin && locate(network.snap, model, to);
  if (!origin || !destination || origin.endpoint.length === 0 || destination.endpoint.length === 0) return null;
  const path = shortestPath(model, network.hierarchy, origin.endpoint, destination.endpoint, destination.point);
  if (!path) return null;
  const line = routeLineMicro(model.graph, path);
  const relocationChecked = distinctPositions(line);
  const relocations: Relocation[] = [];
  if (relocationChecked) {
    const ends: [RouteEnd, LngLat, LngLat][] = [['origin', from, position(line, 0)], ['destination', to, position(line, line.length / 2 - 1)]];
    for (const [where, asked, reached] of ends) {
      const metres = haversineMetres(asked[0], asked[1], reached[0], reached[1]);
      if (metres > RELOCATION_WARNING_METRES) relocations.push({ where, metres });
    }
  }
  return { metres: path.metres, seconds: path.seconds, line, relocations, relocationChecked, path };
}

/**
 * Road travel for fleet optimization (volume 3 "Optimization", travel source 1): free-flow
 * driving seconds and metres between every pair of distinct places over the enabled roads
 * release, by one many-to-many query. A place with no road near it, a pair with no road between
 * them, and a pair more than MAX_STRAIGHT_LINE_METRES apart in a straight line are unreachable.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { CostModel } from '../routing/cost-model.ts';
import { locate } from '../routing/locate.ts';
import type { RoadNetwork } from '../routing/release.ts';
import { shortestPathTable } from '../routing/shortest-path.ts';
import type { LatLng } from './request-model.ts';
import type { TravelMatrix } from './problem.ts';
import { sharedMatrix } from './travel-geodesic.ts';

export const MAX_STRAIGHT_LINE_METRES = 1_000_000;
/** At most this many distinct places are routed on roads (or the plan's lower location limit). */
export const MAX_ROAD_LOCATIONS = 200;

export interface RoadTravel {
  matrix: TravelMatrix;
  /** reachable[i * size + j]: 1 when j can be reached from i. */
  reachable: Uint8Array;
}

export function roadTravel(network: Pick<RoadNetwork, 'snap' | 'hierarchy'>, model: CostModel, places: readonly LatLng[]): RoadTravel {
  const size = places.length;
  const endpoints = places.map((p) => locate(network.snap, model, [p.longitude, p.latitude])?.endpoint ?? []);
  const snapped = endpoints.map((e) => e.length > 0);
  const rows = places.map((_, i) => i).filter((i) => snapped[i]);
  const table = shortestPathTable(model, network.hierarchy, rows.map((i) => endpoints[i]!), rows.map((i) => endpoints[i]!));
  // Shared memory: the table goes from the road thread to the solver threads without a copy.
  const matrix = sharedMatrix(size);
  const { durations, distances } = matrix;
  const reachable = new Uint8Array(size * size);
  for (let i = 0; i < size; i++) reachable[i * size + i] = 1;
  rows.forEach((i, a) => rows.forEach((j, b) => {
    if (i === j) return;
    const cell = table[a]![b];
    const far = haversineMetres(places[i]!.longitude, places[i]!.latitude, places[j]!.longitude, places[j]!.latitude) > MAX_STRAIGHT_LINE_METRES;
    if (!cell || far) return;
    durations[i * size + j] = cell.seconds;
    distances[i * size + j] = cell.metres;
    reachable[i * size + j] = 1;
  }));
  return { matrix, reachable };
}

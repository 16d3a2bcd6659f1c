/**
 * Seeded stops on Vancouver's roads for the stop-order tests and benchmark: random points in the
 * city (Stanley Park to the Fraser, UBC to Boundary Road) kept when a road is within 50 m, so no
 * stop is relocated, and their travel table as the engine computes it.
 */
import { costModel } from '../../../engines/routing/cost-model.ts';
import type { Mode } from '../../../engines/routing/modes.ts';
import { locate } from '../../../engines/routing/locate.ts';
import type { RoadNetwork } from '../../../engines/routing/release.ts';
import type { LngLat } from '../../../lib/geo/lng-lat.ts';
import { stopTable } from '../../../engines/routing/stop-order/travel-table.ts';
import {  } from '../../routing/vancouver-graph.ts';
import { seededRandom as random } from '../../../lib/seeded-random.ts';

/** west, south, east, north: about 15 × 9 km. */
export const VANCOUVER_BOX = [-123.225, 49.205, -123.023, 49.295] as const;

/** A stop every kept stop reaches and is reached from (so every pair of kept stops is connected). */
const HUB: LngLat = [-123.1115, 49.2856];

/** n stops, each within 50 m of a road the mode may use, both ways connected to the others. */
export function vancouverStops(network: RoadNetwork, n: number, seed: number, mode: Mode = 'auto'): LngLat[] {
  const next = random(seed);
  const model = costModel(network.graph, mode);
  const [w, s, e, north] = VANCOUVER_BOX;
  const stops: LngLat[] = [];
  while (stops.length < n) {
    const p: LngLat = [Number((w + next() * (e - w)).toFixed(6)), Number((s + next() * (north - s)).toFixed(6))];
    const hit = locate(network.snap, model, p);
    if (!hit || hit.distanceMetres > 50) continue;
    const table = stopTable(network, model, [HUB, p]);
    if (table && Number.isFinite(table.seconds[0]![1]!) && Number.isFinite(table.seconds[1]![0]!)) stops.push(p);
  }
  return stops;
}

/** Seconds between the stops as the engine's table gives them (Infinity where unreachable). */
export function vancouverMatrix(network: RoadNetwork, stops: readonly LngLat[], mode: Mode = 'auto'): number[][] {
  const table = stopTable(network, costModel(network.graph, mode), stops);
  if (!table) throw new Error('a stop did not snap');
  return table.seconds;
}

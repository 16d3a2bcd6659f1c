/**
 * Travel-time and distance matrices (POST /matrix): a many-to-many query (shortest-path.ts). The
 * matrix fails as a whole (volume 3) when a point has no road, a pair is unreachable, or a
 * route is longer than the road-distance ceiling.
 */
import type { CostModel } from './cost-model.ts';
import { locate } from './locate.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { RoadNetwork } from './release.ts';
import { shortestPathTable } from './shortest-path.ts';

export interface RoadTravelMatrix {
  /** Row-major: seconds[i][j] from origin i to destination j. */
  seconds: number[][];
  metres: number[][];
}

export type MatrixOutcome = { ok: true; matrix: RoadTravelMatrix } | { ok: false; reason: 'unsnappable' | 'unreachable' | 'too-far' };

export function travelMatrix(
  network: Pick<RoadNetwork, 'snap' | 'hierarchy'>, model: CostModel, origins: readonly LngLat[], destinations: readonly LngLat[], maxMetres: number,
): MatrixOutcome {
  const from = origins.map((p) => locate(network.snap, model, p)?.endpoint ?? []);
  const to = destinations.map((p) => locate(network.snap, model, p)?.endpoint ?? []);
  if ([...from, ...to].some((endpoint) => endpoint.length === 0)) return { ok: false, reason: 'unsnappable' };
  const table = shortestPathTable(model, network.hierarchy, from, to);
  if (table.some((row) => row.some((r) => r === null))) return { ok: false, reason: 'unreachable' };
  if (table.some((row) => row.some((r) => r!.metres > maxMetres))) return { ok: false, reason: 'too-far' };
  return { ok: true, matrix: { seconds: table.map((row) => row.map((r) => r!.seconds)), metres: table.map((row) => row.map((r) => r!.metres)) } };
}

/**
 * Travel-time and distance matrices (POST /matrix): one one-to-many search per origin. The
 * matrix fails as a whole (volume 3) when a point has no road, a pair is unreachable, or a
 * route is longer than the road-distance ceiling.
 */
import type { CostModel } from './cost-model.ts';
import { locate } from './locate.ts';
import type { LngLat } from './road-graph.ts';
import { shortestPaths } from './shortest-path.ts';
import type { SnapIndex } from './snap.ts';

export interface TravelMatrix {
  /** Row-major: seconds[i][j] from origin i to destination j. */
  seconds: number[][];
  metres: number[][];
}

export type MatrixOutcome = { ok: true; matrix: TravelMatrix } | { ok: false; reason: 'unsnappable' | 'unreachable' | 'too-far' };

export function travelMatrix(
  snap: SnapIndex, model: CostModel, origins: readonly LngLat[], destinations: readonly LngLat[], maxMetres: number,
): MatrixOutcome {
  const from = origins.map((p) => locate(snap, model, p));
  const to = destinations.map((p) => locate(snap, model, p));
  const located = [...from, ...to];
  if (located.some((l) => l === null || l.endpoint.length === 0)) return { ok: false, reason: 'unsnappable' };
  const targets = to.map((l) => l!.endpoint);
  const seconds: number[][] = [];
  const metres: number[][] = [];
  for (const origin of from) {
    const routes = shortestPaths(model, origin!.endpoint, targets);
    if (routes.some((r) => r === null)) return { ok: false, reason: 'unreachable' };
    if (routes.some((r) => r!.metres > maxMetres)) return { ok: false, reason: 'too-far' };
    seconds.push(routes.map((r) => r!.seconds));
    metres.push(routes.map((r) => r!.metres));
  }
  return { ok: true, matrix: { seconds, metres } };
}

/**
 * The travel table of a stop-ordering request: every stop located on the road graph for the
 * mode, then one many-to-many query over all of them (shortest-path.ts's table: the contraction
 * hierarchy's buckets for the motor modes, one search per stop otherwise), never n² routes. Each
 * cell keeps its path, so the chosen legs need no second search.
 */
import type { CostModel } from '../cost-model.ts';
import { locate, type Located } from '../locate.ts';
import type { RoadNetwork } from '../release.ts';
import type { LngLat } from '../../../lib/geo/lng-lat.ts';
import type { RouteResult } from '../search.ts';
import { shortestPathTable } from '../shortest-path.ts';

export interface StopTable {
  /** Where each stop joins the road graph. */
  located: Located[];
  /** paths[i][j]: the least-cost path from stop i to stop j, null when none. */
  paths: (RouteResult | null)[][];
  /** Seconds of each path; Infinity where there is none, 0 on the diagonal. */
  seconds: number[][];
}

/** The table, or null when a stop has no road the mode may use within the snapping radii. */
export function stopTable(network: Pick<RoadNetwork, 'snap' | 'hierarchy'>, model: CostModel, stops: readonly LngLat[]): StopTable | null {
  const located: Located[] = [];
  for (const stop of stops) {
    const hit = locate(network.snap, model, stop);
    if (!hit || hit.endpoint.length === 0) return null;
    located.push(hit);
  }
  const endpoints = located.map((l) => l.endpoint);
  const paths = shortestPathTable(model, network.hierarchy, endpoints, endpoints);
  const seconds = paths.map((row, i) => row.map((path, j) => (i === j ? 0 : path === null ? Infinity : path.seconds)));
  return { located, paths, seconds };
}

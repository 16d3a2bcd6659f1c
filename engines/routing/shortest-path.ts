/**
 * The one entry point of point-to-point and many-to-many queries for the API and later callers
 * (map matching, stop ordering). Motor modes on a graph with a contraction hierarchy take the
 * CH path when it is provably the model's optimum (checked-ch-path.ts), else A* guided by exact
 * CH-potentials; bicycle and pedestrian, or a graph without a hierarchy, use A* towards the
 * destination point. Every answer is exact for the model, turn restrictions included.
 */
import { chPotential } from './contraction/potential.ts';
import { chRoute, type ChRoute } from './contraction/query.ts';
import { chTable } from './contraction/many-to-many.ts';
import type { ContractionHierarchy } from './contraction/hierarchy.ts';
import { potentialScale, priceChPath, reachesFloor } from './checked-ch-path.ts';
import type { CostModel } from './cost-model.ts';
import type { Endpoint } from './endpoints.ts';
import type { LngLat } from './road-graph.ts';
import { searchMany, searchRoute, type RouteResult } from './search.ts';
import { graphTurnRule } from './turn-rule.ts';

const motor = (model: CostModel) => model.mode === 'auto' || model.mode === 'truck';

/** The least-cost route between two endpoints, or null. */
export function shortestPath(
  model: CostModel, hierarchy: ContractionHierarchy | null, origin: Endpoint, destination: Endpoint, targetPoint: LngLat,
): RouteResult | null {
  const turnRule = graphTurnRule(model.graph, model.mode);
  if (hierarchy === null || !motor(model)) return searchRoute(model, origin, destination, { turnRule, targetLngLat: targetPoint });
  return resolveChPath(model, hierarchy, origin, destination, chRoute(hierarchy, model.graph, origin, destination));
}

/** The least-cost route from each origin to each destination (row-major), null where unreachable. */
export function shortestPathTable(
  model: CostModel, hierarchy: ContractionHierarchy | null, origins: readonly Endpoint[], destinations: readonly Endpoint[],
): (RouteResult | null)[][] {
  if (hierarchy === null || !motor(model)) {
    const turnRule = graphTurnRule(model.graph, model.mode);
    return origins.map((origin) => searchMany(model, origin, destinations, { turnRule }));
  }
  const table = chTable(hierarchy, model.graph, origins, destinations);
  return table.map((row, i) => row.map((path, j) => resolveChPath(model, hierarchy, origins[i]!, destinations[j]!, path)));
}

/**
 * The CH path when the model may take it and it reaches the bound's floor; otherwise A* with
 * CH-potentials. Unreachable in the hierarchy means unreachable for every motor model.
 */
function resolveChPath(
  model: CostModel, hierarchy: ContractionHierarchy, origin: Endpoint, destination: Endpoint, path: ChRoute | null,
): RouteResult | null {
  if (path === null) return null;
  const turnRule = graphTurnRule(model.graph, model.mode);
  const priced = priceChPath(model, path, turnRule);
  if (priced && reachesFloor(model, priced.cost, path.bound)) return priced;
  const lowerBound = chPotential(hierarchy, model.graph, destination);
  const scale = potentialScale(model);
  return searchMany(model, origin, [destination], { turnRule, potential: (node) => scale * lowerBound.potential(node) })[0]!;
}

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
import { potentialScale, priceChPath, reachesFloor, withoutZeroLengthEnds } from './checked-ch-path.ts';
import type { CostModel } from './cost-model.ts';
import type { Endpoint } from './endpoints.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { searchMany, searchRoute, type RouteResult } from './search.ts';
import { graphTurnRule } from './turn-rule.ts';

const motor = (model: CostModel) => model.mode === 'auto' || model.mode === 'truck';

/** The least-cost route between two endpoints, or null. */
export function shortestPath(
  model: CostModel, hierarchy: ContractionHierarchy | null, origin: Endpoint, destination: Endpoint, targetPoint: LngLat,
): RouteResult | null {
  const turnRule = graphTurnRule(model.graph, model.mode);
  if (hierarchy === null || !motor(model)) return searchRoute(model, origin, destination, { turnRule, targetLngLat: targetPoint });
  const path = chRoute(hierarchy, model.graph, origin, destination);
  if (path === null) return null;
  return provenOptimal(model, path) ?? potentialSearch(model, hierarchy, destination, [origin])[0]!;
}

/** The least-cost route from each origin to each destination (row-major), null where unreachable. */
export function shortestPathTable(
  model: CostModel, hierarchy: ContractionHierarchy | null, origins: readonly Endpoint[], destinations: readonly Endpoint[],
): (RouteResult | null)[][] {
  const turnRule = graphTurnRule(model.graph, model.mode);
  if (hierarchy === null || !motor(model)) return origins.map((origin) => searchMany(model, origin, destinations, { turnRule }));
  const table = chTable(hierarchy, model.graph, origins, destinations);
  const out = table.map((row) => row.map((path) => (path === null ? null : provenOptimal(model, path, turnRule))));
  // Cells whose CH path the model cannot take as it is: one potential per destination serves them all.
  destinations.forEach((destination, j) => {
    const rows = origins.map((_, i) => i).filter((i) => table[i]![j] !== null && out[i]![j] === null);
    if (rows.length === 0) return;
    const found = potentialSearch(model, hierarchy, destination, rows.map((i) => origins[i]!));
    rows.forEach((i, k) => {
      out[i]![j] = found[k]!;
    });
  });
  return out;
}

/** The CH path priced by the model when it may take it and it reaches the bound's floor (then nothing is cheaper). */
function provenOptimal(model: CostModel, path: ChRoute, turnRule = graphTurnRule(model.graph, model.mode)): RouteResult | null {
  const priced = priceChPath(model, withoutZeroLengthEnds(path), turnRule);
  return priced && reachesFloor(model, priced.cost, path.bound) ? priced : null;
}

/**
 * A* from each origin to `destination` guided by the hierarchy's exact lower bounds (edges from
 * which the hierarchy cannot reach the destination are not entered, so an unreachable
 * destination costs no more than a reachable one).
 */
function potentialSearch(model: CostModel, hierarchy: ContractionHierarchy, destination: Endpoint, origins: readonly Endpoint[]): (RouteResult | null)[] {
  const lowerBound = chPotential(hierarchy, model.graph, destination);
  const scale = potentialScale(model);
  const nodes = hierarchy.nodes;
  const graph = model.graph;
  const options = { turnRule: graphTurnRule(graph, model.mode), potential: (edge: number) => scale * lowerBound.potential(nodes.headOf(graph, edge)) };
  return origins.map((origin) => searchMany(model, origin, [destination], options)[0]!);
}

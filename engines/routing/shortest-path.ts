/**
 * The one entry point of point-to-point and one-to-many queries for the API and later callers
 * (map matching, stop ordering): it picks the search and applies the mode's turn restrictions.
 */
import type { CostModel } from './cost-model.ts';
import type { Endpoint } from './endpoints.ts';
import type { LngLat } from './road-graph.ts';
import { searchMany, searchRoute, type RouteResult } from './search.ts';
import { graphTurnRule } from './turn-rule.ts';

/** The least-cost route between two endpoints (A* towards `targetPoint`), or null. */
export function shortestPath(model: CostModel, origin: Endpoint, destination: Endpoint, targetPoint: LngLat): RouteResult | null {
  return searchRoute(model, origin, destination, { turnRule: graphTurnRule(model.graph, model.mode), targetLngLat: targetPoint });
}

/** The least-cost route from one origin to each destination (one search), null where unreachable. */
export function shortestPaths(model: CostModel, origin: Endpoint, destinations: readonly Endpoint[]): (RouteResult | null)[] {
  return searchMany(model, origin, destinations, { turnRule: graphTurnRule(model.graph, model.mode) });
}

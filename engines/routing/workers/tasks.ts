/**
 * What the routing worker threads answer: one task per road-routing request (/route's road modes,
 * /match, /matrix, /isochrone, /optimized-route), its inputs checked by the API, its result the
 * engine's own (structured-cloneable; the API writes the response from it).
 */
import { costModel, type CostOptions } from '../cost-model.ts';
import { isochrone, type IsochroneBand } from '../isochrone.ts';
import { matchTrace, type MatchOptions, type TraceFix, type TraceMatch } from '../match/match-trace.ts';
import { travelMatrix, type MatrixOutcome } from '../matrix.ts';
import type { Mode } from '../modes.ts';
import { planRoute, type PlannedRoute } from '../plan-route.ts';
import type { RoadNetwork } from '../release.ts';
import type { LngLat } from '../../../lib/geo/lng-lat.ts';
import { optimizedRoute, type OptimizedRouteOutcome } from '../stop-order/optimized-route.ts';
import type { StopEnds } from '../stop-order/problem.ts';
import { truckCompliance, type TruckCompliance } from '../truck-validation.ts';

export interface RoutingTasks {
  route: { mode: Mode; costs: CostOptions; from: LngLat; to: LngLat };
  match: { mode: Mode; fixes: readonly TraceFix[]; options: Partial<MatchOptions> };
  matrix: { mode: Mode; costs: CostOptions; origins: readonly LngLat[]; destinations: readonly LngLat[]; maxMetres: number };
  isochrone: { mode: Mode; costs: CostOptions; origin: LngLat; bandSeconds: readonly number[] };
  'optimized-route': { mode: Mode; costs: CostOptions; stops: readonly LngLat[]; ends: StopEnds };
}

export interface RoutingResults {
  /** null: no road connects the ends. `truck` for mode truck only. */
  route: { route: Omit<PlannedRoute, 'path'>; truck: TruckCompliance | null } | null;
  match: TraceMatch;
  matrix: MatrixOutcome;
  /** null: no road near enough to the origin. */
  isochrone: IsochroneBand[] | null;
  'optimized-route': OptimizedRouteOutcome;
}

export type TaskKind = keyof RoutingTasks;

export type AnyTask = { [K in TaskKind]: { kind: K; input: RoutingTasks[K] } }[TaskKind];

const run: { [K in TaskKind]: (network: RoadNetwork, input: RoutingTasks[K]) => RoutingResults[K] } = {
  route(network, { mode, costs, from, to }) {
    const model = costModel(network.graph, mode, costs);
    const planned = planRoute(network, model, from, to);
    if (!planned) return null;
    const { path, ...route } = planned;
    return { route, truck: mode === 'truck' ? truckCompliance(model, path) : null };
  },
  match: (network, { mode, fixes, options }) => matchTrace(network, costModel(network.graph, mode), fixes, options),
  matrix: (network, { mode, costs, origins, destinations, maxMetres }) =>
    travelMatrix(network, costModel(network.graph, mode, costs), origins, destinations, maxMetres),
  isochrone: (network, { mode, costs, origin, bandSeconds }) => isochrone(network.snap, costModel(network.graph, mode, costs), origin, bandSeconds),
  'optimized-route': (network, { mode, costs, stops, ends }) => optimizedRoute(network, costModel(network.graph, mode, costs), stops, ends),
};

/** Runs one task on the caller's thread (the worker's). */
export function runTask(network: RoadNetwork, task: AnyTask): RoutingResults[TaskKind] {
  return (run[task.kind] as (network: RoadNetwork, input: unknown) => RoutingResults[TaskKind])(network, task.input);
}

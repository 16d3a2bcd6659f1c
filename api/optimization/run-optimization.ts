/**
 * One solve of POST /optimize after its checks and billing gate: travel times, the solve on the
 * worker pool, polylines. Volume 3 rule 6: road travel and the solver share BUDGET_MS (over it:
 * 504 DEADLINE_EXCEEDED); polylines get POLYLINE_MS more and never fail the solve.
 */
import { collectPlaces, type PlaceSet } from '../../engines/optimization/places.ts';
import { planFleet, type FleetPlan, type SkippedShipment } from '../../engines/optimization/plan-fleet.ts';
import type { Problem, Solution, SolveOptions } from '../../engines/optimization/problem.ts';
import type { OptimizationRequest } from '../../engines/optimization/request-model.ts';
import { drawRoutePolylines, routePlaces } from '../../engines/optimization/route-polylines.ts';
import { travelOf } from '../../engines/optimization/travel.ts';
import { MAX_ROAD_LOCATIONS } from '../../engines/optimization/travel-road.ts';
import { costModel } from '../../engines/routing/cost-model.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { ReleaseUnavailableError } from '../../releases/unavailable.ts';
import { errors } from '../errors.ts';
import type { OptimizationWarning } from '../replies/optimization.ts';

export const BUDGET_MS = 140_000;
export const POLYLINE_MS = 30_000;

export interface OptimizationDeps {
  solve: (problem: Problem, options: SolveOptions, signal: AbortSignal) => Promise<Solution>;
  useRoads: <T>(fn: (network: RoadNetwork) => Promise<T>) => Promise<T>;
  /** The plan's location limit: road travel takes at most the lower of it and MAX_ROAD_LOCATIONS. */
  locationLimit: number;
  /** BUDGET_MS unless a test shortens it. */
  budgetMs?: number;
}

export interface OptimizationOutcome {
  plan: Extract<FleetPlan, { ok: true }>;
  polylines?: (string | null)[];
  warnings: OptimizationWarning[];
}

function unperformable(shipments: SkippedShipment[]): string {
  const [first] = shipments;
  const why = first!.reasons?.map((r) => r.code).join(', ');
  const more = shipments.length > 1 ? ` (and ${shipments.length - 1} more)` : '';
  return `mandatory shipment ${first!.index} cannot be performed${why ? `: ${why}` : ''}${more}`;
}

async function solveWith(deps: OptimizationDeps, request: OptimizationRequest, places: PlaceSet, timeoutSeconds: number, network: RoadNetwork | null) {
  const deadline = performance.now() + (deps.budgetMs ?? BUDGET_MS);
  const travel = travelOf(request, places, network ? { network, model: costModel(network.graph, 'auto') } : null);
  const left = () => deadline - performance.now();
  if (left() <= 0) throw errors.deadlineExceeded('road travel times took longer than the request\'s budget');
  const signal = AbortSignal.timeout(Math.max(1, Math.ceil(left())));
  const options: SolveOptions = { timeLimitMs: Math.min(timeoutSeconds * 1000, left()), searchMode: request.searchMode, seed: 1 };
  try {
    const plan = await planFleet(request, places, travel, (problem) => deps.solve(problem, options, signal));
    if (!plan.ok) throw errors.failedPrecondition(unperformable(plan.unperformable));
    return plan;
  } catch (err) {
    if (signal.aborted) throw errors.deadlineExceeded('the solve did not finish within the request\'s budget');
    throw err;
  }
}

async function polylinesOf(deps: OptimizationDeps, plan: OptimizationOutcome['plan'], places: PlaceSet, network: RoadNetwork | null): Promise<(string | null)[]> {
  const routes = plan.schedules.map((s, v) => (s ? routePlaces(places, s, v) : []));
  const deadline = performance.now() + POLYLINE_MS;
  const draw = async (roads: RoadNetwork) => drawRoutePolylines(roads, costModel(roads.graph, 'auto'), routes, deadline);
  if (!places.latLngs) return routes.map(() => null);
  if (network) return draw(network);
  try {
    return await deps.useRoads(draw);
  } catch (err) {
    if (err instanceof ReleaseUnavailableError) return routes.map(() => null);
    throw err;
  }
}

export async function runOptimization(deps: OptimizationDeps, request: OptimizationRequest, timeoutSeconds: number): Promise<OptimizationOutcome> {
  const places = collectPlaces(request);
  const run = async (network: RoadNetwork | null): Promise<OptimizationOutcome> => {
    const plan = await solveWith(deps, request, places, timeoutSeconds, network);
    const warnings: OptimizationWarning[] = [];
    if (!request.populatePolylines) return { plan, warnings };
    const polylines = await polylinesOf(deps, plan, places, network);
    plan.schedules.forEach((s, v) => {
      if (s && !polylines[v]) warnings.push({ code: 'ROUTE_POLYLINE_UNAVAILABLE', message: `route of vehicle ${v} is valid but has no polyline along roads` });
    });
    return { plan, polylines, warnings };
  };
  if (request.travel.kind !== 'road') return run(null);
  const roadLimit = Math.min(MAX_ROAD_LOCATIONS, deps.locationLimit);
  if (places.size > roadLimit) {
    throw errors.invalidArgument(`road travel takes at most ${roadLimit} distinct locations (this request has ${places.size}); send useGeodesicDistances or own matrices for more`, 'model');
  }
  return deps.useRoads(run);
}

/**
 * One solve of POST /optimize after its checks and billing gate: travel times, the solve on the
 * worker pool, polylines, all against one deadline. The answer is due by the request's arrival +
 * its solve time (the timeout, clamped; volume 3 rule 5) + ANSWER_MARGIN_MS: travel and building
 * the problem count against the timeout, the solver gets what is left (less a share for
 * polylines when they are asked for), and polylines are drawn only until the margin's first half
 * (at most POLYLINE_MS) and never fail the solve. Travel that leaves nothing, or a solve that
 * cannot finish (or place every mandatory shipment) in time, is 504 DEADLINE_EXCEEDED. Volume 3
 * rule 6's 140-second budget (BUDGET_MS) stays the outer bound.
 */
import { collectPlaces, type PlaceSet } from '../../engines/optimization/places.ts';
import { planFleet, type FleetPlan, type SkippedShipment } from '../../engines/optimization/plan-fleet.ts';
import type { Problem, Solution, SolveOptions } from '../../engines/optimization/problem.ts';
import type { OptimizationRequest } from '../../engines/optimization/request-model.ts';
import { roadTask, type RoadResults, type RoadTasks } from '../../engines/optimization/road-tasks.ts';
import { routePlaces } from '../../engines/optimization/route-polylines.ts';
import { SLICE_MS, timeSlices } from '../../engines/optimization/slices.ts';
import { travelOf } from '../../engines/optimization/travel.ts';
import { MAX_ROAD_LOCATIONS } from '../../engines/optimization/travel-road.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { ReleaseUnavailableError } from '../../releases/unavailable.ts';
import { errors } from '../../lib/errors.ts';
import type { OptimizationWarning } from '../../engines/optimization/response-json.ts';

export const BUDGET_MS = 140_000;
export const POLYLINE_MS = 30_000;
/** The answer is due at most this long after the request's arrival + its timeout. */
export const ANSWER_MARGIN_MS = 500;
/**
 * With polylines asked for, the solver leaves them a share of the time left after travel: an
 * estimate of POLYLINE_LEG_MS per leg (every place is visited once, so legs ≈ places), at least
 * POLYLINE_MIN_SHARE and at most POLYLINE_MAX_SHARE of it.
 */
const POLYLINE_LEG_MS = 40;
const POLYLINE_MIN_SHARE = 0.2;
const POLYLINE_MAX_SHARE = 0.5;
/** The solver ends this long before the timeout (at most a tenth of it) to hand back, time routes and reply. */
const FINISH_MS = 250;

export interface OptimizationDeps {
  solve: (problem: Problem, options: SolveOptions, signal: AbortSignal) => Promise<Solution>;
  useRoads: <T>(fn: (network: RoadNetwork) => Promise<T>) => Promise<T>;
  /** The plan's location limit: road travel takes at most the lower of it and MAX_ROAD_LOCATIONS. */
  locationLimit: number;
  /** BUDGET_MS unless a test shortens it. */
  budgetMs?: number;
  /** performance.now() when the request arrived (default: when runOptimization is called). */
  startedAt?: number;
  /** Road travel and polylines (the API: on the solver's threads); default: in process. */
  road?: <K extends keyof RoadTasks>(network: RoadNetwork, kind: K, input: RoadTasks[K], signal: AbortSignal) => Promise<RoadResults[K]>;
}

/** The road tasks run here, on the caller's thread (tests and tools without a pool). */
async function inProcess<K extends keyof RoadTasks>(network: RoadNetwork, kind: K, input: RoadTasks[K]): Promise<RoadResults[K]> {
  return roadTask(network, kind, input);
}

export interface OptimizationOutcome {
  plan: Extract<FleetPlan, { ok: true }>;
  polylines?: (string | null)[];
  warnings: OptimizationWarning[];
}

/** performance.now() times of one request: `due` its timeout; past `hardStop` the solve is abandoned and no polyline is drawn. */
interface Deadlines {
  due: number;
  hardStop: number;
}

function deadlinesOf(deps: OptimizationDeps, timeoutSeconds: number): Deadlines {
  const startedAt = deps.startedAt ?? performance.now();
  const due = startedAt + Math.min(timeoutSeconds * 1000, deps.budgetMs ?? BUDGET_MS);
  // Half the margin for the solver's answer to come back or polylines to finish, half for the reply.
  return { due, hardStop: due + ANSWER_MARGIN_MS / 2 };
}

function unperformable(shipments: SkippedShipment[]): string {
  const [first] = shipments;
  const why = first!.reasons?.map((r) => r.code).join(', ');
  const more = shipments.length > 1 ? ` (and ${shipments.length - 1} more)` : '';
  return `mandatory shipment ${first!.index} cannot be performed${why ? `: ${why}` : ''}${more}`;
}

function polylineReserve(request: OptimizationRequest, places: PlaceSet, leftMs: number): number {
  if (!request.populatePolylines || !places.latLngs) return 0;
  const estimate = places.size * POLYLINE_LEG_MS;
  return Math.min(Math.max(estimate, leftMs * POLYLINE_MIN_SHARE), leftMs * POLYLINE_MAX_SHARE);
}

async function solveWith(deps: OptimizationDeps, request: OptimizationRequest, places: PlaceSet, timeoutSeconds: number, network: RoadNetwork | null, at: Deadlines) {
  const signal = AbortSignal.timeout(Math.max(1, Math.ceil(at.hardStop - performance.now())));
  const travelLate = () => errors.deadlineExceeded(`travel times took longer than the request's timeout (${timeoutSeconds}s)`);
  const road = network ? (latLngs: RoadTasks['travel']['places']) => (deps.road ?? inProcess)(network, 'travel', { places: latLngs }, signal) : null;
  // Slices of travel and problem building stop at the deadline too, not only the solve.
  const slices = timeSlices(SLICE_MS, signal);
  const travel = await travelOf(request, places, road, slices).catch((err: unknown) => {
    throw signal.aborted ? travelLate() : err;
  });
  const left = () => at.due - performance.now();
  if (left() <= 0) throw travelLate();
  const solveMs = Math.max(0, Math.floor(left() - polylineReserve(request, places, left()) - Math.min(FINISH_MS, timeoutSeconds * 100)));
  const options: SolveOptions = { timeLimitMs: solveMs, searchMode: request.searchMode, seed: 1, deadline: Date.now() + solveMs };
  try {
    const plan = await planFleet(request, places, travel, (problem) => deps.solve(problem, options, signal), slices);
    if (!plan.ok && plan.unfinished) {
      throw errors.deadlineExceeded(`the solve could not place every mandatory shipment within the request's timeout (${timeoutSeconds}s); send a longer timeout`);
    }
    if (!plan.ok) throw errors.failedPrecondition(unperformable(plan.unperformable));
    return plan;
  } catch (err) {
    if (signal.aborted) throw errors.deadlineExceeded(`the solve did not finish within the request's timeout (${timeoutSeconds}s)`);
    throw err;
  }
}

async function polylinesOf(deps: OptimizationDeps, plan: OptimizationOutcome['plan'], places: PlaceSet, network: RoadNetwork | null, at: Deadlines): Promise<(string | null)[]> {
  const routes = plan.schedules.map((s, v) => (s ? routePlaces(places, s, v) : []));
  const ms = Math.min(at.hardStop - performance.now(), POLYLINE_MS);
  const none = () => routes.map(() => null);
  if (!places.latLngs || ms <= 0) return none();
  // Optional: a drawing that overruns its time (the worker stuck in one leg) is abandoned, never an error.
  const signal = AbortSignal.timeout(Math.ceil(ms) + 50);
  const draw = async (roads: RoadNetwork) => (deps.road ?? inProcess)(roads, 'polylines', { routes, deadline: Date.now() + ms }, signal).catch((err: unknown) => {
    if (signal.aborted) return none();
    throw err;
  });
  if (network) return draw(network);
  try {
    return await deps.useRoads(draw);
  } catch (err) {
    if (err instanceof ReleaseUnavailableError) return routes.map(() => null);
    throw err;
  }
}

export async function runOptimization(deps: OptimizationDeps, request: OptimizationRequest, timeoutSeconds: number): Promise<OptimizationOutcome> {
  const at = deadlinesOf(deps, timeoutSeconds);
  const places = collectPlaces(request);
  const run = async (network: RoadNetwork | null): Promise<OptimizationOutcome> => {
    const plan = await solveWith(deps, request, places, timeoutSeconds, network, at);
    const warnings: OptimizationWarning[] = [];
    if (!request.populatePolylines) return { plan, warnings };
    const polylines = await polylinesOf(deps, plan, places, network, at);
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

/**
 * One fleet optimization from a checked request and its travel: drop what cannot be reached,
 * solve, refuse when a mandatory shipment stays unperformed (volume 3 planning rule 1), and
 * time every used route. Solving itself is `solve` (the worker-thread pool in the API).
 */
import { buildProblemInSlices, type BuiltProblem } from './build-problem.ts';
import type { PlaceSet } from './places.ts';
import type { Problem, RouteSchedule, Solution } from './problem.ts';
import { unreachableShipments } from './reachability.ts';
import type { OptimizationRequest } from './request-model.ts';
import { scheduleRoute } from './schedule.ts';
import { skipReasons, type SkipReason } from './skip-reasons.ts';
import { timeSlices, type Slices } from './slices.ts';
import type { Travel } from './travel.ts';

export const UNREACHABLE_BY_ROAD = 'UNREACHABLE_BY_ROAD';

export interface SkippedShipment {
  index: number;
  label?: string;
  reasons?: SkipReason[];
}

export type FleetPlan =
  | {
    ok: true;
    /** Per vehicle; visits carry request shipment indices. Null: unused. */
    schedules: (RouteSchedule | null)[];
    skipped: SkippedShipment[];
    /** Penalty costs of the skipped shipments. */
    penalty: number;
    /** Request indices of performed shipments. */
    performed: number[];
  }
  | { ok: false; unperformable: SkippedShipment[]; unfinished?: boolean };

const withLabel = (request: OptimizationRequest, index: number, reasons?: SkipReason[]): SkippedShipment => {
  const label = request.shipments[index]!.label;
  return { index, ...(label !== undefined ? { label } : {}), ...(reasons ? { reasons } : {}) };
};

function emptySolution(problem: Problem): Solution {
  return { routes: problem.vehicles.map(() => []), skipped: [], cost: 0 };
}

async function scheduled(built: BuiltProblem, solution: Solution, slices: Slices): Promise<(RouteSchedule | null)[]> {
  const out: (RouteSchedule | null)[] = [];
  for (const [vehicle, stops] of solution.routes.entries()) {
    if (slices.due()) await slices.pause();
    if (stops.length === 0) {
      out.push(null);
      continue;
    }
    const schedule = scheduleRoute(built.problem, vehicle, stops);
    if (!schedule) throw new Error(`the solver returned an infeasible route for vehicle ${vehicle}`);
    for (const visit of schedule.visits) visit.shipment = built.requestIndexOf[visit.shipment]!;
    out.push(schedule);
  }
  return out;
}

async function reasonsOf(built: BuiltProblem, request: OptimizationRequest, skipped: number[], slices: Slices): Promise<SkippedShipment[]> {
  const out: SkippedShipment[] = [];
  for (const s of skipped) {
    if (slices.due()) await slices.pause();
    out.push(withLabel(request, built.requestIndexOf[s]!, skipReasons(built.problem, s)));
  }
  return out;
}

/**
 * `slices`: building the problem runs in these time slices (the API's event loop; they may stop it
 * at a deadline). Once the solver has answered, the plan is finished in slices of its own, never
 * abandoned.
 */
export async function planFleet(
  request: OptimizationRequest, places: PlaceSet, travel: Travel, solve: (problem: Problem) => Promise<Solution>, slices = timeSlices(),
): Promise<FleetPlan> {
  const unreachable = new Set(travel.reachable ? unreachableShipments(request, places, travel.reachable) : []);
  const unreachableMandatory = [...unreachable].filter((i) => request.shipments[i]!.penaltyCost === null);
  const roadReason = [{ code: UNREACHABLE_BY_ROAD }];
  if (unreachableMandatory.length > 0) return { ok: false, unperformable: unreachableMandatory.map((i) => withLabel(request, i, roadReason)) };
  const built = await buildProblemInSlices(request, places, travel.matrices, travel.matrixOf, (i) => !unreachable.has(i), slices);
  if (slices.due()) await slices.pause();
  const solution = built.problem.shipments.length === 0 ? emptySolution(built.problem) : await solve(built.problem);
  slices = timeSlices();
  const mandatory = solution.skipped.filter((s) => built.problem.shipments[s]!.penaltyCost === null);
  // Cut off by the time cap: the shipments left over were not found impossible, only not reached.
  if (mandatory.length > 0 && solution.unfinished) return { ok: false, unperformable: [], unfinished: true };
  if (mandatory.length > 0) return { ok: false, unperformable: await reasonsOf(built, request, mandatory, slices) };
  const skipped = [
    ...[...unreachable].map((i) => withLabel(request, i, roadReason)),
    ...await reasonsOf(built, request, solution.skipped, slices),
  ].sort((a, b) => a.index - b.index);
  const schedules = await scheduled(built, solution, slices);
  const performed = [...new Set(schedules.flatMap((s) => s?.visits.map((v) => v.shipment) ?? []))].sort((a, b) => a - b);
  const penalty = skipped.reduce((sum, s) => sum + (request.shipments[s.index]!.penaltyCost ?? 0), 0);
  return { ok: true, schedules, skipped, penalty, performed };
}

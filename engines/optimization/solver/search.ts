/**
 * The in-process search: regret-2 construction, then SISR ruin-and-recreate under simulated
 * annealing with a temperature falling geometrically from T0 to Tf over the run (by time, or by
 * iterations when an iteration budget is given), an occasional whole-route removal when vehicles
 * have a fixed cost (fleet minimisation), and a final local search on the best solution.
 */
import type { Problem, Solution, SolveOptions } from '../problem.ts';
import { routeCost } from '../schedule.ts';
import { regretConstruct } from './construct.ts';
import { fleetMatters, minimiseFleet } from './fleet.ts';
import { improve } from './local-search.ts';
import { buildModel, type Model } from './model.ts';
import { Rng } from './rng.ts';
import { DEFAULT_SISR, recreate, ruin, ruinRoute, type SisrParams } from './sisr.ts';
import { State, type Snapshot } from './state.ts';

/** RETURN_FAST's iteration budgets, per shipment. */
const FAST_ITERATIONS_PER_SHIPMENT = 300;
const FAST_FLEET_ITERATIONS_PER_SHIPMENT = 1000;
/**
 * Longer strings for larger problems: measured through the API, strings of up to 15 visits took
 * Gehring–Homberger 200 from +2.74 % to +2.29 % (RETURN_FAST), and Solomon 100 from +0.57 % to
 * +0.64 %, so the longer strings are kept for problems past 150 shipments.
 */
const LARGE_PROBLEM = 150;
const LARGE_PROBLEM_MAX_STRING = 15;
/** RETURN_FAST ends after this many iterations per shipment without a better solution. */
const FAST_STAGNATION_PER_SHIPMENT = 50;
const FAST_FLEET_STAGNATION_PER_SHIPMENT = 300;
/**
 * Fleet-minimisation effort by thread: one thread keeps most of its budget for distance and gives
 * up on a route after some steps per shipment; the other gives the fleet most of its budget, since
 * the hardest fleets fall only after seconds.
 */
const FLEET_EFFORT = [
  { share: 0.4, stepsPerRoutePerShipment: 200 },
  { share: 0.75, stepsPerRoutePerShipment: Infinity },
];

export interface SearchOptions extends SolveOptions {
  /** Stop after this many ruin-and-recreate iterations (deterministic runs); the time cap still applies. */
  maxIterations?: number;
  /** Temperatures as multiples of the mean arc cost of the initial solution. */
  t0?: number;
  tf?: number;
  sisr?: Partial<SisrParams>;
  /** Share of the budget given to fleet minimisation when fixed costs dominate (default: by thread). */
  fleetShare?: number;
  /** Which of the pool's threads runs this search: the odd ones spend more of it on the fleet. */
  thread?: number;
  /** Called on each new best (progress reporting). */
  onImprove?: (cost: number, iteration: number) => void;
}

export interface SearchStats {
  iterations: number;
  elapsedMs: number;
}

export function solveInProcess(problem: Problem, given: SearchOptions, stats?: SearchStats): Solution {
  const began = performance.now();
  // A search that starts late (queued, or on a worker still starting) gets what is left before its deadline.
  const options = given.deadline === undefined ? given : { ...given, timeLimitMs: Math.max(0, Math.min(given.timeLimitMs, given.deadline - Date.now())) };
  const model = buildModel(problem);
  const rng = new Rng(options.seed);
  const params: SisrParams = { ...DEFAULT_SISR, ...(model.shipmentCount > LARGE_PROBLEM ? { maxString: LARGE_PROBLEM_MAX_STRING } : {}), ...options.sisr };
  const state = new State(model);
  // Construction may take at most half the budget on huge problems; the rest is then greedy, and
  // what the budget leaves unplaced stays unassigned (the solution says it is unfinished).
  if (!regretConstruct(state, began + 0.5 * options.timeLimitMs, began + options.timeLimitMs)) {
    if (stats) Object.assign(stats, { iterations: 0, elapsedMs: performance.now() - began });
    return { ...toSolution(model, state), unfinished: true };
  }
  const arc = meanArcCost(state);
  // RETURN_FAST: an iteration budget proportional to the size drives the cooling, and stagnation ends it early.
  // Fleet minimisation needs far more steps than distance alone (each route emptied is a search of its own).
  const fastMode = options.searchMode === 'RETURN_FAST';
  const fleet = fleetMatters(state, arc);
  const perShipment = fleet ? FAST_FLEET_ITERATIONS_PER_SHIPMENT : FAST_ITERATIONS_PER_SHIPMENT;
  const maxIterations = options.maxIterations ?? (fastMode ? Math.max(5000, perShipment * model.shipmentCount) : Infinity);
  const useIterations = maxIterations !== Infinity;
  const deadline = began + options.timeLimitMs;
  let iteration = 0;
  if (fleet) {
    // Fleet minimisation gets the first part of the budget (in time, or in iterations).
    const effort = FLEET_EFFORT[(options.thread ?? 0) % FLEET_EFFORT.length]!;
    const share = options.fleetShare ?? effort.share;
    const fleetEnd = began + share * options.timeLimitMs;
    const fleetSteps = share * maxIterations;
    let calls = 0;
    const steps = minimiseFleet(state, rng, params, (work = 1) => (useIterations ? (calls += work) > fleetSteps : false) || performance.now() >= (useIterations ? deadline : fleetEnd), Math.max(2000, effort.stepsPerRoutePerShipment * model.shipmentCount));
    iteration = Math.min(steps, fleetSteps);
  }
  let current = state.cost();
  let best: Snapshot = state.snapshot();
  const t0 = (options.t0 ?? 3) * arc;
  const tf = (options.tf ?? 0.03) * arc;
  const stagnation = fastMode ? Math.max(2000, (fleet ? FAST_FLEET_STAGNATION_PER_SHIPMENT : FAST_STAGNATION_PER_SHIPMENT) * model.shipmentCount) : Infinity;
  const fleetRate = model.vehicles.some((v) => v.fixed > 0) ? 0.05 : 0;
  const removed: number[] = [];
  let lastImprovement = iteration;
  const saStart = performance.now();
  const saIterations = iteration;
  while (iteration < maxIterations && model.shipmentCount > 0) {
    const now = performance.now();
    if (now >= deadline || iteration - lastImprovement > stagnation) break;
    const progress = useIterations ? (iteration - saIterations) / (maxIterations - saIterations) : (now - saStart) / (deadline - saStart);
    const temperature = t0 * Math.pow(tf / t0, progress);
    if (fleetRate > 0 && rng.next() < fleetRate) ruinRoute(state, rng, removed);
    else ruin(state, rng, params, removed);
    recreate(state, rng, params, removed);
    const cost = state.cost();
    if (cost < current - temperature * Math.log(rng.next() + 1e-300)) {
      state.commit();
      current = cost;
      if (cost < best.cost - 1e-9) {
        best = state.snapshot();
        lastImprovement = iteration;
        options.onImprove?.(cost, iteration);
      }
    } else state.rollback();
    iteration++;
  }
  state.restore(best);
  improve(state, deadline);
  if (stats) {
    stats.iterations = iteration;
    stats.elapsedMs = performance.now() - began;
  }
  return toSolution(model, state);
}

/** Mean cost per arc of the used routes, fixed costs aside: the temperature's scale. */
function meanArcCost(state: State): number {
  let cost = 0;
  let arcs = 0;
  for (const r of state.routes) if (r.n > 0) {
    cost += r.cost - r.view.fixed;
    arcs += r.n + 1;
  }
  return arcs > 0 && cost > 0 ? cost / arcs : 1e-6;
}

/** The solution priced exactly by the scheduler; a route it rejects is dropped (its shipments skipped). */
function toSolution(model: Model, state: State): Solution {
  const problem = model.problem;
  const routes = state.routes.map((r) => r.stops());
  let cost = 0;
  routes.forEach((stops, v) => {
    const c = routeCost(problem, v, stops);
    if (c === Infinity) {
      for (const s of stops) state.routeOf[s.shipment] = -1;
      routes[v] = [];
    } else cost += c;
  });
  const skipped: number[] = [];
  for (let s = 0; s < model.shipmentCount; s++) {
    if (state.routeOf[s] !== -1) continue;
    skipped.push(s);
    cost += problem.shipments[s]!.penaltyCost ?? Infinity;
  }
  return { routes, skipped, cost };
}

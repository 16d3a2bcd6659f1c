import { describe, expect, it } from 'vitest';
import type { Problem, Shipment, Vehicle } from '../../engines/optimization/problem.ts';
import { scheduleRoute } from '../../engines/optimization/schedule.ts';
import { insertWithEjection } from '../../engines/optimization/solver/ejection.ts';
import { fleetLowerBound, minimiseFleet } from '../../engines/optimization/solver/fleet.ts';
import { regretConstruct } from '../../engines/optimization/solver/construct.ts';
import { buildModel } from '../../engines/optimization/solver/model.ts';
import { Rng } from '../../engines/optimization/solver/rng.ts';
import { DEFAULT_SISR } from '../../engines/optimization/solver/sisr.ts';
import { State } from '../../engines/optimization/solver/state.ts';
import { bestKnown, loadInstance } from '../support/optimization/instances.ts';
import { toProblem } from '../support/optimization/to-problem.ts';

/** Points on a line (travel = distance), location 0 the depot; each shipment a delivery with one window. */
function lineProblem(points: number[], customers: { at: number; window: [number, number]; demand?: number }[], vehicles: number, capacity = 10): Problem {
  const n = points.length;
  const durations = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) durations[a * n + b] = Math.abs(points[a]! - points[b]!);
  const vehicle: Vehicle = {
    matrix: 0, start: 0, end: 0, startWindow: { start: 0, end: 100 }, endWindow: { start: 0, end: 100 }, loadLimits: [{ max: capacity }],
    fixedCost: 1e6, costPerHour: 0, costPerTraveledHour: 0, costPerKilometer: 1000,
    routeDurationLimit: { max: Infinity }, travelDurationLimit: { max: Infinity }, routeDistanceLimit: { max: Infinity }, breaks: [],
  };
  const shipments: Shipment[] = customers.map((c) => ({
    pickup: null, delivery: { location: c.at, duration: 0, windows: [{ start: c.window[0], end: c.window[1] }] }, demand: [c.demand ?? 1], penaltyCost: null, allowedVehicles: null,
  }));
  return { horizon: 100, loadTypes: ['units'], matrices: [{ size: n, durations, distances: durations }], vehicles: Array.from({ length: vehicles }, () => ({ ...vehicle })), shipments };
}

/** Shipments by route (delivery node = 2·shipment + 1). */
function stateWith(problem: Problem, routes: number[][]): State {
  const state = new State(buildModel(problem));
  state.restore({ routes: routes.map((r) => Int32Array.from(r, (s) => 2 * s + 1)), cost: 0 });
  return state;
}

const routesOf = (state: State) => state.routes.map((r) => Array.from(r.nodes.subarray(1, r.n + 1), (n) => n >> 1));

function expectFeasible(problem: Problem, state: State): void {
  state.routes.forEach((r, v) => {
    if (r.n > 0) expect(scheduleRoute(problem, v, r.stops()), `route ${v}`).not.toBeNull();
  });
}

describe('insertion with ejection', () => {
  // x: depot 0, A 10 at exactly 10, B 20 at exactly 20, C 30 any time, E 20 at exactly 20, U 10 at 20–21.
  // U cannot share a route with B or E (both must be at 20, 10 apart), so placing U ejects one of them.
  const problem = lineProblem([0, 10, 20, 30], [
    { at: 1, window: [10, 10] }, { at: 2, window: [20, 20] }, { at: 3, window: [0, 100] }, { at: 2, window: [20, 20] }, { at: 1, window: [20, 21] },
  ], 2);
  const [A, B, C, E, U] = [0, 1, 2, 3, 4];

  it('ejects the visit of least penalty and leaves every route on time', () => {
    for (const [pB, pE, out, route] of [[1, 2, B, 0], [3, 2, E, 1]] as const) {
      const state = stateWith(problem, [[A, B, C], [E]]);
      const best = { delta: Infinity, v: -1, a: 0, c: 0 };
      state.best(U, null, 0, best);
      expect(best.v).toBe(-1);
      const penalty = Float64Array.from([1, pB, 1, pE, 1]);
      const { ejected, explored } = insertWithEjection(state, U, penalty, 3);
      expect(ejected).toEqual([out]);
      expect(explored).toBeGreaterThan(0);
      expect(state.routeOf[U]).toBe(route);
      expect(state.routeOf[out]).toBe(-1);
      expect(routesOf(state)[route]).toContain(U);
      expectFeasible(problem, state);
    }
  });

  it('gives up, changing nothing, when no ejection of few enough visits makes room', () => {
    // U at 10 before time 5 is out of reach of any route, ejections or not.
    const late = lineProblem([0, 10, 20, 30], [{ at: 1, window: [10, 10] }, { at: 1, window: [0, 5] }], 1);
    const state = stateWith(late, [[0]]);
    expect(insertWithEjection(state, 1, Float64Array.from([1, 1]), 3).ejected).toBeNull();
    expect(routesOf(state)).toEqual([[0]]);
    // B and E both block U in one route: one ejection is not enough, two are.
    const crowded = lineProblem([0, 10, 20, 30], [{ at: 2, window: [20, 20] }, { at: 3, window: [30, 30] }, { at: 1, window: [20, 21] }], 1);
    const twice = () => stateWith(crowded, [[0, 1]]);
    const one = twice();
    expect(insertWithEjection(one, 2, Float64Array.from([1, 1, 1]), 1).ejected).toBeNull();
    const two = twice();
    expect(insertWithEjection(two, 2, Float64Array.from([1, 1, 1]), 2).ejected?.sort()).toEqual([0, 1]);
    expectFeasible(crowded, two);
  });

  it('checks loads: an ejection that leaves the route over capacity is not taken', () => {
    // Capacity 3: U (demand 2) fits after ejecting A (demand 2), not after ejecting B (demand 1), though B's penalty is lower.
    const loads = lineProblem([0, 10, 20, 30], [{ at: 1, window: [0, 100], demand: 2 }, { at: 2, window: [0, 100], demand: 1 }, { at: 3, window: [0, 100], demand: 2 }], 1, 3);
    const state = stateWith(loads, [[0, 1]]);
    expect(insertWithEjection(state, 2, Float64Array.from([5, 1, 1]), 3).ejected).toEqual([0]);
    expectFeasible(loads, state);
  });
});

describe('fleet minimisation', () => {
  it('stops at the fleet the loads call for', () => {
    const r101 = toProblem(loadInstance('solomon', 'R101'), 'vehicles');
    const total = r101.shipments.reduce((a, s) => a + s.demand[0]!, 0);
    expect(fleetLowerBound(buildModel(r101))).toBe(Math.ceil(total / 200));
  });

  it('reaches the best-known fleet of Solomon RC105 and R211, and of Li–Lim lc103 (pairs), from the regret construction, the same for a seed', () => {
    for (const [cls, name] of [['solomon', 'RC105'], ['solomon', 'R211'], ['li_lim_100', 'lc103']] as const) {
      const inst = loadInstance(cls, name);
      const problem = toProblem(inst, 'vehicles');
      const run = () => {
        const state = new State(buildModel(problem));
        regretConstruct(state);
        const built = state.routes.filter((r) => r.n > 0).length;
        let work = 0;
        minimiseFleet(state, new Rng(3), DEFAULT_SISR, (w = 1) => (work += w) > 60_000, Infinity);
        return { built, state };
      };
      const { built, state } = run();
      const used = state.routes.filter((r) => r.n > 0).length;
      expect(built, name).toBeGreaterThan(bestKnown(inst).vehicles!.vehicles);
      expect(used, name).toBe(bestKnown(inst).vehicles!.vehicles);
      expect(state.routeOf.every((v) => v >= 0)).toBe(true);
      expectFeasible(problem, state);
      expect(routesOf(run().state)).toEqual(routesOf(state));
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { Problem, RouteStop, Shipment, Solution, Vehicle, Visit } from '../../engines/optimization/problem.ts';
import { scheduleRoute } from '../../engines/optimization/schedule.ts';
import { solveInProcess } from '../../engines/optimization/solver/index.ts';
import { seededRandom as rand } from '../../lib/seeded-random.ts';

function vehicle(over: Partial<Vehicle> = {}): Vehicle {
  return {
    matrix: 0, start: 0, end: 0, startWindow: { start: 0, end: 10_000 }, endWindow: { start: 0, end: 10_000 }, loadLimits: [{ max: 10 }],
    fixedCost: 0, costPerHour: 0, costPerTraveledHour: 0, costPerKilometer: 1000,
    routeDurationLimit: { max: Infinity }, travelDurationLimit: { max: Infinity }, routeDistanceLimit: { max: Infinity }, breaks: [], ...over,
  };
}

/** Random points in a 100 × 100 square, Euclidean travel (seconds = metres), location 0 the depot. */
function randomProblem(seed: number, opts: { shipments: number; pairs: boolean; vehicles: Partial<Vehicle>[]; windows: boolean; penalty?: number }): Problem {
  const r = rand(seed);
  const n = 1 + (opts.pairs ? 2 : 1) * opts.shipments;
  const pts = Array.from({ length: n }, (_, i) => (i === 0 ? [50, 50] : [Math.round(r() * 100), Math.round(r() * 100)]));
  const durations = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) durations[a * n + b] = Math.hypot(pts[a]![0]! - pts[b]![0]!, pts[a]![1]! - pts[b]![1]!);
  const visit = (loc: number): Visit => {
    const start = Math.round(r() * 300);
    return { location: loc, duration: 10, windows: opts.windows ? [{ start, end: start + 100 + Math.round(r() * 200) }] : [] };
  };
  const shipments: Shipment[] = [];
  for (let i = 0; i < opts.shipments; i++) {
    const demand = [1 + Math.floor(r() * 5)];
    if (opts.pairs) shipments.push({ pickup: visit(1 + 2 * i), delivery: visit(2 + 2 * i), demand, penaltyCost: opts.penalty ?? null, allowedVehicles: null });
    else shipments.push({ pickup: null, delivery: visit(1 + i), demand, penaltyCost: opts.penalty ?? null, allowedVehicles: null });
  }
  return { horizon: 10_000, loadTypes: ['units'], matrices: [{ size: n, durations, distances: durations }], vehicles: opts.vehicles.map((v) => vehicle(v)), shipments };
}

/** The optimum by enumeration: every subset of optional shipments, every sequence split over the vehicles. */
function bruteForce(problem: Problem): number {
  const V = problem.vehicles.length;
  const S = problem.shipments.length;
  let best = Infinity;
  const routeCost = (v: number, stops: RouteStop[]) => (stops.length === 0 ? 0 : scheduleRoute(problem, v, stops)?.totalCost ?? Infinity);
  for (let mask = 0; mask < 1 << S; mask++) {
    let penalty = 0;
    const stops: RouteStop[] = [];
    let ok = true;
    problem.shipments.forEach((s, i) => {
      if (mask & (1 << i)) {
        if (s.pickup) stops.push({ shipment: i, isPickup: true });
        if (s.delivery) stops.push({ shipment: i, isPickup: false });
      } else if (s.penaltyCost === null) ok = false;
      else penalty += s.penaltyCost;
    });
    if (!ok) continue;
    const routes: RouteStop[][] = Array.from({ length: V }, () => []);
    const used = new Array<boolean>(stops.length).fill(false);
    const walk = (v: number, placed: number, acc: number): void => {
      if (acc + penalty >= best) return;
      if (placed === stops.length) {
        let total = acc;
        for (let w = v; w < V; w++) total += routeCost(w, routes[w]!);
        best = Math.min(best, total + penalty);
        return;
      }
      if (v + 1 < V) walk(v + 1, placed, acc + routeCost(v, routes[v]!));
      for (let i = 0; i < stops.length; i++) {
        if (used[i]) continue;
        used[i] = true;
        routes[v]!.push(stops[i]!);
        walk(v, placed + 1, acc);
        routes[v]!.pop();
        used[i] = false;
      }
    };
    walk(0, 0, 0);
  }
  return best;
}

function check(problem: Problem, solution: Solution): number {
  let cost = 0;
  solution.routes.forEach((stops, v) => {
    if (stops.length === 0) return;
    const s = scheduleRoute(problem, v, stops);
    expect(s, `route ${v} feasible`).not.toBeNull();
    cost += s!.totalCost;
  });
  for (const i of solution.skipped) cost += problem.shipments[i]!.penaltyCost ?? Infinity;
  expect(solution.cost).toBeCloseTo(cost, 6);
  const seen = new Set<number>(solution.skipped);
  solution.routes.forEach((stops) => stops.forEach((s) => seen.add(s.shipment)));
  expect(seen.size).toBe(problem.shipments.length);
  return cost;
}

function expectOptimal(pb: Problem, sol: Solution): void {
  const optimum = bruteForce(pb);
  // Penalties are high: the optimum serves most shipments.
  expect(optimum).toBeLessThan(3 * 5000);
  expect(check(pb, sol)).toBeCloseTo(optimum, 6);
}

const options = { timeLimitMs: 20_000, searchMode: 'CONSUME_ALL_AVAILABLE_TIME' as const, seed: 7, maxIterations: 1500 };

describe('solveInProcess finds the optimum of small instances', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`single visits with windows and capacity, seed ${seed}`, () => {
      const pb = randomProblem(seed, { shipments: 6, pairs: false, vehicles: [{}, { loadLimits: [{ max: 8 }] }], windows: true, penalty: 5000 });
      const sol = solveInProcess(pb, options);
      expectOptimal(pb, sol);
    });
    it(`pickup-delivery pairs, seed ${seed}`, () => {
      const pb = randomProblem(seed, { shipments: 3, pairs: true, vehicles: [{}, { loadLimits: [{ max: 6 }] }], windows: seed % 2 === 0, penalty: 5000 });
      const sol = solveInProcess(pb, options);
      expectOptimal(pb, sol);
      sol.routes.forEach((stops) => {
        for (const s of new Set(stops.map((x) => x.shipment))) {
          const at = stops.filter((x) => x.shipment === s);
          expect(at.map((x) => x.isPickup)).toEqual([true, false]);
        }
      });
    });
  }
  it('with costs the fast checks do not model (cost per hour, breaks, soft windows)', () => {
    const pb = randomProblem(9, {
      shipments: 5, pairs: false, windows: true, penalty: 5000,
      vehicles: [{ costPerHour: 3600, fixedCost: 50, breaks: [{ earliestStart: 100, latestStart: 300, minDuration: 20 }] }, { costPerHour: 1800, costPerKilometer: 2000 }],
    });
    pb.shipments[0]!.delivery!.windows = [{ start: 0, end: 1000, softEnd: 100, costPerHourAfterSoftEnd: 7200 }];
    const sol = solveInProcess(pb, options);
    expectOptimal(pb, sol);
  });
  it('with pairs and costs the fast checks do not model', () => {
    const pb = randomProblem(10, { shipments: 3, pairs: true, windows: true, penalty: 5000, vehicles: [{ costPerHour: 3600, breaks: [{ earliestStart: 50, latestStart: 250, minDuration: 30 }] }, { costPerHour: 7200, loadLimits: [{ max: 4 }] }] });
    pb.shipments[1]!.pickup!.windows = [{ start: 0, end: 40 }, { start: 200, end: 260 }];
    const sol = solveInProcess(pb, options);
    expectOptimal(pb, sol);
  });
  it('with open routes and a fixed cost that makes one vehicle cheaper', () => {
    const pb = randomProblem(11, { shipments: 6, pairs: false, windows: false, penalty: 5000, vehicles: [{ start: null, end: null, fixedCost: 500, loadLimits: [{ max: 100 }] }, { fixedCost: 500, loadLimits: [{ max: 100 }] }] });
    const sol = solveInProcess(pb, options);
    expectOptimal(pb, sol);
    expect(sol.routes.filter((r) => r.length > 0)).toHaveLength(1);
  });
});

describe('solveInProcess skipping and restrictions', () => {
  it('returns an unplaceable mandatory shipment as skipped with an infinite cost', () => {
    const pb = randomProblem(5, { shipments: 4, pairs: false, vehicles: [{}], windows: false });
    pb.shipments.forEach((s) => (s.demand = [1]));
    pb.shipments[2]!.demand = [50];
    const sol = solveInProcess(pb, options);
    expect(sol.skipped).toEqual([2]);
    expect(sol.cost).toBe(Infinity);
    expect(sol.routes[0]).toHaveLength(3);
  });

  it('skips an optional shipment whose penalty is below the cost of serving it', () => {
    const pb = randomProblem(6, { shipments: 4, pairs: false, vehicles: [{}], windows: false });
    pb.matrices[0]!.durations.fill(10);
    pb.shipments.forEach((s) => (s.demand = [1]));
    pb.shipments[1]!.penaltyCost = 5; // serving it costs at least 10 (one more arc)
    pb.shipments[3]!.penaltyCost = 1000;
    const sol = solveInProcess(pb, options);
    expect(sol.skipped).toEqual([1]);
    expect(sol.cost).toBeCloseTo(40 + 5, 6);
  });

  it('respects allowedVehicles', () => {
    const pb = randomProblem(8, { shipments: 6, pairs: false, vehicles: [{}, {}, {}], windows: false });
    pb.shipments.forEach((s, i) => (s.allowedVehicles = [i % 3]));
    const sol = solveInProcess(pb, options);
    sol.routes.forEach((stops, v) => stops.forEach((s) => expect(s.shipment % 3).toBe(v)));
    expect(sol.skipped).toEqual([]);
  });

  it('is deterministic for a seed with an iteration budget', () => {
    const pb = randomProblem(12, { shipments: 40, pairs: false, vehicles: Array.from({ length: 6 }, () => ({ loadLimits: [{ max: 100 }] })), windows: true });
    pb.horizon = 100_000;
    const a = solveInProcess(pb, { ...options, maxIterations: 400 });
    const b = solveInProcess(pb, { ...options, maxIterations: 400 });
    expect(b).toEqual(a);
  });
});

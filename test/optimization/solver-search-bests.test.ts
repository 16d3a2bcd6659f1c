import { describe, expect, it } from 'vitest';
import type { Problem, Shipment, Vehicle } from '../../engines/optimization/problem.ts';
import { routeCost } from '../../engines/optimization/schedule.ts';
import { solveInProcess } from '../../engines/optimization/solver/index.ts';
import { seededRandom as rand } from '../../lib/seeded-random.ts';

/** 60 single visits with windows on a 100 × 100 square, Euclidean travel, depot at the centre. */
function windowsProblem(seed: number): Problem {
  const r = rand(seed);
  const n = 61;
  const pts = Array.from({ length: n }, (_, i) => (i === 0 ? [50, 50] : [Math.round(r() * 100), Math.round(r() * 100)]));
  const durations = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) durations[a * n + b] = Math.hypot(pts[a]![0]! - pts[b]![0]!, pts[a]![1]! - pts[b]![1]!);
  const shipments: Shipment[] = Array.from({ length: n - 1 }, (_, i) => {
    const start = Math.round(r() * 600);
    return { pickup: null, delivery: { location: i + 1, duration: 10, windows: [{ start, end: start + 150 }] }, demand: [1 + Math.floor(r() * 4)], penaltyCost: null, allowedVehicles: null };
  });
  const vehicle: Vehicle = {
    matrix: 0, start: 0, end: 0, startWindow: { start: 0, end: 10_000 }, endWindow: { start: 0, end: 10_000 }, loadLimits: [{ max: 20 }],
    fixedCost: 0, costPerHour: 0, costPerTraveledHour: 0, costPerKilometer: 1000,
    routeDurationLimit: { max: Infinity }, travelDurationLimit: { max: Infinity }, routeDistanceLimit: { max: Infinity }, breaks: [],
  };
  return { horizon: 10_000, loadTypes: ['units'], matrices: [{ size: n, durations, distances: durations }], vehicles: Array.from({ length: 12 }, () => vehicle), shipments };
}

const options = { timeLimitMs: 20_000, searchMode: 'CONSUME_ALL_AVAILABLE_TIME' as const, seed: 3, maxIterations: 800 };

describe('search bests', () => {
  it('reports strictly falling bests and returns the last one, every route feasible', () => {
    const problem = windowsProblem(11);
    const reported: number[] = [];
    const solution = solveInProcess(problem, { ...options, onImprove: (cost) => reported.push(cost) });
    for (let i = 1; i < reported.length; i++) expect(reported[i]!).toBeLessThan(reported[i - 1]!);
    expect(solution.skipped).toEqual([]);
    let total = 0;
    solution.routes.forEach((stops, v) => (total += stops.length === 0 ? 0 : routeCost(problem, v, stops)));
    expect(Number.isFinite(total)).toBe(true);
    expect(solution.cost).toBeCloseTo(total, 6);
    expect(reported.length).toBeGreaterThan(0);
    expect(solution.cost).toBeLessThanOrEqual(reported[reported.length - 1]! + 1e-6);
  });
});

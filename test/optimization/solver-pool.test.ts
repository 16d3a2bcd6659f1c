import { afterAll, describe, expect, it } from 'vitest';
import type { Problem, Vehicle } from '../../engines/optimization/problem.ts';
import { solveInProcess } from '../../engines/optimization/solver/index.ts';
import { SolverPool } from '../../engines/optimization/solver-pool.ts';

function grid(n: number, vehicles: number): Problem {
  const pts = Array.from({ length: n + 1 }, (_, i) => (i === 0 ? [0, 0] : [(i * 37) % 101, (i * 53) % 97]));
  const size = pts.length;
  const durations = new Float64Array(size * size);
  for (let a = 0; a < size; a++) for (let b = 0; b < size; b++) durations[a * size + b] = Math.hypot(pts[a]![0]! - pts[b]![0]!, pts[a]![1]! - pts[b]![1]!);
  const v: Vehicle = {
    matrix: 0, start: 0, end: 0, startWindow: { start: 0, end: 100_000 }, endWindow: { start: 0, end: 100_000 }, loadLimits: [{ max: 10 }],
    fixedCost: 0, costPerHour: 0, costPerTraveledHour: 0, costPerKilometer: 1000,
    routeDurationLimit: { max: Infinity }, travelDurationLimit: { max: Infinity }, routeDistanceLimit: { max: Infinity }, breaks: [],
  };
  return {
    horizon: 100_000, loadTypes: ['units'], matrices: [{ size, durations, distances: durations }], vehicles: Array.from({ length: vehicles }, () => ({ ...v })),
    shipments: Array.from({ length: n }, (_, i) => ({ pickup: null, delivery: { location: i + 1, duration: 5, windows: [] }, demand: [1], penaltyCost: null, allowedVehicles: null })),
  };
}

describe('SolverPool', () => {
  const pool = new SolverPool(2);
  afterAll(() => pool.close());

  it('runs both seeds on workers and returns the better solution', async () => {
    const pb = grid(30, 5);
    const options = { timeLimitMs: 30_000, searchMode: 'CONSUME_ALL_AVAILABLE_TIME' as const, seed: 3, maxIterations: 300 };
    const got = await pool.solve(pb, options);
    const a = solveInProcess(pb, options);
    const b = solveInProcess(pb, { ...options, seed: 4 });
    expect(got).toEqual(b.cost < a.cost ? b : a);
  });

  it('rejects promptly on abort and keeps working', async () => {
    const pb = grid(60, 8);
    const controller = new AbortController();
    const began = Date.now();
    const running = pool.solve(pb, { timeLimitMs: 60_000, searchMode: 'CONSUME_ALL_AVAILABLE_TIME', seed: 1 }, controller.signal);
    setTimeout(() => controller.abort(), 300);
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - began).toBeLessThan(5_000);
    const after = await pool.solve(grid(10, 2), { timeLimitMs: 10_000, searchMode: 'RETURN_FAST', seed: 1, maxIterations: 100 });
    expect(after.skipped).toEqual([]);
    expect(after.routes.flat()).toHaveLength(10);
  });

  it('rejects an already aborted signal without solving', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(pool.solve(grid(5, 1), { timeLimitMs: 1000, searchMode: 'RETURN_FAST', seed: 1 }, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects a solve that fails in the worker and keeps working', async () => {
    const bad = grid(5, 1);
    bad.vehicles[0]!.matrix = 3;
    await expect(pool.solve(bad, { timeLimitMs: 1000, searchMode: 'RETURN_FAST', seed: 1 })).rejects.toThrow(/solver worker failed/);
    const ok = await pool.solve(grid(8, 2), { timeLimitMs: 1000, searchMode: 'RETURN_FAST', seed: 1, maxIterations: 50 });
    expect(ok.skipped).toEqual([]);
  });

  it('stops at the time cap', async () => {
    const began = Date.now();
    const sol = await pool.solve(grid(60, 8), { timeLimitMs: 1500, searchMode: 'CONSUME_ALL_AVAILABLE_TIME', seed: 2 });
    expect(Date.now() - began).toBeLessThan(4_000);
    expect(sol.skipped).toEqual([]);
  });
});

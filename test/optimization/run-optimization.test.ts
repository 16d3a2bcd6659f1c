import { describe, expect, it } from 'vitest';
import { Refusal } from '../../lib/errors.ts';
import { runOptimization, type OptimizationDeps } from '../../services/optimization/run-optimization.ts';
import { checkOptimizationRequest } from '../../engines/optimization/request/check.ts';
import { SolverPool } from '../../engines/optimization/solver-pool.ts';
import { ReleaseUnavailableError } from '../../releases/unavailable.ts';

const request = (over: Record<string, unknown> = {}) => checkOptimizationRequest({
  useGeodesicDistances: true,
  geodesicMetersPerSecond: 10,
  model: {
    shipments: [[49.27, -123.10], [49.28, -123.12], [49.29, -123.14]].map(([latitude, longitude]) => ({ deliveries: [{ arrivalLocation: { latitude, longitude } }] })),
    vehicles: [{ startLocation: { latitude: 49.2856, longitude: -123.1115 }, costPerKilometer: 1 }],
  },
  ...over,
}).request!;

const noRoads: OptimizationDeps['useRoads'] = async () => {
  throw new ReleaseUnavailableError('roads');
};

describe('one solve within the shared budget (volume 3 rule 6)', () => {
  it('answers 504 DEADLINE_EXCEEDED when the solver overruns the budget, and stops it', async () => {
    let aborted = false;
    const deps: OptimizationDeps = {
      solve: (_problem, _options, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => {
        aborted = true;
        reject(new Error('aborted'));
      })),
      useRoads: noRoads,
      locationLimit: 1000,
      budgetMs: 200,
    };
    const error = await runOptimization(deps, request(), 60).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).statusCode).toBe(504);
    expect((error as Refusal).extra.status).toBe('DEADLINE_EXCEEDED');
    expect(aborted).toBe(true);
  });

  it('gives the solver the smaller of the timeout and what is left of the budget', async () => {
    const pool = new SolverPool(2);
    try {
      const limits: number[] = [];
      const deps: OptimizationDeps = {
        solve: (problem, options, signal) => {
          limits.push(options.timeLimitMs);
          return pool.solve(problem, options, signal);
        },
        useRoads: noRoads,
        locationLimit: 1000,
        budgetMs: 5_000,
      };
      const outcome = await runOptimization(deps, request(), 2);
      // The timeout runs from the request's start: travel and building the problem count against it.
      expect(limits[0]).toBeLessThanOrEqual(2_000);
      expect(limits[0]).toBeGreaterThan(1_500);
      expect(outcome.plan.performed).toEqual([0, 1, 2]);
      await runOptimization({ ...deps, budgetMs: 1_000 }, request(), 2);
      expect(limits[1]).toBeLessThanOrEqual(1_000);
      // Polylines asked for with no roads release: the solve stands, each used route warns.
      const drawn = await runOptimization(deps, request({ populatePolylines: true }), 2);
      expect(drawn.warnings.map((w) => w.code)).toEqual(['ROUTE_POLYLINE_UNAVAILABLE']);
    } finally {
      await pool.close();
    }
  });
});

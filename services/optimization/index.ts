import type { ServiceDeps } from '../deps.ts';
import { errors } from '../../lib/errors.ts';
import type { OptimizationLimits } from '../../schemas/plans.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import type { OptimizationRequest } from '../../engines/optimization/request-model.ts';
import type { ValidationIssue } from '../../engines/optimization/request/issues.ts';
import { solveSeconds } from '../../engines/optimization/request/timeout.ts';
import { optimizationResponseJson, type OptimizationWarning } from '../../engines/optimization/response-json.ts';
import { SolverPool } from '../../engines/optimization/solver-pool.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { CheckPool } from './check-pool.ts';
import { runOptimization } from './run-optimization.ts';

/** One admitted solve (the billing gate's ticket): bill a 200's performed shipments, then always release. */
export interface SolveAdmission {
  /** Bills the performed shipments (request indices) and returns how many were billable. */
  bill(performed: Iterable<number>): Promise<number>;
  release(): Promise<void>;
}

/** Who asks: their plan's limits and the gate that bills them and holds their solve slot. */
export interface OptimizationCaller {
  limits: Readonly<OptimizationLimits>;
  /** Before travel or solving: the quota and solve-slot checks (a 429 Refusal when refused). */
  admit(request: OptimizationRequest, identities: string[] | undefined): Promise<SolveAdmission>;
  /** performance.now() of the request's arrival: the timeout runs from there (default: now). */
  startedAt?: number;
}

/** VALIDATE_ONLY's answer: {} or every issue found (up to maxValidationErrors). */
export type ValidationAnswer = { validationErrors?: ValidationIssue[] };

/** A body ready to solve: the checked request, its billing identities and its solve time. */
export interface SolvableOptimization {
  validateOnly: false;
  request: OptimizationRequest;
  identities: string[] | null;
  warnings: OptimizationWarning[];
  seconds: number;
  /** Set when the plan clamped the timeout (the HTTP door also sends it as a Warning header). */
  clampWarning: OptimizationWarning | null;
}

export type CheckedOptimization = { validateOnly: true; answer: ValidationAnswer } | SolvableOptimization;

export interface OptimizationAnswer {
  /** The OptimizeToursResponse (or VALIDATE_ONLY's answer). */
  body: ReturnType<typeof optimizationResponseJson> | ValidationAnswer;
  /** Shipments billed by this answer (the x-svc-billable-shipments value). */
  billableShipments: number;
}

export interface OptimizationService {
  /** The plan's count limits, then the body (snake_case or camelCase JSON); a 400 Refusal for a solve that cannot run. */
  check(body: unknown, limits: Readonly<OptimizationLimits>): Promise<CheckedOptimization>;
  /** Admits, solves and bills one checked request; 4xx/504 Refusals as the format lists them. */
  solve(checked: SolvableOptimization, caller: OptimizationCaller): Promise<OptimizationAnswer>;
  /** check, then solve: the whole request for a front door that needs no step in between. */
  optimize(body: unknown, caller: OptimizationCaller): Promise<OptimizationAnswer>;
  /** Stops the check and solver worker threads. */
  close(): Promise<void>;
}

/** Fleet optimization (volume 3): the checker off the event loop for large bodies, the solver on two worker threads. */
export function createOptimizationService(deps: ServiceDeps): OptimizationService {
  const checks = new CheckPool();
  let solvers: SolverPool | null = null;
  const useRoads = <T>(fn: (network: RoadNetwork) => Promise<T>) => deps.releases.use(ROADS_KIND, fn);

  const service: OptimizationService = {
    async check(body, limits) {
      const result = await checks.check(body, { maxLocations: limits.locations, limits });
      const { over } = result;
      if (over) throw errors.invalidArgument(`the request has ${over.count} ${over.limit}; this plan allows at most ${over.max}`, over.limit === 'locations' ? 'model' : `model.${over.limit}`);
      const { checked, identities } = result;
      if (checked.solvingMode === 'VALIDATE_ONLY') return { validateOnly: true, answer: checked.issues.length > 0 ? { validationErrors: checked.issues } : {} };
      if (!checked.ok) {
        const [first] = checked.issues;
        throw errors.invalidArgument(first!.errorMessage, first!.fields[0]!.name);
      }
      const timeout = solveSeconds(checked.value, limits.longestSolveSeconds);
      const clampWarning = timeout.clamped ? { code: 'TIMEOUT_CLAMPED', message: `timeout clamped to ${timeout.seconds}s for this plan` } : null;
      const warnings = clampWarning ? [...checked.warnings, clampWarning] : [...checked.warnings];
      return { validateOnly: false, request: checked.value, identities, warnings, seconds: timeout.seconds, clampWarning };
    },

    async solve({ request, identities, warnings, seconds }, caller) {
      const ticket = await caller.admit(request, identities ?? undefined);
      try {
        const startedAt = caller.startedAt ?? performance.now();
        const pool = (solvers ??= new SolverPool(2));
        const run = { solve: pool.solve.bind(pool), road: pool.road.bind(pool), useRoads, locationLimit: caller.limits.locations, startedAt };
        const outcome = await runOptimization(run, request, seconds);
        const body = optimizationResponseJson({
          globalStart: request.globalStart,
          vehicleLabels: request.vehicles.map((v) => v.label),
          shipmentLabels: request.shipments.map((s) => s.label),
          schedules: outcome.plan.schedules,
          polylines: outcome.polylines,
          skipped: outcome.plan.skipped,
          penalty: outcome.plan.penalty,
          requestLabel: request.label,
          warnings: [...warnings, ...outcome.warnings],
        });
        return { body, billableShipments: await ticket.bill(outcome.plan.performed) };
      } finally {
        await ticket.release();
      }
    },

    async optimize(body, caller) {
      const checked = await service.check(body, caller.limits);
      return checked.validateOnly ? { body: checked.answer, billableShipments: 0 } : service.solve(checked, caller);
    },

    async close() {
      await solvers?.close();
      await checks.close();
    },
  };
  return service;
}

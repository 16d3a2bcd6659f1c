import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { BILLABLE_SHIPMENTS_HEADER } from '../../../engines/access/metering.ts';
import type { RoadNetwork } from '../../../engines/routing/release.ts';
import { optimizationLimitsOf } from '../../../schemas/plans.ts';
import { OPTIMIZATION_BODY_LIMIT_BYTES, OptimizationRequestBody, OptimizationResponse, optimizationErrorResponses } from '../../../schemas/optimization-api.ts';
import { ROADS_KIND } from '../../../schemas/roads-release.ts';
import { optimizationBilling } from '../../access/optimization-billing.ts';
import { errors } from '../../../lib/errors.ts';
import { runOptimization } from '../../optimization/run-optimization.ts';
import { solveSeconds } from '../../params/optimization/timeout.ts';
import { optimizationResponseJson, type OptimizationWarning } from '../../replies/optimization.ts';

/** Volume 3: one endpoint on five paths; an alias path's last segment ends in the method name. */
export const OPTIMIZE_PATHS = ['/optimize', '/v1/projects/:target', '/v1/projects/:project/locations/:target', '/projects/:target', '/projects/:project/locations/:target'];
const METHOD_SUFFIX = ':optimizeTours';

function sendJson(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

const warning = (code: string, message: string): OptimizationWarning => ({ code, message });

/** performance.now() at each request's arrival (before its body is read): the timeout runs from there. */
const arrivals = new WeakMap<object, number>();

export const optimizeRoute: FastifyPluginAsyncTypebox = async (app) => {
  const billing = optimizationBilling({ db: app.pg, slots: app.solveSlots, dashboardUrl: app.config.dashboardUrl });
  const useRoads = <T>(fn: (network: RoadNetwork) => Promise<T>) => app.releases.use(ROADS_KIND, fn);

  for (const url of OPTIMIZE_PATHS) {
    app.post(url, {
      // The schema only documents the body: the checker reads it as sent (Ajv would coerce enums and
      // numbers in place) and reports every problem, which VALIDATE_ONLY answers with a 200.
      validatorCompiler: () => () => true,
      config: { optimizationErrors: true },
      bodyLimit: OPTIMIZATION_BODY_LIMIT_BYTES,
      onRequest: async (request) => {
        arrivals.set(request, performance.now());
      },
      schema: {
        tags: ['optimization'],
        summary: url === '/optimize'
          ? 'Fleet optimization: assign shipments to vehicles and time their routes'
          : 'Fleet optimization under the published :optimizeTours path ({project} and {location} are ignored)',
        description: 'The published route-optimization JSON format (camelCase or snake_case in, camelCase out); billed per performed shipment. '
          + 'solvingMode VALIDATE_ONLY answers {} or validationErrors. Travel by road (default), straight lines (useGeodesicDistances) or own matrices.',
        body: OptimizationRequestBody,
        response: { 200: OptimizationResponse, ...optimizationErrorResponses(400, 404, 413, 429, 503, 504) },
      },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store').header(BILLABLE_SHIPMENTS_HEADER, '0');
      const { target } = request.params as { target?: string };
      if (target !== undefined && !(target.endsWith(METHOD_SUFFIX) && target.length > METHOD_SUFFIX.length)) throw errors.optimizationNotFound();
      const key = request.apiKey!;
      const limits = optimizationLimitsOf(key.accountId === null ? null : key.plan);
      const result = await app.optimizationChecks.check(request.body, { maxLocations: limits.locations, limits });
      const { over } = result;
      if (over) throw errors.invalidArgument(`the request has ${over.count} ${over.limit}; this plan allows at most ${over.max}`, over.limit === 'locations' ? 'model' : `model.${over.limit}`);
      const { checked, identities } = result;
      if (checked.solvingMode === 'VALIDATE_ONLY') return sendJson(reply, checked.issues.length > 0 ? { validationErrors: checked.issues } : {});
      if (!checked.request) {
        const [first] = checked.issues;
        throw errors.invalidArgument(first!.errorMessage, first!.fields[0]!.name);
      }
      const parsed = checked.request;
      const warnings: OptimizationWarning[] = [...checked.warnings];
      const timeout = solveSeconds(parsed, limits.longestSolveSeconds);
      if (timeout.clamped) {
        reply.header('warning', `299 - 'timeout clamped to ${timeout.seconds}s for this plan'`);
        warnings.push(warning('TIMEOUT_CLAMPED', `timeout clamped to ${timeout.seconds}s for this plan`));
      }
      const ticket = await billing.admit(key, parsed, new Date(app.now()), request.log, identities ?? undefined);
      try {
        const startedAt = arrivals.get(request) ?? performance.now();
        const pool = app.solverPool();
        const deps = { solve: pool.solve.bind(pool), road: pool.road.bind(pool), useRoads, locationLimit: limits.locations, startedAt };
        const outcome = await runOptimization(deps, parsed, timeout.seconds);
        const body = optimizationResponseJson({
          globalStart: parsed.globalStart,
          vehicleLabels: parsed.vehicles.map((v) => v.label),
          shipmentLabels: parsed.shipments.map((s) => s.label),
          schedules: outcome.plan.schedules,
          polylines: outcome.polylines,
          skipped: outcome.plan.skipped,
          penalty: outcome.plan.penalty,
          requestLabel: parsed.label,
          warnings: [...warnings, ...outcome.warnings],
        });
        reply.header(BILLABLE_SHIPMENTS_HEADER, String(await ticket.bill(outcome.plan.performed)));
        return sendJson(reply, body);
      } finally {
        await ticket.release();
      }
    });
  }
};

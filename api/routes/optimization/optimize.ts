import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { BILLABLE_SHIPMENTS_HEADER } from '../../../engines/access/metering.ts';
import { optimizationLimitsOf } from '../../../schemas/plans.ts';
import { OPTIMIZATION_BODY_LIMIT_BYTES, OptimizationRequestBody, OptimizationResponse, optimizationErrorResponses } from '../../../schemas/optimization-api.ts';
import { optimizationBilling, type OptimizationBilling } from '../../access/optimization-billing-gate.ts';
import { errors } from '../../../lib/errors.ts';
import type { KeyRecord } from '../../../lib/keys.ts';

/** Volume 3: one endpoint on five paths; an alias path's last segment ends in the method name. */
export const OPTIMIZE_PATHS = ['/optimize', '/v1/projects/:target', '/v1/projects/:project/locations/:target', '/projects/:target', '/projects/:project/locations/:target'];
const METHOD_SUFFIX = ':optimizeTours';

function sendJson(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** performance.now() at each request's arrival (before its body is read): the timeout runs from there. */
const arrivals = new WeakMap<object, number>();

/** One billing gate per app (its solve slots are app.solveSlots): every front door of /optimize admits through it. */
const billings = new WeakMap<FastifyInstance, OptimizationBilling>();
function billingOf(app: FastifyInstance): OptimizationBilling {
  let billing = billings.get(app);
  if (billing === undefined) billings.set(app, (billing = optimizationBilling({ db: app.pg, slots: app.solveSlots, dashboardUrl: app.config.dashboardUrl })));
  return billing;
}

/** What one /optimize call answers: the body and the shipments it bills. */
export interface OptimizeOutcome {
  body: unknown;
  billableShipments: number;
}

/** How a front door takes part in one /optimize call: its logger, its arrival, and what it does with the plan's timeout clamp. */
export interface OptimizeDoor {
  log: FastifyBaseLogger;
  /** performance.now() at the call's arrival: the timeout runs from there (default: now). */
  startedAt?: number;
  /** The plan clamped the timeout (HTTP sends a Warning header, before the solve, so a refused solve carries it too). */
  clamped?: (message: string) => void;
}

/** The answer of POST /optimize for a body as sent, for the caller's key: every front door's (errors in the optimization shape are the door's). */
export async function optimizeFleet(app: FastifyInstance, key: KeyRecord, body: unknown, door: OptimizeDoor): Promise<OptimizeOutcome> {
  const limits = optimizationLimitsOf(key.accountId === null ? null : key.plan);
  const checked = await app.services.optimization.check(body, limits);
  if (checked.validateOnly) return { body: checked.answer, billableShipments: 0 };
  if (checked.clampWarning) door.clamped?.(checked.clampWarning.message);
  const billing = billingOf(app);
  const answer = await app.services.optimization.solve(checked, {
    limits,
    admit: (parsed, identities) => billing.admit(key, parsed, new Date(app.now()), door.log, identities),
    startedAt: door.startedAt,
  });
  return answer;
}

export const optimizeRoute: FastifyPluginAsyncTypebox = async (app) => {
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
      const answer = await optimizeFleet(app, request.apiKey!, request.body, {
        log: request.log,
        startedAt: arrivals.get(request),
        clamped: (message) => reply.header('warning', `299 - '${message}'`),
      });
      reply.header(BILLABLE_SHIPMENTS_HEADER, String(answer.billableShipments));
      return sendJson(reply, answer.body);
    });
  }
};

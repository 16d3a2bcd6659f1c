import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { BILLABLE_SHIPMENTS_HEADER } from '../../../engines/access/metering.ts';
import { optimizationLimitsOf } from '../../../schemas/plans.ts';
import { OPTIMIZATION_BODY_LIMIT_BYTES, OptimizationRequestBody, OptimizationResponse, optimizationErrorResponses } from '../../../schemas/optimization-api.ts';
import { optimizationBilling } from '../../access/optimization-billing-gate.ts';
import { errors } from '../../../lib/errors.ts';

/** Volume 3: one endpoint on five paths; an alias path's last segment ends in the method name. */
export const OPTIMIZE_PATHS = ['/optimize', '/v1/projects/:target', '/v1/projects/:project/locations/:target', '/projects/:target', '/projects/:project/locations/:target'];
const METHOD_SUFFIX = ':optimizeTours';

function sendJson(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** performance.now() at each request's arrival (before its body is read): the timeout runs from there. */
const arrivals = new WeakMap<object, number>();

export const optimizeRoute: FastifyPluginAsyncTypebox = async (app) => {
  const billing = optimizationBilling({ db: app.pg, slots: app.solveSlots, dashboardUrl: app.config.dashboardUrl });

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
      const checked = await app.services.optimization.check(request.body, limits);
      if (checked.validateOnly) return sendJson(reply, checked.answer);
      if (checked.clampWarning) reply.header('warning', `299 - '${checked.clampWarning.message}'`);
      const answer = await app.services.optimization.solve(checked, {
        limits,
        admit: (parsed, identities) => billing.admit(key, parsed, new Date(app.now()), request.log, identities),
        startedAt: arrivals.get(request),
      });
      reply.header(BILLABLE_SHIPMENTS_HEADER, String(answer.billableShipments));
      return sendJson(reply, answer.body);
    });
  }
};

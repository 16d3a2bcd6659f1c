import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeparturesQuery, DeparturesResponse, TransitIdParams, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sanitizeAt } from '../../params/transit/at.ts';

/** GET /transit/stops/{id}/departures?at=&window=&limit=: scheduled departures (a station: its platforms'). */
export const departuresRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/stops/:id/departures', {
    schema: {
      tags: ['transit'],
      summary: 'Scheduled departures at a stop in [at, at + window), in departure order',
      params: TransitIdParams,
      querystring: DeparturesQuery,
      response: { 200: DeparturesResponse, ...errorResponses(TRANSIT_ERRORS, 400, 404, 503) },
    },
  }, (request) => {
    const at = valueOrThrow(sanitizeAt(request.query.at));
    // Validation filled the defaults, and plain-decimal checks (api/plugins/numeric-query.ts) ran before it.
    const { window, limit } = request.query as Required<typeof request.query>;
    return app.services.transit.departures({ stopId: request.params.id, at, windowMinutes: window, limit });
  });
};

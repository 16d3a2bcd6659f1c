import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeparturesQuery, DeparturesResponse, TransitIdParams, TRANSIT_ERRORS, type Departure } from '../../../schemas/transit-api.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { Services } from '../../../services/index.ts';
import type { TransitAnswer } from '../../../services/transit/index.ts';
import { sanitizeAt } from '../../params/transit/at.ts';

/** A validated query of GET /transit/stops/{id}/departures: validation filled the defaults of window and limit. */
export type DeparturesSearch = DeparturesQuery & Required<Pick<DeparturesQuery, 'window' | 'limit'>>;

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
    // Validation filled the defaults, and plain-decimal checks (api/plugins/numeric-query.ts) ran before it.
  }, (request) => transitDepartures(app.services, request.params.id, request.query as DeparturesSearch));
};

/** The answer of GET /transit/stops/{id}/departures for a stop id and a validated query (at absent: now): every front door's. */
export function transitDepartures(services: Services, stopId: string, query: DeparturesSearch): Promise<TransitAnswer<Departure[]>> {
  const at = valueOrThrow(sanitizeAt(query.at));
  return services.transit.departures({ stopId, at, windowMinutes: query.window, limit: query.limit });
}

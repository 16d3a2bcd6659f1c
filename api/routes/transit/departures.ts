import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeparturesQuery, DeparturesResponse, TransitIdParams, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errors } from '../../../lib/errors.ts';
import { findDepartures } from '../../../engines/transit/departures.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { transitMeta } from '../../replies/transit.ts';
import { sanitizeAt } from '../../params/transit/at.ts';
import { TRANSIT_KIND } from '../../../schemas/transit-release.ts';
import type { TransitData } from '../../../engines/transit/data.ts';

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
    const at = sanitizeAt(request.query.at);
    if (!at.ok) throw errors.badRequest(at.error);
    // Validation filled the defaults, and plain-decimal checks (api/plugins/numeric-query.ts) ran before it.
    const { window, limit } = request.query as Required<typeof request.query>;
    return app.releases.use(TRANSIT_KIND, async (data: TransitData) => {
      const stop = data.stopIndex.get(request.params.id);
      if (stop === undefined) throw errors.notFound('stop not found');
      const departures = findDepartures(data, { stop, at: at.value, windowSeconds: window * 60, limit });
      return { data: departures, meta: transitMeta(data, [data.stopFeed[stop]!]) };
    });
  });
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NearbyStopsQuery, NearbyStopsResponse, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sanitizeNear } from '../../params/transit/near.ts';

/** GET /transit/stops?near=lng,lat&radius=&limit=: stops by exact great-circle distance, nearest first. */
export const stopsNearbyRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/stops', {
    schema: {
      tags: ['transit'],
      summary: 'Stops and stations near a point, nearest first',
      querystring: NearbyStopsQuery,
      response: { 200: NearbyStopsResponse, ...errorResponses(TRANSIT_ERRORS, 400, 503) },
    },
  }, (request) => {
    const near = valueOrThrow(sanitizeNear(request.query.near));
    // Validation filled the defaults, and plain-decimal checks (api/plugins/numeric-query.ts) ran before it.
    const { radius, limit } = request.query as Required<typeof request.query>;
    return app.services.transit.stopsNearby({ ...near, radius, limit });
  });
};

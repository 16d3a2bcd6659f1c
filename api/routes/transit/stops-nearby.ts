import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NearbyStopsQuery, NearbyStopsResponse } from '../../../schemas/transit-api.ts';
import { errors } from '../../errors.ts';
import { errorResponses } from './error-responses.ts';
import { allFeeds, transitMeta } from '../../replies/transit.ts';
import { findNearbyStops } from '../../../engines/transit/nearby-stops.ts';
import { sanitizeNear } from '../../params/transit/near.ts';
import { useTransit } from './use-transit.ts';

/** GET /transit/stops?near=lng,lat&radius=&limit=: stops by exact great-circle distance, nearest first. */
export const stopsNearbyRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/stops', {
    schema: {
      tags: ['transit'],
      summary: 'Stops and stations near a point, nearest first',
      querystring: NearbyStopsQuery,
      response: { 200: NearbyStopsResponse, ...errorResponses(400, 503) },
    },
  }, (request) => {
    const near = sanitizeNear(request.query.near);
    if (!near.ok) throw errors.badRequest(near.error);
    // Validation filled the defaults, and plain-decimal checks (api/plugins/numeric-query.ts) ran before it.
    const { radius, limit } = request.query as Required<typeof request.query>;
    return useTransit(app, (data) => {
      const found = findNearbyStops(data, { ...near.value, radius, limit });
      // An empty answer searched every feed; otherwise meta names the feeds of the stops found.
      return { data: found.stops, meta: transitMeta(data, found.stops.length ? found.feeds : allFeeds(data)) };
    });
  });
};

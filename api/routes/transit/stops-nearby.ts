import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NearbyStopsQuery, NearbyStopsResponse, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { allFeeds, transitMeta } from '../../replies/transit.ts';
import { findNearbyStops } from '../../../engines/transit/nearby-stops.ts';
import { sanitizeNear } from '../../params/transit/near.ts';
import { TRANSIT_KIND } from '../../../schemas/transit-release.ts';
import type { TransitData } from '../../../engines/transit/data.ts';

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
    const near = sanitizeNear(request.query.near);
    if (!near.ok) throw errors.badRequest(near.error);
    // Validation filled the defaults, and plain-decimal checks (api/plugins/numeric-query.ts) ran before it.
    const { radius, limit } = request.query as Required<typeof request.query>;
    return app.releases.use(TRANSIT_KIND, async (data: TransitData) => {
      const found = findNearbyStops(data, { ...near.value, radius, limit });
      // An empty answer searched every feed; otherwise meta names the feeds of the stops found.
      return { data: found.stops, meta: transitMeta(data, found.stops.length ? found.feeds : allFeeds(data)) };
    });
  });
};

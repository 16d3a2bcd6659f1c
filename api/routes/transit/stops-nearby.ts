import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NearbyStopsQuery, NearbyStopsResponse, TRANSIT_ERRORS, type NearbyStop } from '../../../schemas/transit-api.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { Services } from '../../../services/index.ts';
import type { TransitAnswer } from '../../../services/transit/index.ts';
import { sanitizeNear } from '../../params/transit/near.ts';

/** A validated query of GET /transit/stops: validation filled the defaults of radius and limit. */
export type NearbyStopsSearch = NearbyStopsQuery & Required<Pick<NearbyStopsQuery, 'radius' | 'limit'>>;

/** GET /transit/stops?near=lng,lat&radius=&limit=: stops by exact great-circle distance, nearest first. */
export const stopsNearbyRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/stops', {
    schema: {
      tags: ['transit'],
      summary: 'Stops and stations near a point, nearest first',
      querystring: NearbyStopsQuery,
      response: { 200: NearbyStopsResponse, ...errorResponses(TRANSIT_ERRORS, 400, 503) },
    },
    // Validation filled the defaults, and plain-decimal checks (api/plugins/numeric-query.ts) ran before it.
  }, (request) => transitStopsNearby(app.services, request.query as NearbyStopsSearch));
};

/** The answer of GET /transit/stops for a validated query (near is "lng,lat"; radius in metres): every front door's. */
export function transitStopsNearby(services: Services, query: NearbyStopsSearch): Promise<TransitAnswer<NearbyStop[]>> {
  const near = valueOrThrow(sanitizeNear(query.near));
  return services.transit.stopsNearby({ ...near, radius: query.radius, limit: query.limit });
}

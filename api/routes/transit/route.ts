import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RouteResponse, TransitIdParams, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { transitMeta } from '../../replies/transit.ts';
import { TRANSIT_KIND } from '../../../schemas/transit-release.ts';
import type { TransitData } from '../../../engines/transit/data.ts';

/** GET /transit/routes/{id}: one route by its service id. */
export const routeRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/routes/:id', {
    schema: {
      tags: ['transit'],
      summary: 'A route by service id',
      params: TransitIdParams,
      response: { 200: RouteResponse, ...errorResponses(TRANSIT_ERRORS, 400, 404, 503) },
    },
  }, (request) => app.releases.use(TRANSIT_KIND, async (data: TransitData) => {
    const index = data.routeIndex.get(request.params.id);
    if (index === undefined) throw errors.notFound('route not found');
    return { data: data.routes[index]!, meta: transitMeta(data, [data.routeFeed[index]!]) };
  }));
};

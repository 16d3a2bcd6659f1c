import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RouteResponse, TransitIdParams } from '../../../schemas/transit-api.ts';
import { errors } from '../../errors.ts';
import { errorResponses } from './error-responses.ts';
import { transitMeta } from '../../replies/transit.ts';
import { useTransit } from './use-transit.ts';

/** GET /transit/routes/{id}: one route by its service id. */
export const routeRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/routes/:id', {
    schema: {
      tags: ['transit'],
      summary: 'A route by service id',
      params: TransitIdParams,
      response: { 200: RouteResponse, ...errorResponses(400, 404, 503) },
    },
  }, (request) => useTransit(app, (data) => {
    const index = data.routeIndex.get(request.params.id);
    if (index === undefined) throw errors.notFound('route not found');
    return { data: data.routes[index]!, meta: transitMeta(data, [data.routeFeed[index]!]) };
  }));
};

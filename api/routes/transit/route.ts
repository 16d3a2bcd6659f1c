import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TransitRouteByIdResponse, TransitIdParams, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errorResponses } from '../../../schemas/common.ts';

/** GET /transit/routes/{id}: one route by its service id. */
export const transitRouteRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/routes/:id', {
    schema: {
      tags: ['transit'],
      summary: 'A route by service id',
      params: TransitIdParams,
      response: { 200: TransitRouteByIdResponse, ...errorResponses(TRANSIT_ERRORS, 400, 404, 503) },
    },
  }, (request) => app.services.transit.route(request.params.id));
};

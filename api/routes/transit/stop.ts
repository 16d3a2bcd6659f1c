import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StopResponse, TransitIdParams, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errorResponses } from '../../../schemas/common.ts';

/** GET /transit/stops/{id}: one stop or station by its service id. */
export const stopRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/stops/:id', {
    schema: {
      tags: ['transit'],
      summary: 'A stop or station by service id',
      params: TransitIdParams,
      response: { 200: StopResponse, ...errorResponses(TRANSIT_ERRORS, 400, 404, 503) },
    },
  }, (request) => app.services.transit.stop(request.params.id));
};

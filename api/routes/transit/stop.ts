import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StopResponse, TransitIdParams } from '../../../schemas/transit-api.ts';
import { errors } from '../../errors.ts';
import { errorResponses } from './error-responses.ts';
import { transitMeta } from '../../replies/transit.ts';
import { useTransit } from './use-transit.ts';

/** GET /transit/stops/{id}: one stop or station by its service id. */
export const stopRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/stops/:id', {
    schema: {
      tags: ['transit'],
      summary: 'A stop or station by service id',
      params: TransitIdParams,
      response: { 200: StopResponse, ...errorResponses(400, 404, 503) },
    },
  }, (request) => useTransit(app, (data) => {
    const index = data.stopIndex.get(request.params.id);
    if (index === undefined) throw errors.notFound('stop not found');
    return { data: data.stops[index]!, meta: transitMeta(data, [data.stopFeed[index]!]) };
  }));
};

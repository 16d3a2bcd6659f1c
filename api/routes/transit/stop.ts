import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StopResponse, TransitIdParams, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { transitMeta } from '../../replies/transit.ts';
import { TRANSIT_KIND } from '../../../schemas/transit-release.ts';
import type { TransitData } from '../../../engines/transit/data.ts';

/** GET /transit/stops/{id}: one stop or station by its service id. */
export const stopRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/stops/:id', {
    schema: {
      tags: ['transit'],
      summary: 'A stop or station by service id',
      params: TransitIdParams,
      response: { 200: StopResponse, ...errorResponses(TRANSIT_ERRORS, 400, 404, 503) },
    },
  }, (request) => app.releases.use(TRANSIT_KIND, async (data: TransitData) => {
    const index = data.stopIndex.get(request.params.id);
    if (index === undefined) throw errors.notFound('stop not found');
    return { data: data.stops[index]!, meta: transitMeta(data, [data.stopFeed[index]!]) };
  }));
};

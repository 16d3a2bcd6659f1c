import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AgenciesResponse, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errorResponses } from '../../../schemas/common.ts';

/** GET /transit/agencies: every agency of the enabled release. */
export const agenciesRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/agencies', {
    schema: {
      tags: ['transit'],
      summary: 'All agencies of the enabled transit release',
      response: { 200: AgenciesResponse, ...errorResponses(TRANSIT_ERRORS, 503) },
    },
  }, () => app.services.transit.agencies());
};

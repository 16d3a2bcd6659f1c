import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CoverageResponse, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errorResponses } from '../../../schemas/common.ts';

/**
 * GET /coverage.json: every feed the enabled transit release assessed — included and refused,
 * with its terms, reason and gap — as the release manifest records them.
 */
export const coverageRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/coverage.json', {
    schema: {
      tags: ['transit'],
      summary: 'Transit feeds assessed for the enabled release, included and refused',
      response: { 200: CoverageResponse, ...errorResponses(TRANSIT_ERRORS, 503) },
    },
  }, () => app.services.transit.coverage());
};

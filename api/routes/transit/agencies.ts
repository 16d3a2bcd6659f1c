import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AgenciesResponse, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { allFeeds, transitMeta } from '../../replies/transit.ts';
import { TRANSIT_KIND } from '../../../schemas/transit-release.ts';
import type { TransitData } from '../../../engines/transit/data.ts';

/** GET /transit/agencies: every agency of the enabled release. */
export const agenciesRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/agencies', {
    schema: {
      tags: ['transit'],
      summary: 'All agencies of the enabled transit release',
      response: { 200: AgenciesResponse, ...errorResponses(TRANSIT_ERRORS, 503) },
    },
  }, (_request) => app.releases.use(TRANSIT_KIND, async (data: TransitData) => ({ data: data.agencies, meta: transitMeta(data, allFeeds(data)) })));
};

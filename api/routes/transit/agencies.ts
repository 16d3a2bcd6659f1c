import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AgenciesResponse } from '../../../schemas/transit-api.ts';
import { errorResponses } from './error-responses.ts';
import { allFeeds, transitMeta } from '../../replies/transit.ts';
import { useTransit } from './use-transit.ts';

/** GET /transit/agencies: every agency of the enabled release. */
export const agenciesRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/transit/agencies', {
    schema: {
      tags: ['transit'],
      summary: 'All agencies of the enabled transit release',
      response: { 200: AgenciesResponse, ...errorResponses(503) },
    },
  }, (_request) => useTransit(app, (data) => ({ data: data.agencies, meta: transitMeta(data, allFeeds(data)) })));
};

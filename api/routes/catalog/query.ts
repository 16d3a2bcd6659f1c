import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CATALOG_ERRORS, DataQueryQuery, DataQueryResponse } from '../../../schemas/catalog-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { Services } from '../../../services/index.ts';
import { sanitizeQueryBbox, sanitizeQueryLimit, wantsGeometry } from '../../params/catalog.ts';

/** GET /data/query: features of one queryable layer meeting a box (a hard filter), up to limit. */
export const queryRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/data/query', {
    schema: {
      tags: ['catalog'],
      summary: 'Features of a layer within a box',
      description: 'Features whose geometry meets bbox (exactly, not only their bboxes), in the release\'s order; limit 1 to 50 (default 50).',
      querystring: DataQueryQuery,
      response: { 200: DataQueryResponse, ...errorResponses(CATALOG_ERRORS, 400, 403, 501, 503) },
    },
  }, (request) => queryLayer(app.services, request.query));
};

/** The answer of GET /data/query for a validated query: every front door's. */
export function queryLayer(services: Services, query: DataQueryQuery): ReturnType<Services['catalog']['query']> {
  const { layer, bbox, limit, geometry } = query;
  return services.catalog.query({ layer, bbox: sanitizeQueryBbox(bbox), limit: sanitizeQueryLimit(limit), withGeometry: wantsGeometry(geometry) });
}

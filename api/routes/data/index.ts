import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Catalog } from '../../../engines/catalog/catalog.ts';
import { CATALOG_ERRORS, DataQueryQuery, DataQueryResponse } from '../../../schemas/catalog-api.ts';
import { CATALOG_KIND } from '../../../schemas/catalog-release.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import { sanitizeQueryBbox, sanitizeQueryLimit, wantsGeometry } from '../../params/catalog.ts';

/** GET /data/query: features of one queryable layer meeting a box (a hard filter), up to limit. */
export const dataRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/data/query', {
    schema: {
      tags: ['catalog'],
      summary: 'Features of a layer within a box',
      description: 'Features whose geometry meets bbox (exactly, not only their bboxes), in the release\'s order; limit 1 to 50 (default 50).',
      querystring: DataQueryQuery,
      response: { 200: DataQueryResponse, ...errorResponses(CATALOG_ERRORS, 400, 403, 501, 503) },
    },
  }, (request) => {
    const { layer, bbox: rawBbox, limit: rawLimit, geometry } = request.query;
    return app.releases.use(CATALOG_KIND, async (catalog: Catalog) => {
      const queryable = catalog.layerIds('query');
      if (layer === undefined || layer === '') throw errors.badRequest(`layer is required: one of ${queryable.join(', ')}`);
      const entry = catalog.layer(layer);
      if (!entry) throw errors.badRequest(`unknown layer ${JSON.stringify(layer)}; queryable layers: ${queryable.join(', ')}`);
      if (!entry.query) throw errors.tileOnlyLayer(layer, queryable);
      const bbox = sanitizeQueryBbox(rawBbox);
      if (!bbox.ok) throw errors.badRequest(bbox.error);
      const limit = sanitizeQueryLimit(rawLimit);
      if (!limit.ok) throw errors.badRequest(limit.error);
      const results = await catalog.query(layer, bbox.value, limit.value, wantsGeometry(geometry));
      return { layer, bbox: bbox.value, results };
    });
  });
};

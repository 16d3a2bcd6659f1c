import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CATALOG_ERRORS, CatalogRow, LayerParams } from '../../../schemas/catalog-api.ts';
import { errorResponses } from '../../../schemas/common.ts';

/** GET /layers/{id}: one row; 410 for a retired layer, 404 for an unknown one. */
export const layerRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/layers/:id', {
    schema: {
      tags: ['catalog'],
      summary: 'One layer of the catalog',
      description: 'Retired layers (water, rail, remote.roads) answer 410 naming their replacement.',
      params: LayerParams,
      response: { 200: CatalogRow, ...errorResponses(CATALOG_ERRORS, 404, 410, 503) },
    },
  }, (request) => app.services.catalog.layer(request.params.id));
};

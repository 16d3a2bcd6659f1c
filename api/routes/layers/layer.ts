import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Catalog } from '../../../engines/catalog/catalog.ts';
import { RETIRED_LAYERS } from '../../../engines/catalog/retired.ts';
import { CATALOG_ERRORS, CatalogRow, LayerParams } from '../../../schemas/catalog-api.ts';
import { CATALOG_KIND } from '../../../schemas/catalog-release.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';

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
  }, (request) => {
    const { id } = request.params;
    const replacement = RETIRED_LAYERS.get(id);
    if (replacement) throw errors.layerRetired(id, replacement);
    return app.releases.use(CATALOG_KIND, async (catalog: Catalog) => {
      const entry = catalog.layer(id);
      if (!entry) throw errors.unknownLayer(id);
      return entry.row;
    });
  });
};

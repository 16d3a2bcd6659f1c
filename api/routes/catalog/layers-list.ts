import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CATALOG_ERRORS, CatalogRows } from '../../../schemas/catalog-api.ts';
import { errorResponses } from '../../../schemas/common.ts';

/** GET /layers: every row of the enabled catalog release. */
export const layersListRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/layers', {
    schema: {
      tags: ['catalog'],
      summary: 'The layer catalog',
      description: 'Every catalogued overlay layer with its source, licence, coverage, add-on and archives.',
      response: { 200: CatalogRows, ...errorResponses(CATALOG_ERRORS, 503) },
    },
  }, () => app.services.catalog.rows());
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Catalog } from '../../../engines/catalog/catalog.ts';
import { CATALOG_ERRORS, IdentifyQuery, IdentifyResponse } from '../../../schemas/catalog-api.ts';
import { CATALOG_KIND } from '../../../schemas/catalog-release.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import { sanitizeIdentifyLayers, sanitizeIdentifyPoint, wantsGeometry } from '../../params/catalog.ts';

/** GET /identify: the polygons of identify-capable layers that contain a point (not reverse geocoding). */
export const identifyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/identify', {
    schema: {
      tags: ['catalog'],
      summary: 'Polygons containing a point',
      description: 'Exact point-in-polygon over identify-capable layers (holes and multipolygons; a point on an edge is inside). layers defaults to municipalities.',
      querystring: IdentifyQuery,
      response: { 200: IdentifyResponse, ...errorResponses(CATALOG_ERRORS, 400, 403, 503) },
    },
  }, (request) => {
    const point = sanitizeIdentifyPoint(request.query);
    if (!point.ok) throw errors.badRequest(point.error);
    return app.releases.use(CATALOG_KIND, async (catalog: Catalog) => {
      const layers = sanitizeIdentifyLayers(request.query.layers, catalog.layerIds('identify'), (id) => catalog.layer(id) !== undefined);
      if (!layers.ok) throw errors.badRequest(layers.error);
      const { lng, lat } = point.value;
      const results = await catalog.identify(layers.value, lng, lat, wantsGeometry(request.query.geometry));
      return { at: [lng, lat] as [number, number], results };
    });
  });
};

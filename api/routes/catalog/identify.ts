import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CATALOG_ERRORS, IdentifyQuery, IdentifyResponse } from '../../../schemas/catalog-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import { sanitizeIdentifyLayers, sanitizeIdentifyPoint, wantsGeometry } from '../../params/catalog.ts';

/** GET /identify: the polygons of identify-capable layers that contain a point (not reverse geocoding). */
export const identifyRoute: FastifyPluginAsyncTypebox = async (app) => {
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
    const layers = (allowed: readonly string[], catalogued: (id: string) => boolean) => sanitizeIdentifyLayers(request.query.layers, allowed, catalogued);
    return app.services.catalog.identify(point.value, layers, wantsGeometry(request.query.geometry));
  });
};

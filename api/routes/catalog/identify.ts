import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CATALOG_ERRORS, IdentifyQuery, IdentifyResponse } from '../../../schemas/catalog-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import type { Services } from '../../../services/index.ts';
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
  }, (request) => identifyAt(app.services, request.query));
};

/** The answer of GET /identify for a validated query: every front door's. */
export function identifyAt(services: Services, query: IdentifyQuery): ReturnType<Services['catalog']['identify']> {
  const point = sanitizeIdentifyPoint(query);
  if (!point.ok) throw errors.badRequest(point.error);
  const layers = (allowed: readonly string[], catalogued: (id: string) => boolean) => sanitizeIdentifyLayers(query.layers, allowed, catalogued);
  return services.catalog.identify(point.value, layers, wantsGeometry(query.geometry));
}

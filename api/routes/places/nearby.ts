import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_RADIUS_M, PlacesNearbyQuery, PlacesResponse, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sanitizeCategoryTokens } from '../../params/geocoding/category.ts';
import { sanitizeLngLat } from '../../params/geocoding/coordinates.ts';
import { sanitizeLimit, sanitizeRadius } from '../../params/geocoding/numbers.ts';
import { sanitizeLang } from '../../params/geocoding/text.ts';

export const NEAR_REQUIRED = 'near required (lng,lat)';

/** GET /places/nearby?category=&near=: places of some categories near a point, nearest first, with distance. */
export const placesNearbyRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/places/nearby', {
    schema: {
      tags: ['places'],
      summary: 'Places of some categories near a point, nearest first',
      description: 'category and near are required; radius, limit and lang as on /geocode/nearby. 503 when the corpus has no categories.',
      querystring: PlacesNearbyQuery,
      response: { 200: PlacesResponse, ...errorResponses(GEOCODING_ERRORS, 400, 503) },
    },
  }, (request) => {
    const { query } = request;
    const tokens = sanitizeCategoryTokens(query.category);
    if (!tokens.ok) throw errors.badRequest(tokens.error);
    if (query.near === undefined) throw errors.badRequest(NEAR_REQUIRED);
    const near = sanitizeLngLat('near', query.near);
    if (!near.ok) throw errors.badRequest(near.error);
    const radius = sanitizeRadius(query.radius);
    if (!radius.ok) throw errors.badRequest(radius.error);
    const lang = sanitizeLang(query.lang);
    if (!lang.ok) throw errors.badRequest(lang.error);
    const limit = sanitizeLimit(query.limit, 10);
    return app.services.geocoding.placesNearby({
      categoryTokens: tokens.value, ...near.value, radius: radius.value ?? DEFAULT_RADIUS_M, limit, lang: lang.value,
    });
  });
};

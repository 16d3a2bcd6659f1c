import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeNearbyQuery, GeocodeResults, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { GeocodeResult } from '../../../engines/geocoding/types.ts';
import type { Services } from '../../../services/index.ts';
import { sanitizeAnchor } from '../../params/geocoding/anchor.ts';
import { sanitizeCategoryTokens } from '../../params/geocoding/category.ts';
import { sanitizeLimit } from '../../params/geocoding/numbers.ts';
import { sanitizeLang } from '../../params/geocoding/text.ts';

/** GET /geocode/nearby: places of some categories near a point (or a box's centre), nearest first. */
export const geocodeNearbyRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/geocode/nearby', {
    schema: {
      tags: ['geocoding'],
      summary: 'Category search near a point, nearest first, with distance and category',
      description: 'Exactly one of near or bbox. A bbox anchors at its centre with a radius reaching its farthest corner ' +
        '(then clamped); it does not clip. 503 when the corpus was built without categories.',
      querystring: GeocodeNearbyQuery,
      response: { 200: GeocodeResults, ...errorResponses(GEOCODING_ERRORS, 400, 503) },
    },
  }, (request) => geocodeNearby(app.services, request.query));
};

/** The answer of GET /geocode/nearby for a validated query: every front door's. */
export function geocodeNearby(services: Services, query: GeocodeNearbyQuery): Promise<GeocodeResult[]> {
  const tokens = sanitizeCategoryTokens(query.category);
  if (!tokens.ok) throw errors.badRequest(tokens.error);
  const anchor = sanitizeAnchor(query);
  if (!anchor.ok) throw errors.badRequest(anchor.error);
  const lang = sanitizeLang(query.lang);
  if (!lang.ok) throw errors.badRequest(lang.error);
  const limit = sanitizeLimit(query.limit, 10);
  return services.geocoding.nearby({ categoryTokens: tokens.value, ...anchor.value, limit, lang: lang.value });
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PlacesResponse, PlacesSearchQuery, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { Services } from '../../../services/index.ts';
import { sanitizeCategoryTokens } from '../../params/geocoding/category.ts';
import { sanitizeBbox, sanitizeLngLat } from '../../params/geocoding/coordinates.ts';
import { sanitizeLimit } from '../../params/geocoding/numbers.ts';
import { sanitizeLang, sanitizeQ } from '../../params/geocoding/text.ts';

/**
 * GET /places/search?q=: places of interest by name. Optional bbox (hard filter; a box with no
 * area finds nothing), focus (soft preference) and category (tokens as on /places/nearby).
 */
export const placesSearchRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/places/search', {
    schema: {
      tags: ['places'],
      summary: 'Places of interest by name',
      description: 'Returns places, not the best geographic match: a city name does not return the city. bbox is a hard filter, ' +
        'focus a soft preference, category a filter resolved like /places/nearby (503 when the corpus has no categories).',
      querystring: PlacesSearchQuery,
      response: { 200: PlacesResponse, ...errorResponses(GEOCODING_ERRORS, 400, 503) },
    },
  }, (request) => searchPlacesByName(app.services, request.query));
};

/** The answer of GET /places/search for a validated query: every front door's. */
export function searchPlacesByName(services: Services, query: PlacesSearchQuery): Promise<PlacesResponse> {
  const q = sanitizeQ(query.q);
  if (!q.ok) throw errors.badRequest(q.error);
  const lang = sanitizeLang(query.lang);
  if (!lang.ok) throw errors.badRequest(lang.error);
  const bbox = query.bbox === undefined ? null : sanitizeBbox(query.bbox);
  if (bbox && !bbox.ok) throw errors.badRequest(bbox.error);
  const focus = query.focus === undefined ? null : sanitizeLngLat('focus', query.focus);
  if (focus && !focus.ok) throw errors.badRequest(focus.error);
  const tokens = query.category === undefined ? null : sanitizeCategoryTokens(query.category);
  if (tokens && !tokens.ok) throw errors.badRequest(tokens.error);
  return services.geocoding.placesSearch({
    q: q.value, lang: lang.value, limit: sanitizeLimit(query.limit, 10),
    bbox: bbox?.value ?? null, focus: focus?.value ?? null, categoryTokens: tokens?.value ?? null,
  });
}

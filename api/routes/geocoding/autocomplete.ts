import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeAutocompleteQuery, GeocodeResults, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { FreeText } from '../../../engines/grammars/free-text.ts';
import type { GeocodeResult } from '../../../engines/geocoding/types.ts';
import type { Services } from '../../../services/index.ts';
import { sanitizeLimit } from '../../params/geocoding/numbers.ts';
import { sanitizeFreeText } from '../../params/geocoding/free-text.ts';
import { sanitizeLang } from '../../params/geocoding/text.ts';

/** GET /geocode/autocomplete: type-ahead; the last word is a prefix. Other parameters (bbox, ...) are ignored. */
export const geocodeAutocompleteRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/geocode/autocomplete', {
    schema: {
      tags: ['geocoding'],
      summary: 'Type-ahead search',
      description: 'The last word is a prefix, earlier words match whole tokens, in any order. Three characters or fewer answer ' +
        'localities, provinces and points of interest only. No typo tolerance; match_type is unknown. A complete land description, ' +
        'well identifier or parcel id answers as on /geocode/search (same add-ons).',
      querystring: GeocodeAutocompleteQuery,
      response: { 200: GeocodeResults, ...errorResponses(GEOCODING_ERRORS, 400, 403, 503) },
    },
  }, (request) => geocodeAutocomplete(app.services, request.query, request.freeText?.[0]));
};

/** The answer of GET /geocode/autocomplete for a validated query (and its free text, when read already): every front door's. */
export async function geocodeAutocomplete(services: Services, query: GeocodeAutocompleteQuery, freeText: FreeText | undefined): Promise<GeocodeResult[]> {
  const q = sanitizeFreeText(query.q, freeText);
  if (!q.ok) throw errors.badRequest(q.error);
  const lang = sanitizeLang(query.lang);
  if (!lang.ok) throw errors.badRequest(lang.error);
  return services.geocoding.autocomplete({ q: q.value, lang: lang.value, limit: sanitizeLimit(query.limit, 8) });
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeAutocompleteQuery, GeocodeResults, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
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
  }, async (request) => {
    const q = sanitizeFreeText(request.query.q, request.freeText?.[0]);
    if (!q.ok) throw errors.badRequest(q.error);
    const lang = sanitizeLang(request.query.lang);
    if (!lang.ok) throw errors.badRequest(lang.error);
    return app.services.geocoding.autocomplete({ q: q.value, lang: lang.value, limit: sanitizeLimit(request.query.limit, 8) });
  });
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeAutocompleteQuery, GeocodeResults, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sanitizeLimit } from '../../params/geocoding/numbers.ts';
import { sanitizeLang, sanitizeQ } from '../../params/geocoding/text.ts';
import { GEOCODING_KIND } from '../../../schemas/geocoding-release.ts';
import type { Geocoder } from '../../../engines/geocoding/types.ts';

/** GET /geocode/autocomplete: type-ahead; the last word is a prefix. Other parameters (bbox, ...) are ignored. */
export const autocompleteRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/geocode/autocomplete', {
    schema: {
      tags: ['geocoding'],
      summary: 'Type-ahead search',
      description: 'The last word is a prefix, earlier words match whole tokens, in any order. Three characters or fewer answer ' +
        'localities, provinces and points of interest only. No typo tolerance; match_type is unknown.',
      querystring: GeocodeAutocompleteQuery,
      response: { 200: GeocodeResults, ...errorResponses(GEOCODING_ERRORS, 400, 503) },
    },
  }, (request) => {
    const q = sanitizeQ(request.query.q);
    if (!q.ok) throw errors.badRequest(q.error);
    const lang = sanitizeLang(request.query.lang);
    if (!lang.ok) throw errors.badRequest(lang.error);
    const limit = sanitizeLimit(request.query.limit, 8);
    return app.releases.use(GEOCODING_KIND, async (geocoder: Geocoder) => geocoder.autocomplete(q.value, { lang: lang.value, limit }));
  });
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeResults, GeocodeReverseQuery, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sanitizeLimit } from '../../params/geocoding/numbers.ts';
import { sanitizeLang } from '../../params/geocoding/text.ts';
import { GEOCODING_KIND } from '../../../schemas/geocoding-release.ts';
import type { Geocoder } from '../../../engines/geocoding/types.ts';

/** GET /geocode/reverse?lon=&lat=: nearest named places by geodesic distance. */
export const reverseRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/geocode/reverse', {
    schema: {
      tags: ['geocoding'],
      summary: 'Reverse geocoding: nearest named places, nearest first, with distance',
      querystring: GeocodeReverseQuery,
      response: { 200: GeocodeResults, ...errorResponses(GEOCODING_ERRORS, 400, 503) },
    },
  }, (request) => {
    // lon and lat were checked as plain decimals in range (api/plugins/numeric-query.ts, then the schema).
    const { lon, lat } = request.query;
    const lang = sanitizeLang(request.query.lang);
    if (!lang.ok) throw errors.badRequest(lang.error);
    const limit = sanitizeLimit(request.query.limit, 5);
    return app.releases.use(GEOCODING_KIND, async (geocoder: Geocoder) => geocoder.reverse({ lng: lon, lat, lang: lang.value, limit }));
  });
};

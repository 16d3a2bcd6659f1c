import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeResults, GeocodeReverseQuery, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { GeocodeResult } from '../../../engines/geocoding/types.ts';
import type { Services } from '../../../services/index.ts';
import { sanitizeLimit } from '../../params/geocoding/numbers.ts';
import { sanitizeReverseLayers } from '../../params/geocoding/reverse-layers.ts';
import { sanitizeLang } from '../../params/geocoding/text.ts';

/** GET /geocode/reverse?lon=&lat=: nearest named places by geodesic distance, or (layers=legal_land) the survey cells there. */
export const geocodeReverseRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/geocode/reverse', {
    schema: {
      tags: ['geocoding'],
      summary: 'Reverse geocoding: nearest named places, nearest first, with distance; or the survey cells holding the point',
      description: 'layers=legal_land (legal-land add-on) answers the Dominion Land Survey LSD, quarter section, section and township ' +
        'holding the point, or outside the DLS its NTS cells (with the BC grid in British Columbia), nearest cell centre first.',
      querystring: GeocodeReverseQuery,
      response: { 200: GeocodeResults, ...errorResponses(GEOCODING_ERRORS, 400, 403, 503) },
    },
  }, (request) => geocodeReverse(app.services, request.query));
};

/** The answer of GET /geocode/reverse for a validated query: every front door's. */
export async function geocodeReverse(services: Services, query: GeocodeReverseQuery): Promise<GeocodeResult[]> {
  // lon and lat were checked as plain decimals in range (api/plugins/numeric-query.ts, then the schema).
  const { lon, lat } = query;
  const lang = sanitizeLang(query.lang);
  if (!lang.ok) throw errors.badRequest(lang.error);
  const limit = sanitizeLimit(query.limit, 5);
  const layers = sanitizeReverseLayers(query.layers);
  if (!layers.ok) throw errors.badRequest(layers.error);
  return services.geocoding.reverse({ lng: lon, lat, lang: lang.value, limit, layers: layers.value, geometry: query.geometry === true });
}

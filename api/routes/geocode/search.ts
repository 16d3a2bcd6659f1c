import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeResults, GeocodeSearchQuery, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../errors.ts';
import type { GeocodeResult, Geocoder } from '../../../engines/geocoding/types.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sanitizeSearchControls, type SanitizedSearchControls } from '../../params/geocoding/search-controls.ts';
import { sanitizeQ } from '../../params/geocoding/text.ts';
import { GEOCODING_KIND } from '../../../schemas/geocoding-release.ts';

/** One free-text search as GET /geocode/search and every batch entry answer it. */
export function searchWith(geocoder: Geocoder, q: string, { controls, empty }: SanitizedSearchControls): GeocodeResult[] {
  return empty ? [] : geocoder.search(q, controls);
}

/** GET /geocode/search: forward geocoding of free text. */
export const searchRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/geocode/search', {
    schema: {
      tags: ['geocoding'],
      summary: 'Forward geocoding of free text (addresses, streets, places, localities, provinces, postal codes)',
      description: 'Hard filters (bbox, layers, region) intersect; contradictory ones return []. focus applies within what survives. ' +
        'A parsed query with no matching row returns []. layers=well or facility needs the energy add-on (no energy corpus is served yet: []). ' +
        'geometry=true is accepted (no result carries a survey polygon yet).',
      querystring: GeocodeSearchQuery,
      response: { 200: GeocodeResults, ...errorResponses(GEOCODING_ERRORS, 400, 403, 503) },
    },
  }, (request) => {
    const q = sanitizeQ(request.query.q);
    if (!q.ok) throw errors.badRequest(q.error);
    const sanitized = sanitizeSearchControls(request.query);
    if (!sanitized.ok) throw errors.badRequest(sanitized.error);
    // The energy corpus (its capability checked by the access table before this runs) has no release yet.
    if (sanitized.value.energy) return [];
    return app.releases.use(GEOCODING_KIND, async (geocoder: Geocoder) => searchWith(geocoder, q.value, sanitized.value));
  });
};

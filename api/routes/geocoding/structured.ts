import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeResults, GeocodeStructuredQuery, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { GeocodeResult } from '../../../engines/geocoding/types.ts';
import type { Services } from '../../../services/index.ts';
import { sanitizeSearchControls } from '../../params/geocoding/search-controls.ts';
import { sanitizeCountry, sanitizeStructuredInput } from '../../params/geocoding/structured.ts';

/** GET /geocode/structured: an address given field by field (civic grammar only). */
export const geocodeStructuredRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/geocode/structured', {
    schema: {
      tags: ['geocoding'],
      summary: 'Structured address search',
      description: 'At least one of address, city, postalcode is required; a province alone is a 400. address and city retrieve ' +
        'and rank; region and postalcode narrow (exclude contradicting records, keep silent ones). No match returns [].',
      querystring: GeocodeStructuredQuery,
      response: { 200: GeocodeResults, ...errorResponses(GEOCODING_ERRORS, 400, 503) },
    },
  }, (request) => geocodeStructured(app.services, request.query));
};

/** The answer of GET /geocode/structured for a validated query: every front door's. */
export function geocodeStructured(services: Services, query: GeocodeStructuredQuery): Promise<GeocodeResult[]> {
  const input = sanitizeStructuredInput(query);
  if (!input.ok) throw errors.badRequest(input.error);
  const country = sanitizeCountry(query.country);
  if (!country.ok) throw errors.badRequest(country.error);
  const search = sanitizeSearchControls(query, { energyAllowed: false });
  if (!search.ok) throw errors.badRequest(search.error);
  return services.geocoding.structured({ input: input.value, search: search.value });
}

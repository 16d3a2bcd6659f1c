import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PlaceIdParams, PlaceQuery, PlacesResponse, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import { errorResponses } from '../../../schemas/common.ts';
import type { Services } from '../../../services/index.ts';
import { sanitizeLang } from '../../params/geocoding/text.ts';

/** GET /places/{id}: one place by its held id; a malformed id is the same 404 as an unknown one. */
export const placeRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/places/:id', {
    schema: {
      tags: ['places'],
      summary: 'A place by id',
      description: 'Ids are opaque; a malformed id answers the same 404 as an unknown one.',
      params: PlaceIdParams,
      querystring: PlaceQuery,
      response: { 200: PlacesResponse, ...errorResponses(GEOCODING_ERRORS, 400, 404, 503) },
    },
  }, (request) => placeOfId(app.services, request.params, request.query));
};

/** The answer of GET /places/{id} for validated params and query: every front door's. */
export function placeOfId(services: Services, params: PlaceIdParams, query: PlaceQuery): Promise<PlacesResponse> {
  const lang = sanitizeLang(query.lang);
  if (!lang.ok) throw errors.badRequest(lang.error);
  return services.geocoding.place({ id: params.id, lang: lang.value });
}

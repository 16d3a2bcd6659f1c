import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PlaceIdParams, PlaceQuery, PlacesResponse } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../errors.ts';
import { errorResponses } from '../geocode/error-responses.ts';
import { sanitizeLang } from '../../params/geocoding/text.ts';
import { useGeocoder } from '../geocode/use-geocoder.ts';
import { placesEnvelope } from '../../replies/places.ts';

/** GET /places/{id}: one place by its held id; a malformed id is the same 404 as an unknown one. */
export const placeRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/places/:id', {
    schema: {
      tags: ['places'],
      summary: 'A place by id',
      description: 'Ids are opaque; a malformed id answers the same 404 as an unknown one.',
      params: PlaceIdParams,
      querystring: PlaceQuery,
      response: { 200: PlacesResponse, ...errorResponses(400, 404, 503) },
    },
  }, (request) => {
    const lang = sanitizeLang(request.query.lang);
    if (!lang.ok) throw errors.badRequest(lang.error);
    return useGeocoder(app, (geocoder) => {
      const place = geocoder.place(request.params.id, lang.value);
      if (!place) throw errors.placeNotFound();
      return placesEnvelope(geocoder, [place]);
    });
  });
};

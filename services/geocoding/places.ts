import type { Geocoder } from '../../engines/geocoding/types.ts';
import { errors } from '../../lib/errors.ts';
import type { PlacesResponse } from '../../schemas/geocoding-api.ts';
import { categoriesOf } from './categories.ts';
import { placesEnvelope } from './places-envelope.ts';
import type { NearbyRequest, PlaceRequest, PlacesSearchRequest } from './requests.ts';

/** GET /places/{id}: a malformed id is the same 404 as an unknown one. */
export function placeAnswer(geocoder: Geocoder, { id, lang }: PlaceRequest): PlacesResponse {
  const place = geocoder.place(id, lang);
  if (!place) throw errors.placeNotFound();
  return placesEnvelope(geocoder, [place]);
}

/** GET /places/search: categories resolve (or refuse) before an empty box answers nothing. */
export function placesSearchAnswer(geocoder: Geocoder, request: PlacesSearchRequest): PlacesResponse {
  const categories = request.categoryTokens ? categoriesOf(geocoder, request.categoryTokens) : undefined;
  if (request.bbox?.empty) return placesEnvelope(geocoder, []);
  return placesEnvelope(geocoder, geocoder.placesSearch(request.q, {
    lang: request.lang,
    limit: request.limit,
    ...(request.bbox ? { bbox: request.bbox.box } : {}),
    ...(request.focus ? { focus: request.focus } : {}),
    ...(categories ? { categories } : {}),
  }));
}

/** GET /places/nearby: places of some categories near a point, nearest first. */
export function placesNearbyAnswer(geocoder: Geocoder, { categoryTokens, ...near }: NearbyRequest): PlacesResponse {
  return placesEnvelope(geocoder, geocoder.placesNearby({ categories: categoriesOf(geocoder, categoryTokens), ...near }));
}

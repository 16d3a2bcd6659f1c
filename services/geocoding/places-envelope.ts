import type { PlacesResponse } from '../../schemas/geocoding-api.ts';
import type { Geocoder, PlaceRecord } from '../../engines/geocoding/types.ts';

/** The places envelope: records plus the release's attribution; status is always current. */
export function placesEnvelope(geocoder: Geocoder, data: PlaceRecord[]): PlacesResponse {
  return { data, meta: { attribution: geocoder.attribution, status: 'current' } };
}

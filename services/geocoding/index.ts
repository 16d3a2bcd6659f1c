import type { ServiceDeps } from '../deps.ts';
import type { GeocodeResult, Geocoder } from '../../engines/geocoding/types.ts';
import { legalLandAt } from '../../engines/grammars/reverse.ts';
import type { PlacesResponse } from '../../schemas/geocoding-api.ts';
import { GEOCODING_KIND } from '../../schemas/geocoding-release.ts';
import { categoriesOf } from './categories.ts';
import { freeTextSearch } from './free-text.ts';
import { placeAnswer, placesNearbyAnswer, placesSearchAnswer } from './places.ts';
import type {
  AutocompleteRequest, BatchSearchRequest, FreeTextSearchRequest, NearbyRequest, PlaceRequest, PlacesSearchRequest,
  ReverseRequest, StructuredSearchRequest,
} from './requests.ts';

export interface GeocodingService {
  search(request: FreeTextSearchRequest): Promise<GeocodeResult[]>;
  /** Slot i answers queries[i]; a grammar fault is a 400 naming `queries[i]`. */
  batch(request: BatchSearchRequest): Promise<GeocodeResult[][]>;
  autocomplete(request: AutocompleteRequest): Promise<GeocodeResult[]>;
  structured(request: StructuredSearchRequest): Promise<GeocodeResult[]>;
  reverse(request: ReverseRequest): Promise<GeocodeResult[]>;
  nearby(request: NearbyRequest): Promise<GeocodeResult[]>;
  place(request: PlaceRequest): Promise<PlacesResponse>;
  placesSearch(request: PlacesSearchRequest): Promise<PlacesResponse>;
  placesNearby(request: NearbyRequest): Promise<PlacesResponse>;
}

/**
 * Geocoding and its places view, over the enabled 'geocoding' release, with land descriptions,
 * wells and parcels answered from the 'energy' and 'parcels' releases (free text routed by its
 * grammar). A missing release is a 503, a bad request part a 400 naming it.
 */
export function createGeocodingService(deps: ServiceDeps): GeocodingService {
  const withGeocoder = <T>(answer: (geocoder: Geocoder) => T): Promise<T> =>
    deps.releases.use(GEOCODING_KIND, async (geocoder: Geocoder) => answer(geocoder));
  return {
    search: async ({ q, search, geometry }) => (await freeTextSearch(deps.releases, [q], search, { geometry, label: () => '' }))[0]!,
    batch: ({ queries, search }) => freeTextSearch(deps.releases, queries, search, { geometry: false, label: (i) => `queries[${i}]: ` }),
    autocomplete: async ({ q, lang, limit }) => {
      const search = { controls: { lang, limit }, energy: null, empty: false };
      const [results] = await freeTextSearch(deps.releases, [q], search, {
        geometry: false, label: () => '', civic: (geocoder, text) => geocoder.autocomplete(text, { lang, limit }),
      });
      // Input matching does not apply to type-ahead (volume 2): every result, grammar hits included, is unknown.
      return results!.map(({ match_reasons: _reasons, ...result }) => ({ ...result, match_type: 'unknown' as const }));
    },
    structured: ({ input, search: { controls, empty } }) => withGeocoder((geocoder) => (empty ? [] : geocoder.structured(input, controls))),
    reverse: async ({ lng, lat, lang, limit, layers, geometry }) => {
      if (layers === 'legal_land') return legalLandAt(lng, lat, { limit, geometry });
      return withGeocoder((geocoder) => geocoder.reverse({ lng, lat, lang, limit }));
    },
    nearby: ({ categoryTokens, ...near }) => withGeocoder((geocoder) => geocoder.nearby({ categories: categoriesOf(geocoder, categoryTokens), ...near })),
    place: (request) => withGeocoder((geocoder) => placeAnswer(geocoder, request)),
    placesSearch: (request) => withGeocoder((geocoder) => placesSearchAnswer(geocoder, request)),
    placesNearby: (request) => withGeocoder((geocoder) => placesNearbyAnswer(geocoder, request)),
  };
}

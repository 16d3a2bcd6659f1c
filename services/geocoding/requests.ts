import type { SearchControls, StructuredInput } from '../../engines/geocoding/types.ts';
import type { FreeText } from '../../engines/grammars/free-text.ts';
import type { BBox } from '../../lib/geo/bbox.ts';

/**
 * The typed requests of the geocoding facade, as api/params/geocoding/* check them. The places
 * view (GET /places/*) is part of this capability: it answers from the same 'geocoding' release.
 */

/** The controls shared by free-text, structured and batch search (volume 2, "as on search"). */
export interface SanitizedSearchControls {
  controls: SearchControls;
  /** well/facility asked for: the energy corpus (add-on), not the geocoding release; null otherwise. */
  energy: ('well' | 'facility')[] | null;
  /** A hard filter nothing can pass (a box with no area): the answer is []. */
  empty: boolean;
}

/** GET /geocode/search. */
export interface FreeTextSearchRequest {
  q: FreeText;
  search: SanitizedSearchControls;
  geometry: boolean;
}

/** POST /geocode/batch: null entries (blank) answer [] and are not billed. */
export interface BatchSearchRequest {
  queries: readonly (FreeText | null)[];
  search: SanitizedSearchControls;
}

/** GET /geocode/autocomplete: the last word is a prefix. */
export interface AutocompleteRequest {
  q: FreeText;
  lang: string;
  limit: number;
}

/** GET /geocode/structured (civic grammar only). */
export interface StructuredSearchRequest {
  input: StructuredInput;
  search: SanitizedSearchControls;
}

/** GET /geocode/reverse: named places near the point, or (legal_land) the survey cells holding it. */
export interface ReverseRequest {
  lng: number;
  lat: number;
  lang: string;
  limit: number;
  layers: 'places' | 'legal_land';
  geometry: boolean;
}

/** Category tokens as given (api/params/geocoding/category.ts); the release resolves them to taxonomy ids. */
export interface NearbyRequest {
  categoryTokens: string[];
  lng: number;
  lat: number;
  /** Metres, clamped. */
  radius: number;
  lang: string;
  limit: number;
}

/** GET /places/search. */
export interface PlacesSearchRequest {
  q: string;
  lang: string;
  limit: number;
  /** A hard filter; `empty` (no area) finds nothing. */
  bbox: { box: BBox; empty: boolean } | null;
  focus: { lng: number; lat: number } | null;
  categoryTokens: string[] | null;
}

/** GET /places/{id}. */
export interface PlaceRequest {
  id: string;
  lang: string;
}

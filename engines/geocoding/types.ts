/**
 * The query side's contract: what api/routes/geocode and api/routes/places call and get back.
 * Parameters arrive here already validated and defaulted by the routes (volume 2 rules);
 * the engine raises GeocodeQueryError only for what only it can tell (e.g. a query made of
 * postal delivery terms alone, an unknown category token).
 */
export type ResultLayer = 'address' | 'street' | 'locality' | 'region' | 'poi';
export const RESULT_LAYERS: readonly ResultLayer[] = ['address', 'street', 'locality', 'region', 'poi'];

export type MatchType = 'exact' | 'partial' | 'fallback' | 'unknown';
export type Precision = 'point' | 'street' | 'locality' | 'region' | 'unknown';
export type MatchReason =
  | 'housenumber_not_matched' | 'housenumber_differs' | 'unit_not_verified' | 'unit_differs'
  | 'postalcode_not_verified' | 'postalcode_differs' | 'region_not_verified' | 'region_differs'
  | 'terms_unmatched' | 'fuzzy_match';

export interface ResultAddress {
  housenumber?: string;
  unit?: string;
  street?: string;
  city?: string;
  region?: string;
  postcode?: string;
  country?: string;
}

/** One geocoding result (volume 2 "Geocoding result"); absent members are omitted, never null. */
export interface GeocodeResult {
  id: string;
  name: string;
  layer: ResultLayer;
  lng: number;
  lat: number;
  score?: number;
  distance?: number;
  category?: string;
  names?: Record<string, string>;
  source: string;
  source_id: string;
  match_type: MatchType;
  precision: Precision;
  match_reasons?: MatchReason[];
  address?: ResultAddress;
}

export type BBox = [number, number, number, number];

/** Controls shared by search, structured and batch (already validated by the route). */
export interface SearchControls {
  lang: string;
  limit: number;
  bbox?: BBox;
  layers?: ResultLayer[];
  /** Two-letter province code. */
  region?: string;
  focus?: { lng: number; lat: number };
}

export interface StructuredInput {
  address?: string;
  city?: string;
  postalcode?: string;
}

export interface ReverseInput { lng: number; lat: number; lang: string; limit: number }

export interface NearbyInput {
  /** Resolved taxonomy ids (see Geocoder.resolveCategories). */
  categories: string[];
  lng: number;
  lat: number;
  /** Metres. */
  radius: number;
  limit: number;
  lang: string;
}

/** /places record (volume 2 "Place record"). */
export interface PlaceRecord {
  id: string;
  source_id: string;
  name: string;
  names: Record<string, string>;
  category: string;
  category_group: string;
  coordinates: [number, number];
  address?: { housenumber?: string; street?: string; city?: string; region?: string };
  distance?: number;
  source: string;
}

/** A 400 the engine decides (message is the response's `error`). */
export class GeocodeQueryError extends Error {}

export type CategoryResolution = { ok: true; ids: string[] } | { ok: false; unknownToken: string };

export interface Geocoder {
  readonly releaseId: string;
  search(q: string, controls: SearchControls): GeocodeResult[];
  structured(input: StructuredInput, controls: SearchControls): GeocodeResult[];
  autocomplete(q: string, controls: { lang: string; limit: number }): GeocodeResult[];
  reverse(input: ReverseInput): GeocodeResult[];
  nearby(input: NearbyInput): GeocodeResult[];
  /** Category tokens (ids, English or French words) → taxonomy ids, de-duplicated in order. */
  resolveCategories(tokens: string[]): CategoryResolution;
  placesSearch(q: string, controls: { lang: string; limit: number; bbox?: BBox; focus?: { lng: number; lat: number }; categories?: string[] }): PlaceRecord[];
  placesNearby(input: NearbyInput): PlaceRecord[];
  place(id: string, lang: string): PlaceRecord | undefined;
  /** Attribution text for places meta. */
  readonly attribution: string;
  /** False when the corpus was built without categories (nearby answers 503). */
  readonly hasCategories: boolean;
}

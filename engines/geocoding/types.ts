/**
 * The query side's contract: what the geocoding facade (services/geocoding/) calls and gets back.
 * Parameters arrive here already validated and defaulted by the routes (volume 2 rules);
 * the engine raises GeocodeQueryError only for what only it can tell (e.g. a query made of
 * postal delivery terms alone, an unknown category token).
 */
import type { BBox } from '../../lib/geo/bbox.ts';
import { QueryError } from '../../lib/query-error.ts';
import type { GeocodeResult, PlaceRecord, ResultLayer } from '../../schemas/geocoding-api.ts';

export { RESULT_LAYERS, type MatchReason, type MatchType, type Precision, type ResultLayer } from '../../schemas/geocoding-api.ts';

export interface ResultAddress {
  housenumber?: string;
  unit?: string;
  street?: string;
  city?: string;
  region?: string;
  postcode?: string;
  country?: string;
}

/** One geocoding result and one /places record: the wire types of schemas/geocoding-api.ts (absent members are omitted, never null). */
export type { GeocodeResult, PlaceRecord };


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

/** A 400 the engine decides (message is the response's `error`). */
/** The engine's QueryError: the API answers it as a 400 with its message. */
export class GeocodeQueryError extends QueryError {}

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

import { Type, type Static } from '@sinclair/typebox';
import { ERROR_MESSAGE_KEYWORD, stringEnum } from './common.ts';

/**
 * Requests and responses of /geocode/* and /places/* (volume 2, "Geocoding result", "Place
 * record", "Geocoding" and "Places"). The routes validate with these and /openapi.json is
 * generated from them.
 *
 * Most query parameters are declared as strings on purpose: limits and radii are clamped and a
 * non-numeric limit means the default (volume 2), so they must not meet the plain-decimal 400 of
 * api/plugins/numeric-query.ts; the sanitizers in api/params/geocoding/ read them.
 */

/** A query parameter given at most once (a repeated one arrives as an array and is refused). */
const param = (description: string) => Type.Optional(Type.String({ description, [ERROR_MESSAGE_KEYWORD]: 'must be given once' }));

export const MAX_LIMIT = 50;
export const MAX_QUERY_CHARS = 500;
export const MAX_BATCH_QUERIES = 100;
export const MAX_CATEGORY_TOKENS = 8;
export const DEFAULT_RADIUS_M = 5000;
export const MIN_RADIUS_M = 50;
export const MAX_RADIUS_M = 50_000;

const limitParam = (fallback: number) =>
  param(`integer, default ${fallback}; clamped to 1..${MAX_LIMIT}; a non-numeric value means the default`);
const langParam = param('language code of the rendered name, default en (fr-CA counts as fr)');
const bboxParam = param('minlon,minlat,maxlon,maxlat: hard filter; a box with no area returns []');
const focusParam = param('lng,lat: soft preference over about 25 km; excludes nothing');
const layersParam = param(
  'comma list of address, street, locality, region, poi (hard filter); well and facility search the energy corpus ' +
  '(energy add-on) and cannot be mixed with the others',
);
const regionParam = param('province or territory in any spelling (name, French name, abbreviation, postal code); two-letter code after normalisation');
const categoryParam = param(
  `1 to ${MAX_CATEGORY_TOKENS} comma-separated tokens, each a taxonomy id (health.pharmacy) or an English or French word; ` +
  `case, accents and hyphens ignored; at most ${MAX_CATEGORY_TOKENS} ids after resolution`,
);
const radiusParam = param(`metres, default ${DEFAULT_RADIUS_M}; clamped to ${MIN_RADIUS_M}..${MAX_RADIUS_M}`);

// ---- vocabulary -----------------------------------------------------------------------------

export type ResultLayer = 'address' | 'street' | 'locality' | 'region' | 'poi';
export const RESULT_LAYERS: readonly ResultLayer[] = ['address', 'street', 'locality', 'region', 'poi'];
/** Layers of results the land, well and parcel grammars and the energy corpus answer (add-ons). */
export type RecordLayer = 'legal_land' | 'well' | 'facility' | 'parcel';
export const RECORD_LAYERS: readonly RecordLayer[] = ['legal_land', 'well', 'facility', 'parcel'];
export type AnyResultLayer = ResultLayer | RecordLayer;
export const MATCH_TYPES = ['exact', 'partial', 'fallback', 'unknown'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];
export const PRECISIONS = ['point', 'street', 'locality', 'region', 'unknown'] as const;
export type Precision = (typeof PRECISIONS)[number];
export const MATCH_REASONS = [
  'housenumber_not_matched', 'housenumber_differs', 'unit_not_verified', 'unit_differs', 'postalcode_not_verified',
  'postalcode_differs', 'region_not_verified', 'region_differs', 'terms_unmatched', 'fuzzy_match',
] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];

/** What each error status of a geocoding or places route means (documented in /openapi.json). */
export const GEOCODING_ERRORS: Readonly<Record<number, string>> = {
  400: 'a parameter is malformed, missing or unknown; error names it',
  403: 'addon_required: a land description (DLS, NTS) needs the legal-land add-on, a well identifier (UWI) or well and facility ' +
    'search the energy add-on, a BC parcel id (PID) the agriculture add-on (body adds capability, addon, message)',
  404: 'no place with this id (a malformed id answers the same)',
  413: 'payload_too_large: more than 100 queries',
  503: 'the geocoding data is not available (retryable); category search also answers 503 against a corpus built without categories',
};

// ---- requests -------------------------------------------------------------------------------

export const GeocodeSearchQuery = Type.Object({
  q: param(`search text (required, at most ${MAX_QUERY_CHARS} characters); naming a city biases toward it without constraining`),
  lang: langParam,
  limit: limitParam(10),
  bbox: bboxParam,
  layers: layersParam,
  region: param('province or territory in any spelling: hard filter excluding rows that contradict it, keeping rows silent about it'),
  focus: focusParam,
  geometry: Type.Optional(Type.Boolean({ description: 'true includes the survey polygon on a legal-land hit' })),
});
export type GeocodeSearchQuery = Static<typeof GeocodeSearchQuery>;

export const GeocodeStructuredQuery = Type.Object({
  address: param('street line: civic number and street name'),
  city: param('municipality name'),
  region: regionParam,
  postalcode: param('Canadian postal code, with or without the space (narrows; not a deliverability check)'),
  country: param('CA only; validated, not matched'),
  lang: langParam,
  limit: limitParam(10),
  bbox: bboxParam,
  layers: param('comma list of address, street, locality, region, poi (hard filter)'),
  focus: focusParam,
});
export type GeocodeStructuredQuery = Static<typeof GeocodeStructuredQuery>;

export const GeocodeAutocompleteQuery = Type.Object({
  q: param(`type-ahead text (required); the last word is a prefix`),
  lang: langParam,
  limit: limitParam(8),
});
export type GeocodeAutocompleteQuery = Static<typeof GeocodeAutocompleteQuery>;

export const GeocodeNearbyQuery = Type.Object({
  category: categoryParam,
  near: param('lng,lat (exactly one of near or bbox)'),
  bbox: param('minlon,minlat,maxlon,maxlat (exactly one of near or bbox): anchors at the box centre with a radius covering the box; not a clipping rectangle'),
  radius: param(`metres, default ${DEFAULT_RADIUS_M} (or what covers bbox); clamped to ${MIN_RADIUS_M}..${MAX_RADIUS_M}; an explicit radius beats a bbox-derived one`),
  limit: limitParam(10),
  lang: langParam,
});
export type GeocodeNearbyQuery = Static<typeof GeocodeNearbyQuery>;

export const GeocodeReverseQuery = Type.Object({
  lon: Type.Number({ minimum: -180, maximum: 180, description: 'longitude, WGS84 degrees' }),
  lat: Type.Number({ minimum: -90, maximum: 90, description: 'latitude, WGS84 degrees' }),
  lang: langParam,
  limit: limitParam(5),
  layers: param(
    'legal_land (legal-land add-on): instead of named places, the survey cells holding the point — the Dominion Land Survey ' +
    'LSD, quarter section, section and township inside the DLS, else the NTS cells (with the BC grid in British Columbia); ' +
    'distance is to the cell centre',
  ),
  geometry: Type.Optional(Type.Boolean({ description: 'with layers=legal_land: true includes each cell\'s survey polygon' })),
});
export type GeocodeReverseQuery = Static<typeof GeocodeReverseQuery>;

/**
 * Batch body. The shared controls take the query-string forms of /geocode/search; bbox and focus
 * may also be number arrays and layers a string array. The count (413 over 100) and the types of
 * the entries are checked on the raw body before validation, so coercion cannot hide them.
 */
export const GeocodeBatchBody = Type.Object({
  queries: Type.Array(Type.String(), {
    minItems: 1,
    maxItems: MAX_BATCH_QUERIES,
    description: `1 to ${MAX_BATCH_QUERIES} search strings, order preserved; whitespace-only entries answer [] and are not billed`,
    [ERROR_MESSAGE_KEYWORD]: `must be an array of 1 to ${MAX_BATCH_QUERIES} strings`,
  }),
  lang: Type.Optional(Type.String({ description: 'as on search', [ERROR_MESSAGE_KEYWORD]: 'must be a language code such as en or fr' })),
  limit: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: 'as on search', [ERROR_MESSAGE_KEYWORD]: 'must be a number' })),
  layers: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], {
    description: 'as on search; also an array',
    [ERROR_MESSAGE_KEYWORD]: 'must be a comma-separated list of layer names',
  })),
  focus: Type.Optional(Type.Union([Type.String(), Type.Array(Type.Number())], {
    description: 'as on search; also [lng, lat]',
    [ERROR_MESSAGE_KEYWORD]: 'must be lng,lat',
  })),
  region: Type.Optional(Type.String({ description: 'as on search', [ERROR_MESSAGE_KEYWORD]: 'must be a province or territory name or code' })),
  bbox: Type.Optional(Type.Union([Type.String(), Type.Array(Type.Number())], {
    description: 'as on search; also [minlon, minlat, maxlon, maxlat]',
    [ERROR_MESSAGE_KEYWORD]: 'must be minlon,minlat,maxlon,maxlat with 4 finite numbers',
  })),
});
export type GeocodeBatchBody = Static<typeof GeocodeBatchBody>;

export const PlacesSearchQuery = Type.Object({
  q: param(`place name (required, at most ${MAX_QUERY_CHARS} characters); returns places, not the best geographic match`),
  lang: langParam,
  limit: limitParam(10),
  bbox: bboxParam,
  focus: focusParam,
  category: param(`optional category filter: tokens as on /places/nearby`),
});
export type PlacesSearchQuery = Static<typeof PlacesSearchQuery>;

export const PlacesNearbyQuery = Type.Object({
  category: categoryParam,
  near: param('lng,lat (required)'),
  radius: radiusParam,
  limit: limitParam(10),
  lang: langParam,
});
export type PlacesNearbyQuery = Static<typeof PlacesNearbyQuery>;

export const PlaceIdParams = Type.Object({
  id: Type.String({ description: 'opaque place id, URL-encoded as one path segment; a corpus rebuild may renumber it' }),
});
export type PlaceIdParams = Static<typeof PlaceIdParams>;

export const PlaceQuery = Type.Object({ lang: langParam });
export type PlaceQuery = Static<typeof PlaceQuery>;

// ---- records --------------------------------------------------------------------------------


const LabelsByLanguage = Type.Record(Type.String(), Type.String(), {
  description: 'labels keyed by language code (en, fr, iu, ...), alternates en-alt1..3 and fr-alt1..3, and en-iata, en-iata2 for airports',
});


export const GeocodeResultAddress = Type.Object({
  housenumber: Type.Optional(Type.String()),
  unit: Type.Optional(Type.String()),
  street: Type.Optional(Type.String()),
  city: Type.Optional(Type.String()),
  region: Type.Optional(Type.String()),
  postcode: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
}, { description: 'present when at least one component exists' });

export const LegalLand = Type.Object({
  system: stringEnum(['DLS', 'NTS'] as const, 'Dominion Land Survey or National Topographic System (with the BC grid)'),
  province: Type.Optional(Type.String({ description: 'two-letter code, when the survey model places the cell in one province with confidence' })),
  canonical: Type.String({ description: 'the description in canonical form: 04-11-082-04W6, SW-11-082-04W6, 11-082-04W6, 082-04W6; 093F, 093F10, B-001-L/093-F-10' }),
  unit: Type.String({ description: 'the cell level: lsd, quarter, section, township (DLS); series, map_area, sheet, block, unit, quarter_unit (NTS)' }),
  components: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
    description: 'the parts of the description: DLS meridian, range, township, section, quarter, lsd; NTS series, map_area, sheet, block, unit, quarter_unit',
  }),
}, { description: 'legal-land hits only' });

const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 2 });
export const ResultGeometry = Type.Union([
  Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Position)) }),
  Type.Object({ type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Array(Type.Array(Position))) }),
], { description: 'with geometry=true: the survey cell or parcel polygon (GeoJSON, lng/lat)' });

export const GeocodeResult = Type.Object({
  id: Type.String({ description: 'stable identifier' }),
  name: Type.String(),
  layer: stringEnum([...RESULT_LAYERS, ...RECORD_LAYERS]),
  lng: Type.Number(),
  lat: Type.Number(),
  score: Type.Optional(Type.Number({ description: 'search and autocomplete only; higher is more relevant; not comparable between queries' })),
  distance: Type.Optional(Type.Integer({ description: 'nearby and reverse only: metres over the earth\'s curve, rounded' })),
  category: Type.Optional(Type.String({ description: 'nearby only: canonical taxonomy id' })),
  names: Type.Optional(LabelsByLanguage),
  source: Type.String({ description: 'dataset of the surviving merged record' }),
  source_id: Type.String({ description: 'its id in that dataset' }),
  match_type: stringEnum(MATCH_TYPES),
  precision: stringEnum(PRECISIONS),
  match_reasons: Type.Optional(Type.Array(stringEnum(MATCH_REASONS), { description: 'only when match_type is not exact' })),
  address: Type.Optional(GeocodeResultAddress),
  legal_land: Type.Optional(LegalLand),
  uwi: Type.Optional(Type.String({ description: 'well hits: the unique well identifier, e.g. 100/06-32-048-07W5/00' })),
  licence: Type.Optional(Type.String({ description: 'well and facility hits' })),
  operator: Type.Optional(Type.String({ description: 'well and facility hits' })),
  status: Type.Optional(Type.String({ description: 'well and facility hits, as the registry publishes it' })),
  pid: Type.Optional(Type.String({ description: 'parcel hits: the BC parcel identifier, 012-345-678' })),
  bbox: Type.Optional(Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: 'minLng,minLat,maxLng,maxLat of the survey cell or parcel' })),
  geometry: Type.Optional(ResultGeometry),
});
export type GeocodeResult = Static<typeof GeocodeResult>;
export type LegalLand = Static<typeof LegalLand>;
export type ResultGeometry = Static<typeof ResultGeometry>;

export const PlaceRecord = Type.Object({
  id: Type.String({ description: 'opaque; a corpus rebuild may renumber it; do not parse it' }),
  source_id: Type.String(),
  name: Type.String(),
  names: LabelsByLanguage,
  category: Type.String({ description: 'taxonomy id' }),
  category_group: Type.String(),
  coordinates: Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[lng, lat]' }),
  address: Type.Optional(Type.Object({
    housenumber: Type.Optional(Type.String()),
    street: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    region: Type.Optional(Type.String()),
  })),
  distance: Type.Optional(Type.Integer({ description: 'metres; /places/nearby only' })),
  source: Type.String({ description: 'dataset label' }),
});
export type PlaceRecord = Static<typeof PlaceRecord>;

export const PlacesMeta = Type.Object({
  attribution: Type.String(),
  status: Type.Literal('current'),
});
export type PlacesMeta = Static<typeof PlacesMeta>;

// ---- responses ------------------------------------------------------------------------------

export const GeocodeResults = Type.Array(GeocodeResult);
export const GeocodeBatchResponse = Type.Array(GeocodeResults, { description: 'one array per query, aligned with queries' });
export const PlacesResponse = Type.Object({ data: Type.Array(PlaceRecord), meta: PlacesMeta });
export type PlacesResponse = Static<typeof PlacesResponse>;


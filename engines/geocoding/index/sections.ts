import type { TaxonomyEntry } from '../corpus.ts';

/**
 * The query side's index: a small JSON header (IndexMeta) plus flat typed arrays (IndexArrays).
 * No per-row JS objects: at national scale (15M addresses, 1M streets, 1M POIs) every column
 * is one typed array, every string lives in a pool or a string table (utf8 blob + offsets).
 *
 * Conventions:
 * - "entity" = one place row (region, locality, street, poi), numbered by importance
 *   descending, so a posting list sorted by entity id is sorted by importance.
 * - pool string id 0 is the empty string (used as "absent").
 * - CSR lists: `xxxOffsets` has n+1 entries; row i owns `xxxIds[offsets[i] .. offsets[i+1])`.
 */
export const INDEX_FORMAT_VERSION = 1;

export const LAYER_CODES = ['region', 'locality', 'street', 'poi'] as const;
export type EntityLayerCode = 0 | 1 | 2 | 3;
export const L_REGION = 0;
export const L_LOCALITY = 1;
export const L_STREET = 2;
export const L_POI = 3;

export const NO_REGION = 255;
export const NO_CATEGORY = 0xffff;

export interface IndexMeta {
  formatVersion: number;
  entityCount: number;
  addressCount: number;
  tokenCount: number;
  /** Dataset labels; entSource and adSource index this list. */
  sources: string[];
  attribution: Record<string, string>;
  taxonomy: TaxonomyEntry[];
  /** Category ids; entCategory indexes this list (taxonomy ids first, then any other id a POI carries). */
  categories: string[];
  /** Two-letter codes; entRegion indexes this list. */
  regions: string[];
  /** Region code → entity id of its region row (when the corpus has one). */
  regionEntity: Record<string, number>;
  /** Short-prefix tables keep this many rows per prefix. */
  shortPrefixDepth: number;
}

export interface IndexArrays {
  // String pool (display strings, ids, source ids).
  poolBlob: Uint8Array;
  poolOffsets: Uint32Array;

  // Token dictionary: sorted unique canonical tokens; token id = rank.
  tokBlob: Uint8Array;
  tokOffsets: Uint32Array;

  // Entities.
  entLayer: Uint8Array;
  entLng: Float64Array;
  entLat: Float64Array;
  /** 0..1, layer-aware static prominence used in ranking. */
  entImportance: Float32Array;
  entName: Uint32Array;
  entNamesOffsets: Uint32Array;
  entNamesKeys: Uint32Array;
  entNamesValues: Uint32Array;
  /** Sorted unique token ids over every name of the row. */
  entTokOffsets: Uint32Array;
  entTokIds: Uint32Array;
  /** Distinct tokens of the display name (for name coverage). */
  entNameTokCount: Uint8Array;
  /** One hash per name (default, language labels, alternates) of its sorted unique token ids. */
  entNameHashOffsets: Uint32Array;
  entNameHashes: Uint32Array;
  entRegion: Uint8Array;
  /** Entity id of the locality the row lies in; -1 when none. */
  entLocality: Int32Array;
  /** City table row of the display city; -1 when none. */
  entCity: Int32Array;
  entCategory: Uint16Array;
  entHousenumber: Uint32Array;
  entStreet: Uint32Array;
  entPostcode: Uint32Array;
  entSource: Uint8Array;
  entSourceId: Uint32Array;
  entId: Uint32Array;
  /** Streets: their address points are addresses [start, start + count). */
  entAddrStart: Uint32Array;
  entAddrCount: Uint32Array;

  // Display cities (unique city strings of streets and POIs) and their tokens.
  cityName: Uint32Array;
  cityTokOffsets: Uint32Array;
  cityTokIds: Uint32Array;

  // Posting lists: token id → entity ids (ascending = importance descending).
  plPostOffsets: Uint32Array;
  plPostIds: Uint32Array;
  stPostOffsets: Uint32Array;
  stPostIds: Uint32Array;

  // Address points, grouped by street entity (in corpus order within a street).
  adLng: Float64Array;
  adLat: Float64Array;
  adStreet: Uint32Array;
  /** Row of the house-number table. */
  adHn: Uint32Array;
  /** Pool id of the unit (0 = none). */
  adUnit: Uint32Array;
  /** Postcode table row + 1 (0 = none). */
  adPostcode: Uint32Array;
  adSource: Uint8Array;
  adSourceId: Uint32Array;

  // House numbers: rows sorted by (key, display); key = folded, spaces removed.
  hnKeyBlob: Uint8Array;
  hnKeyOffsets: Uint32Array;
  hnDisplayBlob: Uint8Array;
  hnDisplayOffsets: Uint32Array;

  // Postcodes: sorted canonical codes, centroid, address ids nearest-to-centroid first.
  pcBlob: Uint8Array;
  pcOffsets: Uint32Array;
  pcLng: Float64Array;
  pcLat: Float64Array;
  pcAddrOffsets: Uint32Array;
  pcAddrIds: Uint32Array;

  // Short prefixes (1..3 chars of a token) → most important rows having such a token.
  spPlKeyBlob: Uint8Array;
  spPlKeyOffsets: Uint32Array;
  spPlOffsets: Uint32Array;
  spPlIds: Uint32Array;
  spStKeyBlob: Uint8Array;
  spStKeyOffsets: Uint32Array;
  spStOffsets: Uint32Array;
  spStIds: Uint32Array;

  // Spatial. kdReverse items: [0, addressCount) are addresses, the rest revEntity[i - addressCount].
  kdReverse: Uint8Array;
  revEntity: Uint32Array;
  /** kdPoi items → poiEntity[i]. */
  kdPoi: Uint8Array;
  poiEntity: Uint32Array;
  /** POI entity ids ordered by their id string (lookup by held id). */
  poiByIdOrder: Uint32Array;
}

export type IndexArrayName = keyof IndexArrays;

/** Every section, for the reader's completeness check (the type below fails when one is missing). */
export const INDEX_ARRAY_NAMES = [
  'poolBlob', 'poolOffsets', 'tokBlob', 'tokOffsets', 'entLayer', 'entLng', 'entLat', 'entImportance',
  'entName', 'entNamesOffsets', 'entNamesKeys', 'entNamesValues', 'entTokOffsets', 'entTokIds',
  'entNameTokCount', 'entNameHashOffsets', 'entNameHashes', 'entRegion', 'entLocality', 'entCity',
  'entCategory', 'entHousenumber', 'entStreet', 'entPostcode', 'entSource', 'entSourceId', 'entId',
  'entAddrStart', 'entAddrCount', 'cityName', 'cityTokOffsets', 'cityTokIds', 'plPostOffsets', 'plPostIds',
  'stPostOffsets', 'stPostIds', 'adLng', 'adLat', 'adStreet', 'adHn', 'adUnit', 'adPostcode', 'adSource',
  'adSourceId', 'hnKeyBlob', 'hnKeyOffsets', 'hnDisplayBlob', 'hnDisplayOffsets', 'pcBlob', 'pcOffsets',
  'pcLng', 'pcLat', 'pcAddrOffsets', 'pcAddrIds', 'spPlKeyBlob', 'spPlKeyOffsets', 'spPlOffsets', 'spPlIds',
  'spStKeyBlob', 'spStKeyOffsets', 'spStOffsets', 'spStIds', 'kdReverse', 'revEntity', 'kdPoi', 'poiEntity',
  'poiByIdOrder',
] as const satisfies readonly IndexArrayName[];
export const INDEX_ARRAY_NAMES_COMPLETE: Exclude<IndexArrayName, (typeof INDEX_ARRAY_NAMES)[number]> extends never ? true : never = true;

export interface IndexSections {
  meta: IndexMeta;
  arrays: IndexArrays;
}

export type AnyTypedArray =
  | Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

export const TYPED_ARRAY_TYPES = {
  Uint8Array,
  Uint16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
} as const;
export type TypedArrayTypeName = keyof typeof TYPED_ARRAY_TYPES;

export function typedArrayTypeName(a: AnyTypedArray): TypedArrayTypeName {
  const name = a.constructor.name;
  if (!(name in TYPED_ARRAY_TYPES)) throw new Error(`unsupported section array type ${name}`);
  return name as TypedArrayTypeName;
}

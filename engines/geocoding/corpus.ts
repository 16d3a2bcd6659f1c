/**
 * The corpus: what the geocoding build hands to the index assembler (engines/geocoding/index/).
 * Columnar for addresses (national scale: 15M+ rows), row objects for the named places
 * (regions, localities, streets, POIs: a few million at most).
 *
 * Every string here is display text as the source wrote it (after NFKC and whitespace
 * clean-up); folding and tokenizing happen in the assembler with engines/geocoding/text/.
 */
export type PlaceLayer = 'region' | 'locality' | 'street' | 'poi';

export interface CorpusPlace {
  layer: PlaceLayer;
  /** Dataset of the surviving merged record (e.g. `osm`, `openaddresses`, `oda`, `geonames`, `canmap`). */
  source: string;
  /** Its id in that dataset (e.g. `n123456`, `w42`, `5881791`, `BC`). */
  sourceId: string;
  /** Stable id, unique in the corpus, e.g. `poi:osm:n123`, `street:<hash>`, `region:BC`. */
  id: string;
  /** Row default name (what the source calls it). */
  name: string;
  /** Language-keyed labels: en, fr, iu, ..., en-alt1..3, fr-alt1..3, en-iata, en-iata2. */
  names: Record<string, string>;
  lng: number;
  lat: number;
  /**
   * False for a POI with no name of its own (charging stations, ATMs, …): its name is the
   * category's display name, it is found by nearby, reverse and /places/nearby, never by name
   * search or autocomplete. Absent = true.
   */
  named?: boolean;
  /** Higher = more prominent: population for localities, address count for streets, a per-category weight for POIs. */
  prominence: number;
  /** Two-letter province/territory code (BC, QC, ...), null when unknown. */
  region: string | null;
  /** Index (into Corpus.places) of the locality this row lies in; null when none. */
  locality: number | null;
  /** Display city of a street or POI (the locality's name or the source's own city text). */
  city: string | null;
  /** Taxonomy id (`shop.supermarket`) for POIs; null otherwise. */
  category: string | null;
  /** POI address parts (absent parts null). */
  housenumber: string | null;
  street: string | null;
  postcode: string | null;
}

/** Address points, sorted by street (index into places) then house number then unit. */
export interface CorpusAddresses {
  count: number;
  lng: Float64Array;
  lat: Float64Array;
  /** Index into Corpus.places of the street row this point belongs to. */
  street: Uint32Array;
  housenumber: string[];
  /** Unit / apartment / suite; '' when none. */
  unit: string[];
  /** Canonical postal code `A1A 1A1`; '' when none. */
  postcode: string[];
  /** Index into Corpus.sources. */
  source: Uint8Array;
  sourceId: string[];
}

export interface TaxonomyEntry {
  /** `group.name`, e.g. `transport.charging_station`. */
  id: string;
  group: string;
  /** English and French words and phrases that resolve to this id (folded at load). */
  aliases: string[];
  /** Display names. */
  names: { en: string; fr: string };
}

export interface Corpus {
  /** Datasets; CorpusAddresses.source indexes this list. */
  sources: string[];
  /** Attribution text per dataset (shown in places meta). */
  attribution: Record<string, string>;
  places: CorpusPlace[];
  addresses: CorpusAddresses;
  taxonomy: readonly TaxonomyEntry[];
}

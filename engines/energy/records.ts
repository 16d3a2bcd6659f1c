/** The records an energy release serves, and the query API the API layer calls. */

export interface WellRecord {
  kind: 'well';
  id: string;
  /** Canonical display form: 100/14-36-085-17W6/00. */
  uwi: string;
  /** The 16-character form: 100143608517W600. */
  compact: string;
  name: string;
  licence: string;
  operator: string;
  status: string;
  /** AB, BC or SK. */
  province: string;
  lng: number;
  lat: number;
  source: string;
  sourceId: string;
}

export interface FacilityRecord {
  kind: 'facility';
  id: string;
  /** ABBT0012345. */
  facilityId: string;
  name: string;
  licence: string;
  operator: string;
  status: string;
  facilityType: string;
  province: string;
  lng: number;
  lat: number;
  source: string;
  sourceId: string;
}

export type EnergyLayer = 'well' | 'facility';
export type EnergyRecord = (WellRecord | FacilityRecord) & { score: number };

export interface EnergySearchOptions {
  layers: readonly EnergyLayer[];
  limit: number;
  /** [west, south, east, north], inclusive. */
  bbox?: [number, number, number, number];
  /** A province by any spelling (AB, Alberta, B.C., ...). */
  region?: string;
}

export interface EnergyCorpus {
  readonly releaseId: string;
  /** Exact match on the 16-character compact UWI (any case). */
  wellsByUwi(compact: string): WellRecord[];
  /**
   * Free text: an exact UWI, licence or facility id first (a UWI-shaped query with a bad part
   * throws UwiParseError), then names by whole folded tokens, the last token possibly a prefix;
   * ranked by score (1 for an exact id, below 0.9 for a name match).
   */
  search(q: string, opts: EnergySearchOptions): EnergyRecord[];
}

/** The records a parcels release serves, and the query API the API layer calls. */

export interface ParcelRecord {
  id: string;
  /** '012-345-678'. */
  pid: string;
  name: string;
  planNumber: string;
  municipality: string;
  regionalDistrict: string;
  /** A point inside the polygon (not necessarily its centroid). */
  lng: number;
  lat: number;
  /** [west, south, east, north]. */
  bbox: [number, number, number, number];
  geometry: GeoJSON.Polygon | GeoJSON.MultiPolygon;
  source: string;
  sourceId: string;
}

export interface ParcelCorpus {
  readonly releaseId: string;
  /** 'BC': PIDs are British Columbia's. */
  readonly province: string;
  /** The parcels with this PID (nine digits; dashes are ignored), usually one. */
  byPid(pid: string): ParcelRecord[];
}

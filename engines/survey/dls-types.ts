/** DLS levels, coarsest first. */
export const DLS_CELL_LEVELS = ['township', 'section', 'quarter', 'lsd'] as const;
export type DlsLevel = (typeof DLS_CELL_LEVELS)[number];

/** Initial meridians, east to west. E1 numbers its ranges east of the principal meridian (Manitoba). */
export const DLS_MERIDIANS = ['E1', 'W1', 'W2', 'W3', 'W4', 'W5', 'W6'] as const;
export type DlsMeridian = (typeof DLS_MERIDIANS)[number];

export const DLS_QUARTERS = ['NE', 'NW', 'SE', 'SW'] as const;
export type DlsQuarter = (typeof DLS_QUARTERS)[number];

export type DlsProvince = 'MB' | 'SK' | 'AB' | 'BC';

export const isDlsLevel = (value: unknown): value is DlsLevel =>
  typeof value === 'string' && (DLS_CELL_LEVELS as readonly string[]).includes(value);

export const isDlsMeridian = (value: unknown): value is DlsMeridian =>
  typeof value === 'string' && (DLS_MERIDIANS as readonly string[]).includes(value);

export const isDlsQuarter = (value: unknown): value is DlsQuarter =>
  typeof value === 'string' && (DLS_QUARTERS as readonly string[]).includes(value);

/**
 * One DLS description down to `level`; the parts below `level` are absent. For level 'lsd',
 * `quarter` is the quarter section holding that LSD.
 */
export interface DlsRef {
  level: DlsLevel;
  meridian: DlsMeridian;
  range: number;
  township: number;
  section?: number;
  quarter?: DlsQuarter;
  lsd?: number;
}

/** [west, south, east, north] in degrees. */
export type DlsBounds = [west: number, south: number, east: number, north: number];

/** A resolved description: its canonical id and its modelled geometry (see dls-model.ts). */
export interface DlsCell extends DlsRef {
  id: string;
  /** Closed counter-clockwise ring of [lng, lat] (RFC 7946): 4 corners and the closing point, more where clipped at a meridian. */
  ring: [number, number][];
  bounds: DlsBounds;
  /** The centroid of the ring. */
  centre: [lng: number, lat: number];
  /** Omitted when the model cannot tell confidently (near an approximated provincial border). */
  province?: DlsProvince;
}

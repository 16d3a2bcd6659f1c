/** NTS levels, coarsest first: 1:1,000,000 series, 1:250,000 map areas, 1:50,000 sheets, then the BC grid. */
export const NTS_CELL_LEVELS = ['series', 'map_area', 'sheet', 'block', 'unit', 'quarter_unit'] as const;
export type NtsLevel = (typeof NTS_CELL_LEVELS)[number];

export const isNtsLevel = (value: unknown): value is NtsLevel =>
  typeof value === 'string' && (NTS_CELL_LEVELS as readonly string[]).includes(value);

export const levelDepth = (level: NtsLevel): number => NTS_CELL_LEVELS.indexOf(level);

/** [west, south, east, north] in degrees. */
export type NtsBounds = readonly [west: number, south: number, east: number, north: number];

/**
 * One NTS reference down to `level`; the parts below `level` are absent. Letters are upper case,
 * `series` is the number as written (21 for 021, 120 for the high-arctic 120).
 */
export interface NtsRef {
  readonly level: NtsLevel;
  readonly series: number;
  readonly mapArea?: string;
  readonly sheet?: number;
  readonly block?: string;
  readonly unit?: number;
  readonly quarterUnit?: string;
}

/** A resolved reference: its canonical id and exact bounds. */
export interface NtsCell extends NtsRef {
  readonly id: string;
  readonly bounds: NtsBounds;
}

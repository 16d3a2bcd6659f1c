import type { Subdivision } from './subdivision.ts';

/*
 * The BC NTS grid within a 1:50,000 sheet (30′ × 15′), written "B-001-L/093-F-10" (quarter unit,
 * unit, block / series, map area, sheet):
 *
 *   blocks (7.5′ × 5′)      units (45″ × 30″), every row east → west     quarter units (22.5″ × 15″)
 *     L K J I                 100 99 … 91                                   C D
 *     E F G H                  …                                            B A
 *     D C B A                  10  9 …  1
 *
 * Checked against two surveyed points: 55.41875°N 120.128128°W lies in A-001-J/093-P-08 and
 * 49.354435°N 114.524994°W in C-022-H/082-G-07. The second shows the blocks are serpentine (H is
 * the east end of the middle row) and fixes quarter units A (south-east) and C (north-west); both
 * units sit on even rows, so that units restart at the east on every row, and B (south-west) and
 * D (north-east), come from the published descriptions of the grid, not from these points.
 */
export const BLOCK_LAYOUT: Subdivision = { cols: 4, rows: 3, serpentine: true };
export const UNIT_LAYOUT: Subdivision = { cols: 10, rows: 10, serpentine: false };
export const QUARTER_UNIT_LAYOUT: Subdivision = { cols: 2, rows: 2, serpentine: true };

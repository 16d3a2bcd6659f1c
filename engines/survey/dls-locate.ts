import { DlsParseError } from './dls-error.ts';
import { dlsCellOf, quadOf } from './dls-grid.ts';
import {
  DLS_NORTH,
  DLS_SOUTH,
  MERIDIAN_LNG,
  maxRange,
  PRINCIPAL_MERIDIAN,
  rangeStep,
  ROW_LINES,
  SYSTEM_LIMIT,
  townshipRect,
} from './dls-model.ts';
import { lsdAt, quarterAt, quarterOfLsd, sectionAt } from './dls-numbering.ts';
import { quadFractions, sectionQuad, type Quad } from './dls-quad.ts';
import { DLS_CELL_LEVELS, isDlsLevel, type DlsCell, type DlsLevel, type DlsMeridian, type DlsRef } from './dls-types.ts';

const WEST_MERIDIANS: readonly DlsMeridian[] = ['W1', 'W2', 'W3', 'W4', 'W5', 'W6'];

/** Index k of the section-row line at or south of `lat` (township (k / 6) + 1, row k % 6). */
function rowIndexAt(lat: number): number {
  let lo = 0;
  let hi = ROW_LINES.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ROW_LINES[mid]! <= lat) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Meridian and range holding a longitude in a township (cells hold their west edge, not their east one). */
function rangeAt(lng: number, township: number): { meridian: DlsMeridian; range: number } | null {
  const step = rangeStep(township);
  let meridian: DlsMeridian;
  let range: number;
  if (lng >= PRINCIPAL_MERIDIAN) {
    meridian = 'E1';
    range = Math.floor((lng - PRINCIPAL_MERIDIAN) / step) + 1;
  } else {
    meridian = WEST_MERIDIANS.find((m) => m === 'W6' || lng >= SYSTEM_LIMIT[m].lng)!;
    range = Math.ceil((MERIDIAN_LNG[meridian] - lng) / step);
  }
  // settle rounding against the very edges the cells are drawn with
  for (let guard = 0; guard < 2; guard++) {
    const rect = townshipRect(meridian, range, township);
    if (lng < rect.west) range += meridian === 'E1' ? -1 : 1;
    else if (lng >= rect.east) range += meridian === 'E1' ? 1 : -1;
    else break;
  }
  if (range < 1 || range > maxRange(meridian, township)) return null;
  return { meridian, range };
}

const clampSlice = (index: number, n: number): number => Math.min(n - 1, Math.max(0, index));
/** Slice 0…n-1 north of the south edge holding fraction f (slices hold their south edge). */
const sliceNorth = (f: number, n: number): number => clampSlice(Math.floor(f * n), n);
/** Slice 0…n-1 west of the east edge holding fraction f (slices hold their west edge). */
const sliceWest = (f: number, n: number): number => clampSlice(Math.ceil(f * n) - 1, n);

/**
 * The cell of `level` holding a point, under the model of dls-model.ts. Each cell holds its south
 * and west edges, not its north and east ones. Null outside the modelled DLS: south of 49°N,
 * north of 60°N, east of E1's last range or west of W6's.
 */
export function dlsCellAt(lng: number, lat: number, level: DlsLevel): DlsCell | null {
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) throw new RangeError('lng and lat must be finite numbers');
  if (!isDlsLevel(level)) throw new DlsParseError('description', `level must be one of ${DLS_CELL_LEVELS.join(', ')}`);
  if (lat < DLS_SOUTH || lat >= DLS_NORTH) return null;
  const k = rowIndexAt(lat);
  const township = Math.floor(k / 6) + 1;
  const row = k % 6;
  const at = rangeAt(lng, township);
  if (!at) return null;
  const ref: DlsRef = { level, meridian: at.meridian, range: at.range, township };
  if (level === 'township') return dlsCellOf(ref, quadOf(ref));
  const rect = townshipRect(at.meridian, at.range, township);
  // section lines 1…5 at this latitude, straight between row lines as drawn
  const rowQuad = sectionQuad(rect.east, rect.west, township, row, 0);
  const v = (lat - rowQuad.south) / (rowQuad.north - rowQuad.south);
  let column = 0;
  while (column < 5) {
    const line = sectionQuad(rect.east, rect.west, township, row, column + 1);
    const lineLng = line.e0 + (line.e1 - line.e0) * v;
    if (lng < lineLng) column++;
    else break;
  }
  const section: Quad = sectionQuad(rect.east, rect.west, township, row, column);
  ref.section = sectionAt(row, column);
  if (level === 'section') return dlsCellOf(ref, section);
  const { u, v: vs } = quadFractions(section, lng, lat);
  if (level === 'quarter') {
    ref.quarter = quarterAt(sliceNorth(vs, 2), sliceWest(u, 2));
    return dlsCellOf(ref, quadOf(ref));
  }
  ref.lsd = lsdAt(sliceNorth(vs, 4), sliceWest(u, 4));
  ref.quarter = quarterOfLsd(ref.lsd);
  return dlsCellOf(ref, quadOf(ref));
}

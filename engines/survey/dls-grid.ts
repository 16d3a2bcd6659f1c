import { DlsParseError, type DlsPart } from './dls-error.ts';
import { dlsId } from './dls-format.ts';
import { MAX_TOWNSHIP, maxRange, SYSTEM_LIMIT, townshipRect } from './dls-model.ts';
import { lsdPosition, quarterOfLsd, quarterPosition, sectionPosition } from './dls-numbering.ts';
import { dlsProvince } from './dls-province.ts';
import { clipRingEastOf, quadRing, rectQuad, ringAreaCentroid, sectionQuad, subQuad, type Quad } from './dls-quad.ts';
import {
  DLS_CELL_LEVELS,
  DLS_MERIDIANS,
  DLS_QUARTERS,
  isDlsLevel,
  isDlsMeridian,
  isDlsQuarter,
  type DlsBounds,
  type DlsCell,
  type DlsRef,
} from './dls-types.ts';

const upper = (value: unknown): unknown => (typeof value === 'string' ? value.trim().toUpperCase() : value);

function checkNumber(part: DlsPart, value: unknown, max: number, bound = `1 to ${max}`): number {
  if (value === undefined || value === null) throw new DlsParseError(part, `${part} is missing (${bound})`);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new DlsParseError(part, `${part} ${String(value)} is out of range (${bound})`);
  }
  return value;
}

/** A reference checked part by part, quarter filled in for LSDs; throws DlsParseError naming the part at fault. */
export function checkRef(ref: DlsRef): DlsRef {
  if (!ref || typeof ref !== 'object') throw new DlsParseError('description', 'a DLS reference must be an object');
  const { level } = ref;
  if (!isDlsLevel(level)) throw new DlsParseError('description', `level must be one of ${DLS_CELL_LEVELS.join(', ')}`);
  const meridian = upper(ref.meridian);
  if (!isDlsMeridian(meridian)) {
    throw new DlsParseError('meridian', `meridian ${String(ref.meridian)} is not one of ${DLS_MERIDIANS.join(', ')}`);
  }
  const township = checkNumber('township', ref.township, MAX_TOWNSHIP);
  const ranges = maxRange(meridian, township);
  const rangeBound = `1 to ${ranges}`;
  if (typeof ref.range === 'number' && Number.isInteger(ref.range) && ref.range > ranges) {
    throw new DlsParseError('range', `range ${ref.range} is out of range for ${meridian} at township ${township} (${rangeBound})`);
  }
  const range = checkNumber('range', ref.range, ranges, rangeBound);
  const checked: DlsRef = { level, meridian, range, township };
  if (level === 'township') return checked;
  checked.section = checkNumber('section', ref.section, 36);
  if (level === 'section') return checked;
  const quarter = upper(ref.quarter);
  if (quarter !== undefined && !isDlsQuarter(quarter)) {
    throw new DlsParseError('quarter', `quarter ${String(ref.quarter)} is not one of ${DLS_QUARTERS.join(', ')}`);
  }
  if (level === 'quarter') {
    if (quarter === undefined) throw new DlsParseError('quarter', `quarter is missing (${DLS_QUARTERS.join(', ')})`);
    checked.quarter = quarter;
    return checked;
  }
  const lsd = checkNumber('lsd', ref.lsd, 16);
  const holder = quarterOfLsd(lsd);
  if (quarter !== undefined && quarter !== holder) {
    throw new DlsParseError('quarter', `LSD ${lsd} lies in the ${holder} quarter, not the ${quarter} quarter`);
  }
  checked.quarter = holder;
  checked.lsd = lsd;
  return checked;
}

/** The quadrilateral of a checked reference, before the cut at the next meridian. */
export function quadOf(ref: DlsRef): Quad {
  const rect = townshipRect(ref.meridian, ref.range, ref.township);
  if (ref.level === 'township') return rectQuad(rect.west, rect.south, rect.east, rect.north);
  const at = sectionPosition(ref.section!);
  const section = sectionQuad(rect.east, rect.west, ref.township, at.row, at.column);
  if (ref.level === 'section') return section;
  if (ref.level === 'quarter') {
    const q = quarterPosition(ref.quarter!);
    return subQuad(section, 2, q.row, q.column);
  }
  const l = lsdPosition(ref.lsd!);
  return subQuad(section, 4, l.row, l.column);
}

/** The cell of a checked reference and its quad; null when the next meridian cuts it away entirely. */
export function dlsCellOf(ref: DlsRef, quad: Quad): DlsCell | null {
  const limit = SYSTEM_LIMIT[ref.meridian];
  let ring = quadRing(quad);
  if (limit.cuts && Math.min(quad.w0, quad.w1) < limit.lng) {
    ring = clipRingEastOf(ring, limit.lng);
    if (ring.length === 0) return null;
  }
  const { area, centroid } = ringAreaCentroid(ring);
  if (!(area > 1e-14)) return null;
  let west = Infinity;
  let east = -Infinity;
  for (const [lng] of ring) {
    if (lng < west) west = lng;
    if (lng > east) east = lng;
  }
  const bounds: DlsBounds = [west, quad.south, east, quad.north];
  const cell: DlsCell = { ...ref, id: dlsId(ref), ring, bounds, centre: centroid };
  const province = dlsProvince(ref.meridian, ref.range, bounds);
  if (province) cell.province = province;
  return cell;
}

/** The cell a reference names, checked; throws DlsParseError naming the part at fault. */
export function dlsCell(ref: DlsRef): DlsCell {
  const checked = checkRef(ref);
  const cell = dlsCellOf(checked, quadOf(checked));
  if (cell) return cell;
  const part: DlsPart = checked.level === 'township' ? 'range' : checked.level;
  const value = checked.level === 'quarter' ? checked.quarter : checked[part as 'section' | 'lsd' | 'range'];
  const township = dlsId({ ...checked, level: 'township' });
  throw new DlsParseError(part, `${part} ${value} of ${township} lies beyond ${SYSTEM_LIMIT[checked.meridian].name}`);
}

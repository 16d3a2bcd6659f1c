import { QueryError } from '../../lib/query-error.ts';
import { dlsCellOf } from './dls-grid.ts';
import { DLS_NORTH, DLS_SOUTH, MAX_TOWNSHIP, maxRange, MERIDIAN_LNG, rangeStep, rowLine, SYSTEM_LIMIT, townshipRect } from './dls-model.ts';
import { lsdAt, quarterAt, quarterOfLsd, sectionAt } from './dls-numbering.ts';
import { rectQuad, sectionQuad, subQuad, type Quad } from './dls-quad.ts';
import { DLS_MERIDIANS, isDlsLevel, type DlsBounds, type DlsCell, type DlsLevel, type DlsMeridian, type DlsRef } from './dls-types.ts';

type Box = readonly [west: number, south: number, east: number, north: number];

/** A cell [west, east) × [south, north) holds a point of the closed box (dlsCellAt's edge rule). */
const touches = (b: DlsBounds | Box, box: Box): boolean => b[0] <= box[2] && b[2] > box[0] && b[1] <= box[3] && b[3] > box[1];

function quadBounds(quad: Quad, cutAt: number | null): Box {
  const west = Math.max(Math.min(quad.w0, quad.w1), cutAt ?? -Infinity);
  return [west, quad.south, Math.max(quad.e0, quad.e1), quad.north];
}

/** The ranges of a meridian whose township rectangles may meet [west, east] in a township. */
function rangeSpan(meridian: DlsMeridian, township: number, west: number, east: number): [number, number] {
  const step = rangeStep(township);
  const origin = MERIDIAN_LNG[meridian];
  const near = meridian === 'E1' ? west - origin : origin - east;
  const far = meridian === 'E1' ? east - origin : origin - west;
  const first = Math.max(1, Math.floor(near / step));
  const last = Math.min(maxRange(meridian, township), Math.floor(far / step) + 2);
  return [first, last];
}

function* cellsIn(ref: DlsRef, quad: Quad, level: DlsLevel, box: Box, cutAt: number | null): Generator<DlsCell> {
  if (!touches(quadBounds(quad, cutAt), box)) return;
  if (ref.level === level) {
    const cell = dlsCellOf(ref, quad);
    if (cell && touches(cell.bounds, box)) yield cell;
    return;
  }
  if (ref.level === 'section' && level === 'quarter') {
    for (let row = 0; row < 2; row++) {
      for (let column = 0; column < 2; column++) {
        const quarter = quarterAt(row, column);
        yield* cellsIn({ ...ref, level: 'quarter', quarter }, subQuad(quad, 2, row, column), level, box, cutAt);
      }
    }
    return;
  }
  // section → lsd
  for (let row = 0; row < 4; row++) {
    for (let column = 0; column < 4; column++) {
      const lsd = lsdAt(row, column);
      yield* cellsIn({ ...ref, level: 'lsd', quarter: quarterOfLsd(lsd), lsd }, subQuad(quad, 4, row, column), level, box, cutAt);
    }
  }
}

/**
 * Every cell of `level` holding at least one point of the closed box [west, south, east, north]
 * (degrees), under dlsCellAt's edge rule, judged on the cells' bounds. Streams township by
 * township, south to north, meridians east to west, then ranges outward, sections row by row
 * from the south-east, and the parts of each section likewise.
 */
export function* dlsCellsInBbox(bbox: readonly [number, number, number, number], level: DlsLevel): Generator<DlsCell> {
  if (!isDlsLevel(level)) throw new QueryError(`unknown DLS level ${String(level)}`);
  if (!Array.isArray(bbox) || bbox.length !== 4 || !bbox.every(Number.isFinite)) {
    throw new RangeError('bbox must be [west, south, east, north] in finite degrees');
  }
  const box: Box = [bbox[0], bbox[1], bbox[2], bbox[3]];
  if (box[0] > box[2] || box[1] > box[3]) throw new RangeError('bbox west must not exceed east, nor south north');
  if (box[3] < DLS_SOUTH || box[1] >= DLS_NORTH) return;
  for (let township = 1; township <= MAX_TOWNSHIP; township++) {
    if (rowLine(township, 6) <= box[1]) continue;
    if (rowLine(township, 0) > box[3]) break;
    for (const meridian of DLS_MERIDIANS) {
      const limit = SYSTEM_LIMIT[meridian];
      const cutAt = limit.cuts ? limit.lng : null;
      const [first, last] = rangeSpan(meridian, township, box[0], box[2]);
      for (let range = first; range <= last; range++) {
        const rect = townshipRect(meridian, range, township);
        const ref: DlsRef = { level: 'township', meridian, range, township };
        const whole = rectQuad(rect.west, rect.south, rect.east, rect.north);
        if (!touches(quadBounds(whole, cutAt), box)) continue;
        if (level === 'township') {
          yield* cellsIn(ref, whole, level, box, cutAt);
          continue;
        }
        for (let row = 0; row < 6; row++) {
          if (rowLine(township, row + 1) <= box[1] || rowLine(township, row) > box[3]) continue;
          for (let column = 0; column < 6; column++) {
            const section = sectionAt(row, column);
            const quad = sectionQuad(rect.east, rect.west, township, row, column);
            yield* cellsIn({ ...ref, level: 'section', section }, quad, level, box, cutAt);
          }
        }
      }
    }
  }
}

import { TILE_EXTENT } from './layer-spec.ts';
import { LINE, PART_STRIDE, POINT, POLYGON, type TileFeature } from './tile-feature.ts';

/**
 * A feature's geometry in one tile as MVT commands (MoveTo, LineTo, ClosePath with zig-zag
 * deltas from a cursor that starts at 0,0): the vertices its rank keeps at the zoom's tolerance,
 * rounded to the tile's 4096 grid. At tolerance 0 every vertex stays, as it rounds. Above it,
 * parts below the tolerance (rings by area, lines by length) vanish, repeated points go, rings that
 * collapse to no area vanish (with their holes), as do lines that collapse to a point. Outer rings
 * are written with positive area in tile coordinates (clockwise, y down) and holes the other way,
 * as the MVT spec asks.
 */

/** A growable list of command integers that a tile's features write into one after the other. */
export class CommandBuffer {
  data = new Uint32Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  grow(minimum: number): void {
    const next = new Uint32Array(Math.max(minimum, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

const command = (id: number, count: number) => (count << 3) | id;
const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;

/** Scratch for one ring or line's rounded vertices. */
let scratch = new Int32Array(1 << 12);

/**
 * Appends the feature's commands at zoom z in tile (tx, ty) to `out`; false (nothing appended)
 * when nothing of it shows. `tolerance` is in tile units.
 */
export function writeTileGeometry(f: TileFeature, z: number, tx: number, ty: number, tolerance: number, out: CommandBuffer): boolean {
  const scale = 2 ** z * TILE_EXTENT;
  const ox = tx * TILE_EXTENT;
  const oy = ty * TILE_EXTENT;
  const start = out.length;
  const cursor = { x: 0, y: 0 };
  const { coords, parts } = f;
  if (f.type === POINT) {
    const n = coords.length / 3;
    out.push(command(MOVE_TO, n));
    for (let i = 0; i < coords.length; i += 3) {
      moveCursor(out, cursor, Math.round(coords[i]! * scale - ox), Math.round(coords[i + 1]! * scale - oy));
    }
    return true;
  }
  const worldTolerance = tolerance / scale;
  const sqTolerance = worldTolerance * worldTolerance;
  let skipHoles = false;
  let first = 0;
  for (let p = 0; p < parts.length; p += PART_STRIDE) {
    const end = parts[p]!;
    const size = parts[p + 1]!;
    const outer = parts[p + 2] === 1;
    const from = first;
    first = end;
    if (f.type === POLYGON && !outer && skipHoles) continue;
    if (tolerance > 0 && size < (f.type === POLYGON ? sqTolerance : worldTolerance)) {
      if (outer) skipHoles = true;
      continue;
    }
    let n = 0;
    if (scratch.length < (end - from) * 2) scratch = new Int32Array((end - from) * 4);
    for (let i = from * 3; i < end * 3; i += 3) {
      if (tolerance > 0 && coords[i + 2]! <= sqTolerance) continue;
      const x = Math.round(coords[i]! * scale - ox);
      const y = Math.round(coords[i + 1]! * scale - oy);
      if (tolerance > 0 && n > 0 && x === scratch[2 * n - 2] && y === scratch[2 * n - 1]) continue;
      scratch[2 * n] = x;
      scratch[2 * n + 1] = y;
      n += 1;
    }
    if (f.type === LINE) {
      if (n < 2) continue;
      writeLine(out, cursor, n, false, false);
      continue;
    }
    if (n > 1 && scratch[0] === scratch[2 * n - 2] && scratch[1] === scratch[2 * n - 1]) n -= 1;
    const area = ringArea(n);
    if (n < 3 || (tolerance > 0 && area === 0)) {
      if (outer) skipHoles = true;
      continue;
    }
    if (outer) skipHoles = false;
    writeLine(out, cursor, n, true, (area < 0) === outer);
  }
  return out.length > start;
}

/** Twice the surveyor's-formula area of the first n scratch vertices (positive: clockwise with y down). */
function ringArea(n: number): number {
  let sum = 0;
  for (let i = 0, j = n - 1; i < n; j = i, i += 1) {
    sum += scratch[2 * j]! * scratch[2 * i + 1]! - scratch[2 * i]! * scratch[2 * j + 1]!;
  }
  return sum;
}

function writeLine(out: CommandBuffer, cursor: { x: number; y: number }, n: number, ring: boolean, reverse: boolean): void {
  if (out.length + 2 * n + 3 > out.data.length) out.grow(out.length + 2 * n + 3);
  for (let k = 0; k < n; k += 1) {
    const i = reverse ? n - 1 - k : k;
    if (k === 0) out.push(command(MOVE_TO, 1));
    else if (k === 1) out.push(command(LINE_TO, n - 1));
    moveCursor(out, cursor, scratch[2 * i]!, scratch[2 * i + 1]!);
  }
  if (ring) out.push(command(CLOSE_PATH, 1));
}

function moveCursor(out: CommandBuffer, cursor: { x: number; y: number }, x: number, y: number): void {
  out.push(zigzag(x - cursor.x));
  out.push(zigzag(y - cursor.y));
  cursor.x = x;
  cursor.y = y;
}

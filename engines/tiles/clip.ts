import { PART_STRIDE, POINT, POLYGON, withGeometry, type TileFeature } from './tile-feature.ts';

/**
 * Cuts a feature to an axis-aligned box of world coordinates, one axis after the other, as
 * geojson-vt does: points outside are left out, lines split where they leave the box, rings are
 * cut into the box and closed along its edges. Vertices made at an edge rank 1 (always kept).
 * Parts keep the size of the input part they came from (whether they show at a zoom depends on
 * the whole part, not on the piece). A feature inside the box is returned as it is.
 */
export function clipFeature(f: TileFeature, minX: number, minY: number, maxX: number, maxY: number): TileFeature | null {
  if (f.minX >= minX && f.maxX <= maxX && f.minY >= minY && f.maxY <= maxY) return f;
  if (f.maxX < minX || f.minX > maxX || f.maxY < minY || f.minY > maxY) return null;
  let cut = { coords: f.coords, parts: f.parts };
  if (f.minX < minX || f.maxX > maxX) cut = clipAxis(cut.coords, cut.parts, f.type, 0, minX, maxX);
  if (cut.parts.length && (f.minY < minY || f.maxY > maxY)) cut = clipAxis(cut.coords, cut.parts, f.type, 1, minY, maxY);
  if (cut.parts.length === 0) return null;
  return withGeometry(f, cut.coords, cut.parts);
}

class Output {
  coords: number[] = [];
  parts: number[] = [];

  point(x: number, y: number, rank: number): void {
    this.coords.push(x, y, rank);
  }

  /** Ends the part begun at vertex `start` if it has enough vertices, else takes them back. */
  endPart(start: number, size: number, outer: number, type: number): boolean {
    const c = this.coords;
    let n = c.length / 3 - start;
    if (type === POLYGON && n >= 3 && (c[start * 3] !== c.at(-3) || c[start * 3 + 1] !== c.at(-2))) {
      c.push(c[start * 3]!, c[start * 3 + 1]!, c[start * 3 + 2]!);
      n += 1;
    }
    if (n < (type === POINT ? 1 : type === POLYGON ? 4 : 2)) {
      c.length = start * 3;
      return false;
    }
    this.parts.push(c.length / 3, size, outer);
    return true;
  }
}

function clipAxis(coords: Float64Array, parts: Float64Array, type: number, axis: 0 | 1, lo: number, hi: number): { coords: Float64Array; parts: Float64Array } {
  const out = new Output();
  let start = 0;
  let skipHoles = false;
  for (let p = 0; p < parts.length; p += PART_STRIDE) {
    const end = parts[p]!;
    const size = parts[p + 1]!;
    const outer = parts[p + 2]!;
    if (type === POINT) {
      const first = out.coords.length / 3;
      for (let i = start * 3; i < end * 3; i += 3) {
        const a = coords[i + axis]!;
        if (a >= lo && a <= hi) out.point(coords[i]!, coords[i + 1]!, coords[i + 2]!);
      }
      out.endPart(first, size, outer, type);
    } else if (!(outer === 0 && skipHoles)) {
      const kept = clipLine(coords, start, end, axis, lo, hi, type === POLYGON, size, outer, out);
      if (outer === 1) skipHoles = !kept;
    }
    start = end;
  }
  return { coords: Float64Array.from(out.coords), parts: Float64Array.from(out.parts) };
}

/** One line or ring against the slab lo ≤ a ≤ hi of one axis; true if anything of it was kept. */
function clipLine(coords: Float64Array, start: number, end: number, axis: 0 | 1, lo: number, hi: number, ring: boolean, size: number, outer: number, out: Output): boolean {
  let slice = out.coords.length / 3;
  let kept = false;
  const type = ring ? POLYGON : 2;
  for (let i = start * 3; i < (end - 1) * 3; i += 3) {
    const ax = coords[i]!;
    const ay = coords[i + 1]!;
    const bx = coords[i + 3]!;
    const by = coords[i + 4]!;
    const a = axis === 0 ? ax : ay;
    const b = axis === 0 ? bx : by;
    let exited = false;
    if (a < lo) {
      if (b >= lo) intersect(out, ax, ay, bx, by, lo, axis);
    } else if (a > hi) {
      if (b <= hi) intersect(out, ax, ay, bx, by, hi, axis);
    } else {
      out.point(ax, ay, coords[i + 2]!);
    }
    if (b < lo && a >= lo) {
      intersect(out, ax, ay, bx, by, lo, axis);
      exited = true;
    }
    if (b > hi && a <= hi) {
      intersect(out, ax, ay, bx, by, hi, axis);
      exited = true;
    }
    if (!ring && exited) {
      kept = out.endPart(slice, size, outer, type) || kept;
      slice = out.coords.length / 3;
    }
  }
  const last = (end - 1) * 3;
  const a = coords[last + axis]!;
  if (a >= lo && a <= hi) out.point(coords[last]!, coords[last + 1]!, coords[last + 2]!);
  return out.endPart(slice, size, outer, type) || kept;
}

function intersect(out: Output, ax: number, ay: number, bx: number, by: number, at: number, axis: 0 | 1): void {
  if (axis === 0) out.point(at, ay + (by - ay) * ((at - ax) / (bx - ax)), 1);
  else out.point(ax + (bx - ax) * ((at - ay) / (by - ay)), at, 1);
}

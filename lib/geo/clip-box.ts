/**
 * Cutting lng/lat geometry to a box: polygon rings by Sutherland–Hodgman (a ring leaving the box
 * comes back along its edge), lines into the runs inside it.
 */
export type Box = readonly [west: number, south: number, east: number, north: number];
type Position = GeoJSON.Position;

function clipRingEdge(ring: Position[], inside: (p: Position) => boolean, cross: (a: Position, b: Position) => Position): Position[] {
  const out: Position[] = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[(i + ring.length - 1) % ring.length]!;
    const b = ring[i]!;
    if (inside(b)) {
      if (!inside(a)) out.push(cross(a, b));
      out.push(b);
    } else if (inside(a)) out.push(cross(a, b));
  }
  return out;
}

const atX = (x: number) => (a: Position, b: Position): Position => [x, a[1]! + ((x - a[0]!) * (b[1]! - a[1]!)) / (b[0]! - a[0]!)];
const atY = (y: number) => (a: Position, b: Position): Position => [a[0]! + ((y - a[1]!) * (b[0]! - a[0]!)) / (b[1]! - a[1]!), y];

/** A closed ring cut to the box (closed again), or null when nothing of it is inside. */
export function clipRing(ring: readonly Position[], [w, s, e, n]: Box): Position[] | null {
  let open = ring.slice(0, ring.length - 1) as Position[];
  open = clipRingEdge(open, (p) => p[0]! >= w, atX(w));
  open = clipRingEdge(open, (p) => p[0]! <= e, atX(e));
  open = clipRingEdge(open, (p) => p[1]! >= s, atY(s));
  open = clipRingEdge(open, (p) => p[1]! <= n, atY(n));
  return open.length >= 3 ? [...open, open[0]!] : null;
}

/** A polygon's rings cut to the box: null when its outer ring is outside. */
export function clipPolygon(rings: readonly Position[][], box: Box): Position[][] | null {
  const outer = clipRing(rings[0]!, box);
  if (!outer) return null;
  const holes = rings.slice(1).map((r) => clipRing(r, box)).filter((r): r is Position[] => r !== null);
  return [outer, ...holes];
}

/** The parts of a line inside the box (a part ends at the first vertex outside; edge crossings are not interpolated). */
export function clipLine(line: readonly Position[], [w, s, e, n]: Box): Position[][] {
  const parts: Position[][] = [];
  let part: Position[] = [];
  for (const p of line) {
    if (p[0]! >= w && p[0]! <= e && p[1]! >= s && p[1]! <= n) part.push(p);
    else {
      if (part.length >= 2) parts.push(part);
      part = [];
    }
  }
  if (part.length >= 2) parts.push(part);
  return parts;
}

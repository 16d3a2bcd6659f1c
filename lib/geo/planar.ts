/**
 * Exact planar predicates on lng/lat coordinates (a ring is a flat [x0, y0, x1, y1, ...] array,
 * closed or not), and the nearest point of a segment in a local plane. Points on an edge or a vertex count as inside: a point on a shared boundary
 * belongs to both neighbours, so identify never answers "nowhere" on a border.
 */

export type Ring = ArrayLike<number>;
/** Outer ring first, then its holes. */
export type PolygonRings = readonly Ring[];

/** 1 inside, 0 outside, -1 on the boundary (even-odd crossing count with an exact edge test). */
export function ringSide(ring: Ring, x: number, y: number): 1 | 0 | -1 {
  const n = ring.length >> 1;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[2 * i]!, yi = ring[2 * i + 1]!;
    const xj = ring[2 * j]!, yj = ring[2 * j + 1]!;
    if (onSegment(xj, yj, xi, yi, x, y)) return -1;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside ? 1 : 0;
}

/**
 * The fraction (0 to 1) along segment a–b of its point nearest the origin, in a plane (callers
 * centre their frame on the point they project); 0 for a segment of no length.
 */
export function nearestFractionToOrigin(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSq = dx * dx + dy * dy;
  return lengthSq === 0 ? 0 : Math.min(1, Math.max(0, -(ax * dx + ay * dy) / lengthSq));
}

function onSegment(ax: number, ay: number, bx: number, by: number, x: number, y: number): boolean {
  if (x < Math.min(ax, bx) || x > Math.max(ax, bx) || y < Math.min(ay, by) || y > Math.max(ay, by)) return false;
  return (bx - ax) * (y - ay) - (by - ay) * (x - ax) === 0;
}

/** Inside the outer ring and not strictly inside a hole (a hole's edge belongs to the polygon). */
export function polygonContains(rings: PolygonRings, x: number, y: number): boolean {
  if (rings.length === 0 || ringSide(rings[0]!, x, y) === 0) return false;
  for (let h = 1; h < rings.length; h++) if (ringSide(rings[h]!, x, y) === 1) return false;
  return true;
}

function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && onSegment(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && onSegment(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && onSegment(ax, ay, bx, by, dx, dy))
  );
}

/** Whether a polyline (or a ring, closed = true) touches the box [w, s, e, n]. */
export function lineTouchesBox(line: Ring, box: readonly [number, number, number, number], closed = false): boolean {
  const [w, s, e, n] = box;
  const count = line.length >> 1;
  for (let i = 0; i < count; i++) {
    const x = line[2 * i]!, y = line[2 * i + 1]!;
    if (x >= w && x <= e && y >= s && y <= n) return true;
  }
  const edges: [number, number, number, number][] = [[w, s, e, s], [e, s, e, n], [e, n, w, n], [w, n, w, s]];
  const last = closed ? count : count - 1;
  for (let i = 0; i < last; i++) {
    const j = (i + 1) % count;
    const ax = line[2 * i]!, ay = line[2 * i + 1]!, bx = line[2 * j]!, by = line[2 * j + 1]!;
    if (Math.max(ax, bx) < w || Math.min(ax, bx) > e || Math.max(ay, by) < s || Math.min(ay, by) > n) continue;
    for (const [cx, cy, dx, dy] of edges) if (segmentsCross(ax, ay, bx, by, cx, cy, dx, dy)) return true;
  }
  return false;
}

/** Whether a polygon (with holes) and the box [w, s, e, n] share at least one point. */
export function polygonTouchesBox(rings: PolygonRings, box: readonly [number, number, number, number]): boolean {
  if (rings.some((ring) => lineTouchesBox(ring, box, true))) return true;
  // No edge meets the box: the box lies wholly inside the polygon or wholly outside it.
  return polygonContains(rings, box[0], box[1]);
}

/** Signed area (shoelace, in squared degrees; positive = counter-clockwise). */
export function ringArea(ring: Ring): number {
  const n = ring.length >> 1;
  let sum = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) sum += (ring[2 * j]! - ring[2 * i]!) * (ring[2 * j + 1]! + ring[2 * i + 1]!);
  return sum / 2;
}

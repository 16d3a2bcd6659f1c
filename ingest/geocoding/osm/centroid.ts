/**
 * One point for an OSM way: the area centroid of a closed ring (buildings, lots), else the
 * mean of its vertices. Planar in degrees, which is exact enough at building scale.
 * `xs`/`ys` hold the vertices found (missing nodes already left out).
 */
export function wayCentroid(xs: number[], ys: number[], closed: boolean): [number, number] | null {
  const n = xs.length;
  if (n === 0) return null;
  if (closed && n >= 3) {
    // Shift to the first vertex to keep the cross products well conditioned.
    const x0 = xs[0]!;
    const y0 = ys[0]!;
    let area2 = 0;
    let cx = 0;
    let cy = 0;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const ax = xs[i]! - x0;
      const ay = ys[i]! - y0;
      const bx = xs[j]! - x0;
      const by = ys[j]! - y0;
      const cross = ax * by - bx * ay;
      area2 += cross;
      cx += (ax + bx) * cross;
      cy += (ay + by) * cross;
    }
    if (Math.abs(area2) > 1e-18) return [x0 + cx / (3 * area2), y0 + cy / (3 * area2)];
  }
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i]!;
    sy += ys[i]!;
  }
  return [sx / n, sy / n];
}

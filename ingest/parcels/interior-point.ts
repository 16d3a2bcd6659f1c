/** Bounding box and a point inside a polygon (never on a hole, unlike a centroid). */

type Rings = number[][][];

const polygonsOf = (geometry: GeoJSON.Polygon | GeoJSON.MultiPolygon): Rings[] =>
  geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;

export function bboxOf(geometry: GeoJSON.Polygon | GeoJSON.MultiPolygon): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const rings of polygonsOf(geometry)) {
    for (const [x, y] of rings[0]!) {
      box[0] = Math.min(box[0], x!);
      box[1] = Math.min(box[1], y!);
      box[2] = Math.max(box[2], x!);
      box[3] = Math.max(box[3], y!);
    }
  }
  return box;
}

/**
 * The middle of the widest inside stretch of a horizontal line through the middle of the largest
 * polygon's box: where the line crosses the rings (holes included), stretches between crossing
 * pairs are inside. Null for a degenerate polygon.
 */
export function interiorPoint(geometry: GeoJSON.Polygon | GeoJSON.MultiPolygon): [number, number] | null {
  let best: { point: [number, number]; width: number } | null = null;
  for (const rings of polygonsOf(geometry)) {
    const ys = rings[0]!.map((p) => p[1]!);
    const y = (Math.min(...ys) + Math.max(...ys)) / 2;
    const crossings: number[] = [];
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i++) {
        const [x1, y1] = ring[i - 1] as [number, number];
        const [x2, y2] = ring[i] as [number, number];
        // half-open on y so a vertex on the line counts once
        if ((y1 <= y) !== (y2 <= y)) crossings.push(x1 + ((y - y1) / (y2 - y1)) * (x2 - x1));
      }
    }
    crossings.sort((a, b) => a - b);
    for (let i = 0; i + 1 < crossings.length; i += 2) {
      const width = crossings[i + 1]! - crossings[i]!;
      if (width > 0 && (!best || width > best.width)) best = { point: [(crossings[i]! + crossings[i + 1]!) / 2, y], width };
    }
  }
  return best?.point ?? null;
}

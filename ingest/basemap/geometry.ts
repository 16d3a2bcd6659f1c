/**
 * Geometry measures the basemap's zoom rules need: a polygon's area in pixels at a zoom (Web
 * Mercator), and a label point inside a polygon.
 */
import { projectX, projectY } from '../../engines/tiles/tile-feature.ts';
import { polygonContains } from '../../lib/geo/planar.ts';

type Position = GeoJSON.Position;
export type AreaGeometry = GeoJSON.Polygon | GeoJSON.MultiPolygon;

const TILE_PIXELS = 256;

function ringMercatorArea(ring: readonly Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x1, y1] = [projectX(ring[j]![0]!), projectY(ring[j]![1]!)];
    const [x2, y2] = [projectX(ring[i]![0]!), projectY(ring[i]![1]!)];
    sum += x1 * y2 - x2 * y1;
  }
  return Math.abs(sum) / 2;
}

function polygons(geometry: AreaGeometry): Position[][][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** Area as a fraction of the whole Web Mercator square (outers minus holes). */
export function mercatorArea(geometry: AreaGeometry): number {
  let area = 0;
  for (const rings of polygons(geometry)) rings.forEach((ring, i) => (area += (i === 0 ? 1 : -1) * ringMercatorArea(ring)));
  return Math.max(0, area);
}

/** The lowest zoom at which the area covers `pixels` square pixels, within [floor, ceiling]. */
export function zoomForArea(geometry: AreaGeometry, pixels: number, floor: number, ceiling: number): number {
  const area = mercatorArea(geometry);
  if (area <= 0) return ceiling;
  const zoom = Math.ceil(Math.log2(Math.sqrt(pixels / area) / TILE_PIXELS));
  return Math.min(ceiling, Math.max(floor, zoom));
}

function flatRing(ring: readonly Position[]): Float64Array {
  const flat = new Float64Array(ring.length * 2);
  ring.forEach((p, i) => {
    flat[2 * i] = p[0]!;
    flat[2 * i + 1] = p[1]!;
  });
  return flat;
}

/**
 * A point inside the polygon's largest part for its label: the middle of the widest inside span
 * of the horizontal line through the part's vertical middle (the centroid can fall outside a
 * crescent or a ring-shaped park).
 */
export function labelPoint(geometry: AreaGeometry): [number, number] {
  const parts = polygons(geometry);
  let best = parts[0]!;
  let bestArea = -1;
  for (const rings of parts) {
    const area = ringMercatorArea(rings[0]!);
    if (area > bestArea) [best, bestArea] = [rings, area];
  }
  let minY = Infinity;
  let maxY = -Infinity;
  for (const p of best[0]!) [minY, maxY] = [Math.min(minY, p[1]!), Math.max(maxY, p[1]!)];
  const y = (minY + maxY) / 2;
  const crossings: number[] = [];
  for (const ring of best) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [ax, ay] = ring[j]! as [number, number];
      const [bx, by] = ring[i]! as [number, number];
      if ((ay > y) !== (by > y)) crossings.push(ax + ((y - ay) / (by - ay)) * (bx - ax));
    }
  }
  crossings.sort((a, b) => a - b);
  const flat = best.map(flatRing);
  let span: [number, number] | null = null;
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const [a, b] = [crossings[i]!, crossings[i + 1]!];
    if (!span || b - a > span[1] - span[0]) span = [a, b];
  }
  const point: [number, number] = span ? [(span[0] + span[1]) / 2, y] : (best[0]![0] as [number, number]);
  return span && polygonContains(flat, point[0], point[1]) ? point : (best[0]![0] as [number, number]);
}

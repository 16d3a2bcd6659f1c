/**
 * Grid-space contour rings (d3-contour: grid point i at x = i + 0.5) to GeoJSON in degrees at six
 * decimals, with RFC 7946 winding (exterior rings counterclockwise, holes clockwise); one polygon
 * is a Polygon, several a MultiPolygon.
 */
import type { TimeGrid } from './isochrone-grid.ts';

type Position = [number, number];
export type BandGeometry =
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** Twice the signed area (shoelace): positive when counterclockwise. */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  return sum;
}

function orient(ring: Position[], counterclockwise: boolean): Position[] {
  return signedArea(ring) > 0 === counterclockwise ? ring : [...ring].reverse();
}

export function isochroneRings(polygons: number[][][][], grid: TimeGrid): BandGeometry {
  const toDegrees = ([x, y]: number[]): Position => [round6(grid.minLng + (x! - 0.5) * grid.dLng), round6(grid.minLat + (y! - 0.5) * grid.dLat)];
  const converted = polygons.map((rings) => rings.map((ring, k) => orient(ring.map(toDegrees), k === 0)));
  if (converted.length === 1) return { type: 'Polygon', coordinates: converted[0]! };
  return { type: 'MultiPolygon', coordinates: converted };
}

/** A route's line prepared for distance tests against many road-event geometries. */
import type { BBox } from '../../lib/geo/bbox.ts';
import {
  bboxesIntersect, expandBBox, geometryBBox, roadGeometryContains, geometryParts, pointSegmentMetres, segmentSegmentMetres,
  type LngLatPosition, type RoadGeometry,
} from './geometry.ts';

/** Segments per run, and runs per super-run, of RouteLine's index. */
const RUN = 32;

/**
 * A route's line (lng, lat interleaved, degrees) with its box and, made on first use, the boxes of
 * runs of RUN segments and of super-runs of RUN runs: a long route is rejected by super-run, then
 * run, then segment, before any exact distance.
 */
export class RouteLine {
  readonly bbox: BBox;
  /** Segments; a single position is one segment from it to itself. */
  readonly segments: number;
  private index: { runs: Float64Array; supers: Float64Array } | null = null;

  constructor(readonly lngLat: Float64Array) {
    const box = new Float64Array(4);
    boxOf(lngLat, 0, lngLat.length / 2, box, 0);
    this.bbox = { minLon: box[0]!, minLat: box[1]!, maxLon: box[2]!, maxLat: box[3]! };
    this.segments = Math.max(1, lngLat.length / 2 - 1);
  }

  static of(positions: LngLatPosition[]): RouteLine {
    return new RouteLine(Float64Array.from(positions.flatMap((p) => [p[0], p[1]])));
  }

  /** Boxes (minLon, minLat, maxLon, maxLat, one after another) of segments [RUN·r, RUN·(r + 1)) and of runs [RUN·s, RUN·(s + 1)). */
  boxes(): { runs: Float64Array; supers: Float64Array } {
    if (this.index) return this.index;
    const points = this.lngLat.length / 2;
    const runs = new Float64Array(4 * Math.ceil(this.segments / RUN));
    for (let r = 0; 4 * r < runs.length; r++) boxOf(this.lngLat, RUN * r, Math.min(RUN * (r + 1) + 1, points), runs, 4 * r);
    const supers = new Float64Array(4 * Math.ceil(runs.length / 4 / RUN));
    for (let s = 0; 4 * s < supers.length; s++) boxOf(runs, 2 * RUN * s, Math.min(2 * RUN * (s + 1), runs.length / 2), supers, 4 * s);
    return (this.index = { runs, supers });
  }
}

/** The box of points [from, to) of `xy` (x, y interleaved), written at out[at..at + 3]. */
function boxOf(xy: Float64Array, from: number, to: number, out: Float64Array, at: number): void {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = from; i < to; i++) {
    const x = xy[2 * i]!, y = xy[2 * i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  out[at] = minX;
  out[at + 1] = minY;
  out[at + 2] = maxX;
  out[at + 3] = maxY;
}

const misses = (boxes: Float64Array, i: number, reach: BBox) =>
  boxes[4 * i + 2]! < reach.minLon || boxes[4 * i]! > reach.maxLon || boxes[4 * i + 3]! < reach.minLat || boxes[4 * i + 1]! > reach.maxLat;

/**
 * Metres between a route and a geometry, or Infinity when the two are farther apart than `cutoff`
 * metres. Only segments that meet the geometry's box grown by the cutoff are measured.
 */
export function lineGeometryMetres(route: RouteLine, g: RoadGeometry, cutoff: number): number {
  const p = route.lngLat;
  // A route wholly inside an area crosses none of its edges.
  if (roadGeometryContains(g, p[0]!, p[1]!)) return 0;
  const reach = expandBBox(geometryBBox(g), cutoff);
  if (!bboxesIntersect(route.bbox, reach)) return Infinity;
  const parts = geometryParts(g);
  const { runs, supers } = route.boxes();
  const step = p.length > 2 ? 2 : 0;
  let best = Infinity;
  for (let s = 0; 4 * s < supers.length; s++) {
    if (misses(supers, s, reach)) continue;
    for (let r = RUN * s, lastRun = Math.min(RUN * (s + 1), runs.length / 4); r < lastRun; r++) {
      if (misses(runs, r, reach)) continue;
      for (let i = RUN * r, end = Math.min(RUN * (r + 1), route.segments); i < end; i++) {
        const a: LngLatPosition = [p[2 * i]!, p[2 * i + 1]!], b: LngLatPosition = [p[2 * i + step]!, p[2 * i + step + 1]!];
        if (Math.max(a[0], b[0]) < reach.minLon || Math.min(a[0], b[0]) > reach.maxLon ||
          Math.max(a[1], b[1]) < reach.minLat || Math.min(a[1], b[1]) > reach.maxLat) continue;
        for (const part of parts) {
          if (part.length === 1) {
            best = Math.min(best, pointSegmentMetres(part[0]![0], part[0]![1], a, b));
            continue;
          }
          for (let j = 1; j < part.length; j++) best = Math.min(best, segmentSegmentMetres(a, b, part[j - 1]!, part[j]!));
        }
        if (best === 0) return 0;
      }
    }
  }
  return best <= cutoff ? best : Infinity;
}

export const routeGeometryMetres = (route: LngLatPosition[], g: RoadGeometry, cutoff: number): number => lineGeometryMetres(RouteLine.of(route), g, cutoff);

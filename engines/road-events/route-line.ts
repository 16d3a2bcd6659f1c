/** A route's line prepared for distance tests against many road-event geometries. */
import type { BBox } from '../../lib/geo/bbox.ts';
import {
  bboxesIntersect, expandBBox, geometryBBox, geometryContains, geometryParts, pointSegmentMetres, segmentSegmentMetres,
  type Position, type RoadGeometry,
} from './geometry.ts';

/** Segments per box of RouteLine's index: a long route is rejected box by box before segment by segment. */
const RUN = 32;

/** A route's line (lng, lat interleaved, degrees) with its box and, made on first use, the boxes of runs of RUN segments. */
export class RouteLine {
  readonly bbox: BBox;
  /** Segments; a single position is one segment from it to itself. */
  readonly segments: number;
  private runs: Float64Array | null = null;

  constructor(readonly lngLat: Float64Array) {
    const box = { minLon: Infinity, minLat: Infinity, maxLon: -Infinity, maxLat: -Infinity };
    for (let i = 0; i < lngLat.length; i += 2) {
      const lon = lngLat[i]!, lat = lngLat[i + 1]!;
      if (lon < box.minLon) box.minLon = lon;
      if (lon > box.maxLon) box.maxLon = lon;
      if (lat < box.minLat) box.minLat = lat;
      if (lat > box.maxLat) box.maxLat = lat;
    }
    this.bbox = box;
    this.segments = Math.max(1, lngLat.length / 2 - 1);
  }

  static of(positions: Position[]): RouteLine {
    return new RouteLine(Float64Array.from(positions.flatMap((p) => [p[0], p[1]])));
  }

  /** minLon, minLat, maxLon, maxLat of segments [RUN·r, RUN·(r + 1)), run after run. */
  runBoxes(): Float64Array {
    if (this.runs) return this.runs;
    const p = this.lngLat, last = p.length / 2 - 1;
    const runs = new Float64Array(4 * Math.ceil(this.segments / RUN));
    for (let r = 0; 4 * r < runs.length; r++) {
      let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
      for (let i = RUN * r, end = Math.min(RUN * (r + 1), last); i <= end; i++) {
        const lon = p[2 * i]!, lat = p[2 * i + 1]!;
        if (lon < minLon) minLon = lon;
        if (lon > maxLon) maxLon = lon;
        if (lat < minLat) minLat = lat;
        if (lat > maxLat) maxLat = lat;
      }
      runs.set([minLon, minLat, maxLon, maxLat], 4 * r);
    }
    return (this.runs = runs);
  }
}

/**
 * Metres between a route and a geometry, or Infinity when the two are farther apart than `cutoff`
 * metres. Runs of segments, then segments, outside the geometry's box grown by the cutoff are
 * skipped, so a long route costs little.
 */
export function lineGeometryMetres(route: RouteLine, g: RoadGeometry, cutoff: number): number {
  const p = route.lngLat;
  // A route wholly inside an area crosses none of its edges.
  if (geometryContains(g, p[0]!, p[1]!)) return 0;
  const reach = expandBBox(geometryBBox(g), cutoff);
  if (!bboxesIntersect(route.bbox, reach)) return Infinity;
  const parts = geometryParts(g);
  const runs = route.runBoxes();
  const step = p.length > 2 ? 2 : 0;
  let best = Infinity;
  for (let r = 0; 4 * r < runs.length; r++) {
    if (runs[4 * r + 2]! < reach.minLon || runs[4 * r]! > reach.maxLon || runs[4 * r + 3]! < reach.minLat || runs[4 * r + 1]! > reach.maxLat) continue;
    for (let s = RUN * r, end = Math.min(RUN * (r + 1), route.segments); s < end; s++) {
      const a: Position = [p[2 * s]!, p[2 * s + 1]!], b: Position = [p[2 * s + step]!, p[2 * s + step + 1]!];
      if (Math.max(a[0], b[0]) < reach.minLon || Math.min(a[0], b[0]) > reach.maxLon ||
        Math.max(a[1], b[1]) < reach.minLat || Math.min(a[1], b[1]) > reach.maxLat) continue;
      for (const part of parts) {
        if (part.length === 1) {
          best = Math.min(best, pointSegmentMetres(part[0]![0], part[0]![1], a, b));
          continue;
        }
        for (let i = 1; i < part.length; i++) best = Math.min(best, segmentSegmentMetres(a, b, part[i - 1]!, part[i]!));
      }
      if (best === 0) return 0;
    }
  }
  return best <= cutoff ? best : Infinity;
}

export const routeGeometryMetres = (route: Position[], g: RoadGeometry, cutoff: number): number => lineGeometryMetres(RouteLine.of(route), g, cutoff);

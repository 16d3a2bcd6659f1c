/**
 * Edge grades from a DEM, for the bicycle and pedestrian use_hills costing.
 *
 * Each segment's shape is sampled every GRADE_SAMPLE_METRES (both ends always). The stored grade
 * is the mean one: (height at the end − height at the start) / the distance between them, in
 * whole percent, clamped to ±MAX_GRADE_PERCENT; the opposite direction gets exactly its negation.
 * When an end has no height (a void post, or outside the DEM) the nearest sample with one
 * stands in for it, provided the samples with heights still span at least half the edge;
 * otherwise the grade stays 0 (unknown).
 *
 * Why the mean and no steeper-part measure: it is antisymmetric (one byte per directed edge,
 * the two directions agree), and it takes the heights only at the edge's ends, which are on the
 * ground even for a bridge or a tunnel whose inner samples read the valley or the mountain. Its
 * cost is a road that rises and falls between two intersections reading as its net grade; the
 * samples between the ends measure what that hides (stats: sampled relief against net relief).
 * Road graph edges run between intersections, mostly tens to a few hundred metres, so it is
 * usually small. Ferry edges keep 0.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { EDGE_FLAG, MAX_GRADE_PERCENT, NO_EDGE, fromMicroDegrees, type GraphArrays } from '../../engines/routing/graph-format.ts';

/** Height in metres at a point, or null where the DEM has none. */
export type DemSampler = (lng: number, lat: number) => number | null;

export const GRADE_SAMPLE_METRES = 30;

export interface EdgeGradeStats {
  /** Directed edges given a grade from the DEM (0 % included). */
  graded: number;
  /** Directed edges left at 0 because the DEM has too few heights along them. */
  noHeight: number;
  /** Ferry edges, left at 0. */
  ferries: number;
  /** Directed edges whose grade was beyond ±MAX_GRADE_PERCENT. */
  clamped: number;
  /**
   * Over the graded segments (one direction each): the sum of |rise| between consecutive samples
   * and the sum of |net rise| between the ends. Their ratio says how much relief the mean grade hides.
   */
  sampledReliefMetres: number;
  netReliefMetres: number;
}

interface Profile {
  firstDistance: number;
  firstHeight: number;
  lastDistance: number;
  lastHeight: number;
  length: number;
  relief: number;
}

/**
 * Samples the polyline lng,lat (degrees, interleaved) every GRADE_SAMPLE_METRES and at both ends;
 * null when no sample has a height.
 */
function sampleProfile(coords: Float64Array, count: number, elevationAt: DemSampler): Profile | null {
  let length = 0;
  for (let i = 1; i < count; i++) length += haversineMetres(coords[2 * i - 2]!, coords[2 * i - 1]!, coords[2 * i]!, coords[2 * i + 1]!);
  const steps = Math.max(1, Math.ceil(length / GRADE_SAMPLE_METRES));
  let first: [number, number] | null = null;
  let last: [number, number] | null = null;
  let previous: number | null = null;
  let relief = 0;
  let leg = 1;
  let legStart = 0;
  let legLength = count > 1 ? haversineMetres(coords[0]!, coords[1]!, coords[2]!, coords[3]!) : 0;
  for (let s = 0; s <= steps; s++) {
    const distance = s === steps ? length : (length * s) / steps;
    while (leg < count - 1 && legStart + legLength < distance) {
      legStart += legLength;
      leg++;
      legLength = haversineMetres(coords[2 * leg - 2]!, coords[2 * leg - 1]!, coords[2 * leg]!, coords[2 * leg + 1]!);
    }
    let lng: number;
    let lat: number;
    if (s === steps) {
      lng = coords[2 * count - 2]!;
      lat = coords[2 * count - 1]!;
    } else {
      const share = legLength > 0 ? Math.min(1, Math.max(0, (distance - legStart) / legLength)) : 0;
      lng = coords[2 * leg - 2]! + (coords[2 * leg]! - coords[2 * leg - 2]!) * share;
      lat = coords[2 * leg - 1]! + (coords[2 * leg + 1]! - coords[2 * leg - 1]!) * share;
    }
    const height = elevationAt(lng, lat);
    if (height === null || !Number.isFinite(height)) {
      previous = null;
      continue;
    }
    if (first === null) first = [distance, height];
    last = [distance, height];
    if (previous !== null) relief += Math.abs(height - previous);
    previous = height;
  }
  if (first === null || last === null) return null;
  return { firstDistance: first[0], firstHeight: first[1], lastDistance: last[0], lastHeight: last[1], length, relief };
}

/** The edge's full geometry in its own direction, in degrees. */
function edgeCoords(a: GraphArrays, source: number, edge: number, out: Float64Array): number {
  const start = a.edgeShapeStart[edge]!;
  const count = a.edgeShapeCount[edge]!;
  const reversed = (a.edgeFlags[edge]! & EDGE_FLAG.reversed) !== 0;
  let n = 0;
  const put = (lng: number, lat: number) => {
    out[2 * n] = fromMicroDegrees(lng);
    out[2 * n + 1] = fromMicroDegrees(lat);
    n++;
  };
  put(a.nodeLng[source]!, a.nodeLat[source]!);
  for (let k = 0; k < count; k++) {
    const i = 2 * (start + (reversed ? count - 1 - k : k));
    put(a.shapeCoords[i]!, a.shapeCoords[i + 1]!);
  }
  const target = a.edgeTarget[edge]!;
  put(a.nodeLng[target]!, a.nodeLat[target]!);
  return n;
}

/** Every directed edge's grade (GraphArrays.edgeGrade) from the DEM, with what happened. */
export function computeEdgeGrades(a: GraphArrays, elevationAt: DemSampler): { grades: Int8Array; stats: EdgeGradeStats } {
  const edges = a.edgeTarget.length;
  const grades = new Int8Array(edges);
  const done = new Uint8Array(edges);
  const stats: EdgeGradeStats = { graded: 0, noHeight: 0, ferries: 0, clamped: 0, sampledReliefMetres: 0, netReliefMetres: 0 };
  let maxPoints = 2;
  for (let e = 0; e < edges; e++) maxPoints = Math.max(maxPoints, a.edgeShapeCount[e]! + 2);
  const coords = new Float64Array(2 * maxPoints);
  const nodes = a.firstEdge.length - 1;
  for (let u = 0; u < nodes; u++) {
    for (let e = a.firstEdge[u]!; e < a.firstEdge[u + 1]!; e++) {
      if (done[e]) continue;
      const reverse = a.edgeReverse[e]!;
      const directions = reverse === NO_EDGE ? 1 : 2;
      done[e] = 1;
      if (reverse !== NO_EDGE) done[reverse] = 1;
      if ((a.edgeFlags[e]! & EDGE_FLAG.ferry) !== 0) {
        stats.ferries += directions;
        continue;
      }
      const profile = sampleProfile(coords, edgeCoords(a, u, e, coords), elevationAt);
      const span = profile ? profile.lastDistance - profile.firstDistance : 0;
      if (!profile || span <= 0 || span < profile.length / 2) {
        stats.noHeight += directions;
        continue;
      }
      const rise = profile.lastHeight - profile.firstHeight;
      const percent = Math.round((100 * rise) / span);
      const grade = Math.max(-MAX_GRADE_PERCENT, Math.min(MAX_GRADE_PERCENT, percent));
      if (grade !== percent) stats.clamped += directions;
      grades[e] = grade;
      if (reverse !== NO_EDGE) grades[reverse] = -grade;
      stats.graded += directions;
      stats.sampledReliefMetres += profile.relief;
      stats.netReliefMetres += Math.abs(rise);
    }
  }
  return { grades, stats };
}

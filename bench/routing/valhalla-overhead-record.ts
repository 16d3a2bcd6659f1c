/**
 * "Recorded" Valhalla answers made from the built-in engine's own answers, so the Valhalla path
 * of the overhead benchmark translates the same work the built-in path did:
 *
 * - our POST /match answer → a /trace_attributes answer as engines/valhalla/match.ts reads it:
 *   `shape` the polyline6 of every segment's line one after another; per segment, edges that cut
 *   its line into pieces (one per run of a matched edge, at most one per hop of the line), each
 *   with begin/end shape indexes (consecutive edges share a position), `length` in km (the
 *   segment's metres shared by the pieces' lengths) and `speed` in km/h (the segment's mean, so
 *   the seconds add up); `matched_points` one per trace point, `matched` on its piece or
 *   `unmatched`, with a route discontinuity where a segment follows another without unmatched
 *   points between. Edge `id` and `way_id` are our edge index (our answer names no OSM way).
 * - our POST /optimized-route answer → an /optimized_route answer as engines/valhalla/trip.ts
 *   reads it: trip.locations in the visiting order with their original_index, one leg per hop
 *   with its summary (length km, time s) and polyline6 shape, the trip summary.
 *
 * Lengths keep full precision (Valhalla prints three decimals), so the translated answer can be
 * compared with the built-in one to the metre.
 */
import { encodePolyline6 } from '../../lib/geo/polyline6.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

type Position = [number, number];

/** Our POST /match answer (api/routes/routing/match.ts), the members read here. */
export interface OurMatch {
  distanceMeters: number;
  durationSeconds: number;
  geometry: { type: 'LineString'; coordinates: Position[] } | { type: 'MultiLineString'; coordinates: Position[][] };
  segments: { fromPoint: number; toPoint: number; distanceMeters: number; durationSeconds: number; geometry: { coordinates: Position[] } }[];
  points: ({ index: number; matched: true; location: Position; edge: { id: string }; distanceMeters: number; segment: number } | { index: number; matched: false })[];
  breaks: unknown[];
}

/** Our POST /optimized-route answer, the members read here. */
export interface OurOptimized {
  order: number[];
  distanceMeters: number;
  durationSeconds: number;
  geometry: { coordinates: Position[] };
  legs: { from: number; to: number; distanceMeters: number; durationSeconds: number; geometry: { coordinates: Position[] } }[];
}

/** Valhalla's "no edge" index of an unmatched point. */
const NO_EDGE = 4294967295;

const lineMetres = (line: readonly Position[], from: number, to: number): number => {
  let metres = 0;
  for (let i = from; i < to; i++) metres += haversineMetres(line[i]![0], line[i]![1], line[i + 1]![0], line[i + 1]![1]);
  return metres;
};

/** The /trace_attributes answer that yields `answer` for the trace `input`. */
export function traceAttributesOf(answer: OurMatch, input: readonly { lng: number; lat: number }[]): unknown {
  const shape: Position[] = [];
  const edges: { id: number; way_id: number; length: number; speed: number; begin_shape_index: number; end_shape_index: number }[] = [];
  const edgeOfPoint = new Map<number, number>();

  answer.segments.forEach((segment, s) => {
    const line = segment.geometry.coordinates;
    const begin = shape.length;
    for (const p of line) shape.push(p);
    const last = line.length - 1;
    // Runs of one matched edge among the segment's points, in order.
    const members = answer.points.filter((p): p is Extract<OurMatch['points'][number], { matched: true }> => p.matched && p.segment === s);
    const runs: { id: string; points: number[] }[] = [];
    for (const p of members) {
      const run = runs.at(-1);
      if (run && run.id === p.edge.id) run.points.push(p.index);
      else runs.push({ id: p.edge.id, points: [p.index] });
    }
    const pieces = Math.max(1, Math.min(runs.length, last));
    const cuts = Array.from({ length: pieces + 1 }, (_, k) => Math.round((k * last) / pieces));
    const whole = lineMetres(line, 0, last);
    const km = segment.distanceMeters / 1000;
    const speed = segment.durationSeconds > 0 && km > 0 ? km / (segment.durationSeconds / 3600) : 0;
    const first = edges.length;
    for (let k = 0; k < pieces; k++) {
      const share = whole > 0 ? lineMetres(line, cuts[k]!, cuts[k + 1]!) / whole : 1 / pieces;
      const id = Number(runs[Math.min(runs.length - 1, Math.floor((k * runs.length) / pieces))]?.id ?? k);
      edges.push({ id, way_id: id, length: km * share, speed, begin_shape_index: begin + cuts[k]!, end_shape_index: begin + cuts[k + 1]! });
    }
    runs.forEach((run, r) => {
      for (const index of run.points) edgeOfPoint.set(index, first + Math.floor((r * pieces) / runs.length));
    });
  });

  const matched_points = answer.points.map((p, i) => {
    if (!p.matched) {
      return { type: 'unmatched', lat: input[i]!.lat, lon: input[i]!.lng, edge_index: NO_EDGE, distance_along_edge: 0, distance_from_trace_point: 0 };
    }
    return {
      type: 'matched', lat: p.location[1], lon: p.location[0], edge_index: edgeOfPoint.get(i)!, distance_along_edge: 0.5, distance_from_trace_point: p.distanceMeters,
    } as Record<string, unknown>;
  });
  // A segment that follows another with no unmatched point between: Valhalla's route discontinuity.
  let previousSegment = -1;
  answer.points.forEach((p, i) => {
    if (!p.matched) {
      previousSegment = -1;
      return;
    }
    if (previousSegment !== -1 && p.segment !== previousSegment) {
      (matched_points[i] as Record<string, unknown>).begin_route_discontinuity = true;
      (matched_points[i - 1] as Record<string, unknown>).end_route_discontinuity = true;
    }
    previousSegment = p.segment;
  });

  return { edges, shape: encodePolyline6(shape), matched_points, units: 'kilometers', admins: [], osm_changeset: 0 };
}

const bounds = (line: readonly Position[]) => {
  let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
  for (const [x, y] of line) {
    if (x < minLon) minLon = x;
    if (x > maxLon) maxLon = x;
    if (y < minLat) minLat = y;
    if (y > maxLat) maxLat = y;
  }
  return { min_lat: minLat, min_lon: minLon, max_lat: maxLat, max_lon: maxLon };
};

const FLAGS = { has_time_restrictions: false, has_toll: false, has_highway: false, has_ferry: false };

/** The /optimized_route answer that yields `answer` for `stops` (start first, end last). */
export function optimizedRouteOf(answer: OurOptimized, stops: readonly (readonly [number, number])[]): unknown {
  return {
    trip: {
      locations: answer.order.map((i) => ({ type: 'break', lat: stops[i]![1], lon: stops[i]![0], side_of_street: 'right', original_index: i })),
      legs: answer.legs.map((leg) => ({
        summary: { ...FLAGS, ...bounds(leg.geometry.coordinates), time: leg.durationSeconds, length: leg.distanceMeters / 1000, cost: leg.durationSeconds * 1.2 },
        shape: encodePolyline6(leg.geometry.coordinates),
      })),
      summary: { ...FLAGS, ...bounds(answer.geometry.coordinates), time: answer.durationSeconds, length: answer.distanceMeters / 1000, cost: answer.durationSeconds * 1.2 },
      status_message: 'Found route between points',
      status: 0,
      units: 'kilometers',
      language: 'en-US',
    },
  };
}

const positionCount = (g: OurMatch['geometry']): number =>
  g.type === 'LineString' ? g.coordinates.length : g.coordinates.reduce((s, l) => s + l.length, 0);

/** What differs between the Valhalla path's /match answer and the built-in one (empty: the same work). */
export function matchDifferences(valhalla: OurMatch, ours: OurMatch): string[] {
  const out: string[] = [];
  if (valhalla.points.length !== ours.points.length) out.push('point count');
  if (valhalla.points.filter((p) => p.matched).length !== ours.points.filter((p) => p.matched).length) out.push('matched points');
  const runs = (m: OurMatch) => m.segments.map((s) => `${s.fromPoint}-${s.toPoint}`).join(',');
  if (runs(valhalla) !== runs(ours)) out.push('segments');
  if (Math.abs(valhalla.distanceMeters - ours.distanceMeters) > 1) out.push('distance');
  if (Math.abs(valhalla.durationSeconds - ours.durationSeconds) > 1) out.push('duration');
  if (positionCount(valhalla.geometry) !== positionCount(ours.geometry)) out.push('line positions');
  return out;
}

/** What differs between the Valhalla path's /optimized-route answer and the built-in one. */
export function optimizedDifferences(valhalla: OurOptimized, ours: OurOptimized): string[] {
  const out: string[] = [];
  if (valhalla.order.join(',') !== ours.order.join(',')) out.push('order');
  if (valhalla.legs.length !== ours.legs.length) out.push('leg count');
  if (Math.abs(valhalla.distanceMeters - ours.distanceMeters) > 1) out.push('distance');
  if (Math.abs(valhalla.durationSeconds - ours.durationSeconds) > 1) out.push('duration');
  if (valhalla.geometry.coordinates.length !== ours.geometry.coordinates.length) out.push('line positions');
  return out;
}

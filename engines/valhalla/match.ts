/**
 * POST /match through Valhalla's /trace_attributes with shape_match map_snap: the trace with our
 * search radius, GPS accuracy and breakage distance; the matched path cut into segments wherever
 * Valhalla reports a route discontinuity or unmatched points lie between two matched ones; each
 * input point matched (with its edge, OSM way and distance from the trace) or not; a break between
 * consecutive segments: `unmatched` when unmatched points lie between them, `gap` when the two
 * points are farther apart than the breakage distance, else `unroutable`.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { Mode } from '../routing/modes.ts';
import type { ValhallaClient } from './call.ts';
import { costingOf, type ValhallaOptions } from './costing.ts';
import { malformed, ValhallaFailure } from './failure.ts';
import { lineString, oneOrMany, round6, type LineString, type MultiLineString } from './geojson.ts';
import { decodePolyline6 } from '../../lib/geo/polyline6.ts';

export interface MatchInputPoint {
  lng: number;
  lat: number;
  /** Unix seconds; sent to Valhalla only when every point has one. */
  time?: number;
  /** Metres; Valhalla takes one GPS accuracy per trace, so this is not sent (see README). */
  accuracy?: number;
}

export interface MatchInput {
  points: MatchInputPoint[];
  mode: Mode;
  searchRadius: number;
  gpsAccuracy: number;
  breakageDistance: number;
  /** The checked options; their `costs` apply, `mode` above wins. */
  options: ValhallaOptions;
}

export interface ValhallaMatchSegment {
  fromPoint: number;
  toPoint: number;
  distanceMeters: number;
  durationSeconds: number;
  geometry: LineString;
}

export type MatchedPoint =
  | { index: number; matched: true; location: [number, number]; edge: { id: string; osmWayId?: number }; distanceMeters: number; segment: number }
  | { index: number; matched: false };

export interface ValhallaMatchBreak {
  afterPoint: number;
  beforePoint: number;
  reason: 'gap' | 'unroutable' | 'unmatched';
}

export interface ValhallaMatchAnswer {
  distanceMeters: number;
  durationSeconds: number;
  geometry: LineString | MultiLineString;
  segments: ValhallaMatchSegment[];
  points: MatchedPoint[];
  breaks: ValhallaMatchBreak[];
}

const ATTRIBUTES = [
  'edge.id', 'edge.way_id', 'edge.length', 'edge.speed', 'edge.begin_shape_index', 'edge.end_shape_index', 'shape',
  'matched.point', 'matched.type', 'matched.edge_index', 'matched.begin_route_discontinuity', 'matched.end_route_discontinuity',
  'matched.distance_along_edge', 'matched.distance_from_trace_point',
];

export function matchRequest(input: MatchInput) {
  const timed = input.points.length > 0 && input.points.every((p) => p.time !== undefined);
  return {
    shape: input.points.map((p) => ({ lat: p.lat, lon: p.lng, ...(timed ? { time: p.time } : {}) })),
    ...costingOf({ mode: input.mode, costs: input.options.costs }),
    shape_match: 'map_snap',
    units: 'kilometers',
    trace_options: { search_radius: input.searchRadius, gps_accuracy: input.gpsAccuracy, breakage_distance: input.breakageDistance },
    filters: { attributes: ATTRIBUTES, action: 'include' },
  };
}

interface Edge { id?: unknown; way_id?: unknown; length?: unknown; speed?: unknown; begin_shape_index?: unknown; end_shape_index?: unknown }
interface Matched {
  lat?: unknown; lon?: unknown; type?: unknown; edge_index?: unknown;
  begin_route_discontinuity?: unknown; end_route_discontinuity?: unknown; distance_from_trace_point?: unknown;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

interface Run { firstPoint: number; lastPoint: number; firstEdge: number; lastEdge: number }

/** Our /match answer from a /trace_attributes answer for `input`. */
export function matchFromAttributes(json: unknown, input: MatchInput): ValhallaMatchAnswer {
  const body = json as { edges?: unknown; matched_points?: unknown; shape?: unknown };
  if (!Array.isArray(body.edges) || !Array.isArray(body.matched_points) || typeof body.shape !== 'string') {
    throw malformed('trace_attributes', 'edges, matched_points and shape required');
  }
  const edges = body.edges as Edge[];
  const matched = body.matched_points as Matched[];
  if (matched.length !== input.points.length) throw malformed('trace_attributes', `${matched.length} matched points for ${input.points.length} trace points`);
  let shape: Int32Array;
  try {
    shape = decodePolyline6(body.shape);
  } catch (err) {
    throw malformed('trace_attributes', `shape: ${(err as Error).message}`);
  }
  const shapeCount = shape.length / 2;
  const isMatched = (m: Matched) => (m.type === 'matched' || m.type === 'interpolated')
    && Number.isInteger(m.edge_index) && (m.edge_index as number) >= 0 && (m.edge_index as number) < edges.length;

  const runs: Run[] = [];
  let previous = -1;
  matched.forEach((m, i) => {
    if (!isMatched(m)) return;
    const edge = m.edge_index as number;
    const run = runs.at(-1);
    const split = !run || i - previous > 1 || m.begin_route_discontinuity === true || matched[previous]!.end_route_discontinuity === true;
    if (split) runs.push({ firstPoint: i, lastPoint: i, firstEdge: edge, lastEdge: edge });
    else {
      run.lastPoint = i;
      run.lastEdge = Math.max(run.lastEdge, edge);
    }
    previous = i;
  });
  if (runs.length === 0) throw new ValhallaFailure('no_route', 'valhalla trace_attributes: no trace point matched', { action: 'trace_attributes' });

  const segments = runs.map((run): ValhallaMatchSegment & { metres: number; seconds: number } => {
    let metres = 0;
    let seconds = 0;
    for (let e = run.firstEdge; e <= run.lastEdge; e++) {
      const km = num(edges[e]!.length) ?? 0;
      const kmh = num(edges[e]!.speed) ?? 0;
      metres += km * 1000;
      if (kmh > 0) seconds += (km / kmh) * 3600;
    }
    const begin = num(edges[run.firstEdge]!.begin_shape_index);
    const end = num(edges[run.lastEdge]!.end_shape_index);
    if (begin === null || end === null || begin < 0 || end < begin || end >= shapeCount) {
      throw malformed('trace_attributes', `edge shape indexes ${begin}..${end} outside a shape of ${shapeCount} positions`);
    }
    return {
      fromPoint: run.firstPoint,
      toPoint: run.lastPoint,
      distanceMeters: Math.round(metres),
      durationSeconds: Math.round(seconds),
      geometry: lineString(shape, begin, end + 1),
      metres,
      seconds,
    };
  });

  const segmentOf = new Map<number, number>();
  runs.forEach((run, s) => {
    for (let i = run.firstPoint; i <= run.lastPoint; i++) segmentOf.set(i, s);
  });
  const points = matched.map((m, index): MatchedPoint => {
    if (!isMatched(m) || num(m.lat) === null || num(m.lon) === null) return { index, matched: false };
    const edge = edges[m.edge_index as number]!;
    const wayId = num(edge.way_id);
    return {
      index,
      matched: true,
      location: [round6(m.lon as number), round6(m.lat as number)],
      edge: { id: String(edge.id ?? m.edge_index), ...(wayId === null ? {} : { osmWayId: wayId }) },
      distanceMeters: Math.round(num(m.distance_from_trace_point) ?? 0),
      segment: segmentOf.get(index)!,
    };
  });

  const breaks = runs.slice(1).map((run, k): ValhallaMatchBreak => {
    const afterPoint = runs[k]!.lastPoint;
    const beforePoint = run.firstPoint;
    const a = input.points[afterPoint]!;
    const b = input.points[beforePoint]!;
    const reason = beforePoint - afterPoint > 1 ? 'unmatched'
      : haversineMetres(a.lng, a.lat, b.lng, b.lat) > input.breakageDistance ? 'gap' : 'unroutable';
    return { afterPoint, beforePoint, reason };
  });

  return {
    distanceMeters: Math.round(segments.reduce((s, x) => s + x.metres, 0)),
    durationSeconds: Math.round(segments.reduce((s, x) => s + x.seconds, 0)),
    geometry: oneOrMany(segments.map((s) => s.geometry)),
    segments: segments.map(({ metres: _m, seconds: _s, ...segment }) => segment),
    points,
    breaks,
  };
}

/** The trace matched by Valhalla; throws a ValhallaFailure (no_route when nothing matched). */
export async function valhallaMatch(client: ValhallaClient, input: MatchInput): Promise<ValhallaMatchAnswer> {
  return matchFromAttributes(await client.call('trace_attributes', matchRequest(input)), input);
}

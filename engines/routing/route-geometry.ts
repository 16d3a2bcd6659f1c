/**
 * Route geometry from the graph's shapes: exact stored coordinates (micro-degrees, so six
 * decimals), with the first and last edges cut at the route's start and end fractions.
 * Fractions are of the edge's length along its shape (haversine per shape segment), the same
 * measure snapping uses, so a route starts exactly at the snapped point.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { EDGE_FLAG, fromMicroDegrees } from './graph-format.ts';
import type { RoadGraph } from './road-graph.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { RouteResult } from './search.ts';

/** Haversine lengths of the shape's pieces (shape in micro-degrees, interleaved). */
export function pieceLengths(shape: Int32Array): Float64Array {
  const n = shape.length / 2 - 1;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = haversineMetres(
      fromMicroDegrees(shape[2 * i]!), fromMicroDegrees(shape[2 * i + 1]!),
      fromMicroDegrees(shape[2 * i + 2]!), fromMicroDegrees(shape[2 * i + 3]!),
    );
  }
  return out;
}

interface ShapeCut {
  /** Index of the shape piece holding the point. */
  piece: number;
  /** The point, micro-degrees (rounded). */
  lng: number;
  lat: number;
}

/** Where `fraction` of the edge's length falls on its shape. */
function cutShape(shape: Int32Array, lengths: Float64Array, fraction: number): ShapeCut {
  let total = 0;
  for (const l of lengths) total += l;
  const goal = Math.min(1, Math.max(0, fraction)) * total;
  let along = 0;
  let piece = 0;
  while (piece < lengths.length - 1 && along + lengths[piece]! < goal) along += lengths[piece++]!;
  const l = lengths[piece]!;
  const t = l > 0 ? Math.min(1, Math.max(0, (goal - along) / l)) : 0;
  const i = 2 * piece;
  return {
    piece,
    lng: Math.round(shape[i]! + t * (shape[i + 2]! - shape[i]!)),
    lat: Math.round(shape[i + 1]! + t * (shape[i + 3]! - shape[i + 1]!)),
  };
}

/** The point at `fraction` along a directed edge, in micro-degrees. */
export function pointAtFractionMicro(graph: RoadGraph, edge: number, fraction: number): [number, number] {
  const shape = graph.edgeShapeMicro(edge);
  const cut = cutShape(shape, pieceLengths(shape), fraction);
  return [cut.lng, cut.lat];
}

export function pointAtFraction(graph: RoadGraph, edge: number, fraction: number): LngLat {
  const [lng, lat] = pointAtFractionMicro(graph, edge, fraction);
  return [fromMicroDegrees(lng), fromMicroDegrees(lat)];
}

/** The route's line in micro-degrees, lng,lat interleaved, consecutive duplicates removed; at least two positions. */
export function routeLineMicro(graph: RoadGraph, route: RouteResult): Int32Array {
  const a = graph.arrays;
  const edges = route.edges;
  let size = 4;
  for (let i = 0; i < edges.length; i++) size += 2 * (a.edgeShapeCount[edges[i]!]! + 2);
  const line = { micro: new Int32Array(size), n: 0 };
  const last = edges.length - 1;
  for (let i = 0; i <= last; i++) {
    const edge = edges[i]!;
    if (i === 0 || i === last) {
      putEndEdge(line, graph.edgeShapeMicro(edge), i === 0 ? route.startFraction : null, i === last ? route.endFraction : null);
      continue;
    }
    // An inner edge, straight from the arrays. Its source is where the line is (the previous
    // edge's target) when the path is connected, and then adds no position.
    const before = a.edgeTarget[edges[i - 1]!]!;
    if (a.firstEdge[before]! > edge || edge >= a.firstEdge[before + 1]!) {
      const source = graph.edgeSource(edge);
      put(line, a.nodeLng[source]!, a.nodeLat[source]!);
    }
    const start = a.edgeShapeStart[edge]!, count = a.edgeShapeCount[edge]!;
    const reversed = (a.edgeFlags[edge]! & EDGE_FLAG.reversed) !== 0;
    for (let k = 0; k < count; k++) {
      const j = 2 * (start + (reversed ? count - 1 - k : k));
      put(line, a.shapeCoords[j]!, a.shapeCoords[j + 1]!);
    }
    const target = a.edgeTarget[edge]!;
    put(line, a.nodeLng[target]!, a.nodeLat[target]!);
  }
  const { micro } = line;
  // A route that starts and ends at one point still is a line of two positions.
  if (line.n === 2) {
    micro[2] = micro[0]!;
    micro[3] = micro[1]!;
    line.n = 4;
  }
  return micro.subarray(0, line.n);
}

interface LineBuilder {
  micro: Int32Array;
  /** Numbers written. */
  n: number;
}

/** Appends a position unless it repeats the last one. */
function put(line: LineBuilder, lng: number, lat: number): void {
  const { micro, n } = line;
  if (n >= 2 && micro[n - 2] === lng && micro[n - 1] === lat) return;
  micro[n] = lng;
  micro[n + 1] = lat;
  line.n = n + 2;
}

/** The first or last edge's points, cut at the `head` and `tail` fractions (null: not cut). */
function putEndEdge(line: LineBuilder, shape: Int32Array, head: number | null, tail: number | null): void {
  const lengths = pieceLengths(shape);
  const headCut = head === null ? null : cutShape(shape, lengths, head);
  const tailCut = tail === null ? null : cutShape(shape, lengths, tail);
  if (headCut) put(line, headCut.lng, headCut.lat);
  else put(line, shape[0]!, shape[1]!);
  // Inner shape points strictly after the head's piece start and up to the tail's piece start.
  const toPiece = tailCut ? tailCut.piece : shape.length / 2 - 2;
  for (let p = (headCut?.piece ?? 0) + 1; p <= toPiece; p++) put(line, shape[2 * p]!, shape[2 * p + 1]!);
  if (tailCut) put(line, tailCut.lng, tailCut.lat);
  else put(line, shape[shape.length - 2]!, shape[shape.length - 1]!);
}

/** A micro-degree line (interleaved) in degrees, interleaved. */
export function lineDegrees(micro: Int32Array): Float64Array {
  const out = new Float64Array(micro.length);
  for (let i = 0; i < micro.length; i++) out[i] = fromMicroDegrees(micro[i]!);
  return out;
}

/** The route's line: [lng, lat] degrees at six decimals, consecutive duplicates removed. */
export function routeGeometry(graph: RoadGraph, route: RouteResult): LngLat[] {
  const degrees = lineDegrees(routeLineMicro(graph, route));
  const out: LngLat[] = [];
  for (let i = 0; i < degrees.length; i += 2) out.push([degrees[i]!, degrees[i + 1]!]);
  return out;
}

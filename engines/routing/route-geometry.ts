/**
 * Route geometry from the graph's shapes: exact stored coordinates (micro-degrees, so six
 * decimals), with the first and last edges cut at the route's start and end fractions.
 * Fractions are of the edge's length along its shape (haversine per shape segment), the same
 * measure snapping uses, so a route starts exactly at the snapped point.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { fromMicroDegrees } from './graph-format.ts';
import type { LngLat, RoadGraph } from './road-graph.ts';
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

/** The route's line: [lng, lat] degrees at six decimals, consecutive duplicates removed. */
export function routeGeometry(graph: RoadGraph, route: RouteResult): LngLat[] {
  const micro: number[] = [];
  const put = (lng: number, lat: number) => {
    const n = micro.length;
    if (n >= 2 && micro[n - 2] === lng && micro[n - 1] === lat) return;
    micro.push(lng, lat);
  };
  const last = route.edges.length - 1;
  route.edges.forEach((edge, i) => {
    const shape = graph.edgeShapeMicro(edge);
    const points = shape.length / 2;
    let fromPiece = 0;
    let toPiece = points - 2;
    let head: ShapeCut | null = null;
    let tail: ShapeCut | null = null;
    if (i === 0 || i === last) {
      const lengths = pieceLengths(shape);
      if (i === 0) {
        head = cutShape(shape, lengths, route.startFraction);
        fromPiece = head.piece;
      }
      if (i === last) {
        tail = cutShape(shape, lengths, route.endFraction);
        toPiece = tail.piece;
      }
    }
    if (head) put(head.lng, head.lat);
    else put(shape[0]!, shape[1]!);
    // Inner shape points strictly after the head's piece start and up to the tail's piece start.
    for (let p = fromPiece + 1; p <= toPiece; p++) put(shape[2 * p]!, shape[2 * p + 1]!);
    if (tail) put(tail.lng, tail.lat);
    else put(shape[2 * points - 2]!, shape[2 * points - 1]!);
  });
  const out: LngLat[] = [];
  for (let i = 0; i < micro.length; i += 2) out.push([fromMicroDegrees(micro[i]!), fromMicroDegrees(micro[i + 1]!)]);
  // A route that starts and ends at one point still is a line of two positions.
  if (out.length === 1) out.push([out[0]![0], out[0]![1]]);
  return out;
}

/**
 * Snapping a point to the road graph: a Flatbush index over the pieces of every stored shape
 * (each two-way segment once), queried with a box of the search radius and ranked by the exact
 * distance to the nearest point of each piece. Results name a direction the mode may travel
 * (the reverse pairing gives the other) and the fraction along it, as the search takes them.
 */
import Flatbush from 'flatbush';
import { haversineMetres, METRES_PER_DEGREE } from '../../lib/geo/haversine.ts';
import { nearestFractionToOrigin } from '../../lib/geo/planar.ts';
import { costModel, type CostModel } from './cost-model.ts';
import { NO_EDGE, fromMicroDegrees } from './graph-format.ts';
import type { Mode } from './modes.ts';
import type { RoadGraph } from './road-graph.ts';
import { pieceLengths, pointAtFraction } from './route-geometry.ts';

export interface SnapCandidate {
  /** A directed edge the mode may use; `reverse` the other direction when the mode may use it too. */
  edge: number;
  reverse: number | null;
  /** Along `edge`, 0 at its source node. */
  fraction: number;
  distanceMetres: number;
  /** The snapped point, degrees at six decimals. */
  lng: number;
  lat: number;
}

/** A snap index's memory, in SharedArrayBuffers: what a worker thread rebuilds the index from (SnapIndex.fromParts). */
export interface SnapIndexParts {
  /** Flatbush's data. */
  index: ArrayBufferLike;
  pieceEdge: Uint32Array;
  pieceIndex: Uint32Array;
}

export class SnapIndex {
  private constructor(
    readonly graph: RoadGraph,
    private readonly index: Flatbush,
    private readonly pieceEdge: Uint32Array,
    private readonly pieceIndex: Uint32Array,
  ) {}

  static build(graph: RoadGraph): SnapIndex {
    const a = graph.arrays;
    const canonical = (e: number) => a.edgeReverse[e] === NO_EDGE || e < a.edgeReverse[e]!;
    let pieces = 0;
    for (let e = 0; e < graph.edgeCount; e++) if (canonical(e)) pieces += a.edgeShapeCount[e]! + 1;
    // Shared memory, so the routing worker threads view the index without a copy (parts()).
    const pieceEdge = new Uint32Array(new SharedArrayBuffer(4 * pieces));
    const pieceIndex = new Uint32Array(new SharedArrayBuffer(4 * pieces));
    const index = new Flatbush(Math.max(1, pieces), 16, Float64Array, SharedArrayBuffer);
    let n = 0;
    for (let e = 0; e < graph.edgeCount; e++) {
      if (!canonical(e)) continue;
      const s = graph.edgeShapeMicro(e);
      for (let p = 0; p + 3 < s.length; p += 2) {
        const x0 = fromMicroDegrees(s[p]!);
        const y0 = fromMicroDegrees(s[p + 1]!);
        const x1 = fromMicroDegrees(s[p + 2]!);
        const y1 = fromMicroDegrees(s[p + 3]!);
        index.add(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
        pieceEdge[n] = e;
        pieceIndex[n++] = p / 2;
      }
    }
    if (pieces === 0) index.add(0, 0, 0, 0);
    index.finish();
    return new SnapIndex(graph, index, pieceEdge.subarray(0, n), pieceIndex.subarray(0, n));
  }

  /** The index over the same memory as `parts` (of an index built for this graph's arrays). */
  static fromParts(graph: RoadGraph, parts: SnapIndexParts): SnapIndex {
    return new SnapIndex(graph, Flatbush.from(parts.index), parts.pieceEdge, parts.pieceIndex);
  }

  parts(): SnapIndexParts {
    return { index: this.index.data, pieceEdge: this.pieceEdge, pieceIndex: this.pieceIndex };
  }

  /** The nearest usable point within the radius, or null. */
  snap(lng: number, lat: number, mode: Mode | CostModel, radiusMetres: number): SnapCandidate | null {
    return this.candidates(lng, lat, mode, radiusMetres, 1)[0] ?? null;
  }

  /** Up to `k` nearest usable edges (one candidate per road segment) within the radius, nearest first. */
  candidates(lng: number, lat: number, mode: Mode | CostModel, radiusMetres: number, k: number): SnapCandidate[] {
    const model = typeof mode === 'string' ? costModel(this.graph, mode) : mode;
    const cos = Math.cos((lat * Math.PI) / 180);
    const dLat = radiusMetres / METRES_PER_DEGREE;
    const dLng = radiusMetres / (METRES_PER_DEGREE * Math.max(cos, 1e-6));
    const hits = this.index.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat);
    // Nearest piece per segment, by planar distance in a local projection.
    const best = new Map<number, { piece: number; t: number; d2: number }>();
    for (const hit of hits) {
      if (hit >= this.pieceEdge.length) continue;
      const e = this.pieceEdge[hit]!;
      const back = this.graph.reverseEdge(e);
      if (!model.allowed(e) && (back === null || !model.allowed(back))) continue;
      const { t, d2 } = this.project(e, this.pieceIndex[hit]!, lng, lat, cos);
      const prev = best.get(e);
      if (!prev || d2 < prev.d2) best.set(e, { piece: this.pieceIndex[hit]!, t, d2 });
    }
    const out: SnapCandidate[] = [];
    for (const [e, { piece, t, d2 }] of best) {
      if (Math.sqrt(d2) > radiusMetres * 1.01 + 1) continue;
      out.push(this.candidate(model, e, piece, t, lng, lat));
    }
    return out.filter((c) => c.distanceMetres <= radiusMetres).sort((x, y) => x.distanceMetres - y.distanceMetres).slice(0, k);
  }

  private project(edge: number, piece: number, lng: number, lat: number, cos: number): { t: number; d2: number } {
    const s = this.graph.edgeShapeMicro(edge);
    const x0 = (fromMicroDegrees(s[2 * piece]!) - lng) * cos * METRES_PER_DEGREE;
    const y0 = (fromMicroDegrees(s[2 * piece + 1]!) - lat) * METRES_PER_DEGREE;
    const x1 = (fromMicroDegrees(s[2 * piece + 2]!) - lng) * cos * METRES_PER_DEGREE;
    const y1 = (fromMicroDegrees(s[2 * piece + 3]!) - lat) * METRES_PER_DEGREE;
    const t = nearestFractionToOrigin(x0, y0, x1, y1);
    const px = x0 + t * (x1 - x0);
    const py = y0 + t * (y1 - y0);
    return { t, d2: px * px + py * py };
  }

  private candidate(model: CostModel, canonicalEdge: number, piece: number, t: number, lng: number, lat: number): SnapCandidate {
    const lengths = pieceLengths(this.graph.edgeShapeMicro(canonicalEdge));
    let total = 0;
    let along = 0;
    for (let i = 0; i < lengths.length; i++) {
      if (i < piece) along += lengths[i]!;
      total += lengths[i]!;
    }
    along += t * lengths[piece]!;
    let fraction = total > 0 ? along / total : 0;
    let edge = canonicalEdge;
    let reverse = this.graph.reverseEdge(canonicalEdge);
    if (!model.allowed(edge)) {
      [edge, reverse] = [reverse!, null];
      fraction = 1 - fraction;
    } else if (reverse !== null && !model.allowed(reverse)) {
      reverse = null;
    }
    const [x, y] = pointAtFraction(this.graph, edge, fraction);
    return { edge, reverse, fraction, distanceMetres: haversineMetres(lng, lat, x, y), lng: x, lat: y };
  }
}

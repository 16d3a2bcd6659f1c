/**
 * A loaded road graph: the release arrays (public, for the search loops) and small accessors
 * for everything that is not a hot loop (coordinates in degrees, shapes, names, limits).
 */
import { readGraphFile } from './graph-file.ts';
import {
  EDGE_FLAG, NO_EDGE, decodeTenths, fromMicroDegrees, modeBit,
  type GraphArrays,
} from './graph-format.ts';
import { ROAD_CLASSES, type Mode, type RoadClass } from './modes.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';


export interface EdgeTruckLimits {
  /** Metres and tonnes; null = no limit. */
  maxHeight: number | null;
  maxWidth: number | null;
  maxLength: number | null;
  maxWeight: number | null;
  maxAxleLoad: number | null;
}

const utf8 = new TextDecoder('utf-8');

export class RoadGraph {
  readonly nodeCount: number;
  readonly edgeCount: number;
  private readonly strings = new Map<number, string>();
  /** Bit e set when edge e is the in-edge of some turn restriction (built on first use). */
  private restrictedIn: Uint32Array | null = null;
  /** By mode bits: bit v set when a restriction for those modes has node v as its via (built on first use). */
  private readonly restrictedVia = new Map<number, Uint32Array>();

  constructor(readonly arrays: GraphArrays) {
    this.nodeCount = arrays.nodeLng.length;
    this.edgeCount = arrays.edgeTarget.length;
  }

  /** `shared`: the arrays in SharedArrayBuffers, for the routing worker threads (engines/routing/workers/). */
  static async open(file: string, options: { shared?: boolean } = {}): Promise<RoadGraph> {
    return new RoadGraph(await readGraphFile(file, options));
  }

  nodeLngLat(node: number): LngLat {
    return [fromMicroDegrees(this.arrays.nodeLng[node]!), fromMicroDegrees(this.arrays.nodeLat[node]!)];
  }

  /** The edges leaving `node`: start ≤ edge < end. */
  edgesOf(node: number): { start: number; end: number } {
    return { start: this.arrays.firstEdge[node]!, end: this.arrays.firstEdge[node + 1]! };
  }

  /** The node an edge leaves (binary search over firstEdge). */
  edgeSource(edge: number): number {
    const first = this.arrays.firstEdge;
    let lo = 0;
    let hi = this.nodeCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (first[mid]! <= edge) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  edgeTarget(edge: number): number {
    return this.arrays.edgeTarget[edge]!;
  }

  /** The opposite directed edge of the same way segment, or null. */
  reverseEdge(edge: number): number | null {
    const r = this.arrays.edgeReverse[edge]!;
    return r === NO_EDGE ? null : r;
  }

  allows(edge: number, mode: Mode): boolean {
    return (this.arrays.edgeAccess[edge]! & modeBit(mode)) !== 0;
  }

  hasFlag(edge: number, flag: keyof typeof EDGE_FLAG): boolean {
    return (this.arrays.edgeFlags[edge]! & EDGE_FLAG[flag]) !== 0;
  }

  roadClass(edge: number): RoadClass {
    return ROAD_CLASSES[this.arrays.edgeClass[edge]!]!;
  }

  /** The edge's intermediate points in its own direction (micro-degrees, interleaved lng,lat). */
  private forEachShapePoint(edge: number, visit: (lng: number, lat: number) => void): void {
    const a = this.arrays;
    const start = a.edgeShapeStart[edge]!;
    const count = a.edgeShapeCount[edge]!;
    const reversed = (a.edgeFlags[edge]! & EDGE_FLAG.reversed) !== 0;
    for (let k = 0; k < count; k++) {
      const i = 2 * (start + (reversed ? count - 1 - k : k));
      visit(a.shapeCoords[i]!, a.shapeCoords[i + 1]!);
    }
  }

  /** The edge's full geometry in degrees, from its source node to its target node. */
  edgeShape(edge: number): LngLat[] {
    const out: LngLat[] = [this.nodeLngLat(this.edgeSource(edge))];
    this.forEachShapePoint(edge, (lng, lat) => out.push([fromMicroDegrees(lng), fromMicroDegrees(lat)]));
    out.push(this.nodeLngLat(this.edgeTarget(edge)));
    return out;
  }

  /** The edge's full geometry in micro-degrees (exact integers), interleaved lng,lat. */
  edgeShapeMicro(edge: number): Int32Array {
    const a = this.arrays;
    const count = a.edgeShapeCount[edge]!;
    const out = new Int32Array(2 * (count + 2));
    const source = this.edgeSource(edge);
    out[0] = a.nodeLng[source]!;
    out[1] = a.nodeLat[source]!;
    let i = 2;
    this.forEachShapePoint(edge, (lng, lat) => {
      out[i++] = lng;
      out[i++] = lat;
    });
    const target = a.edgeTarget[edge]!;
    out[i++] = a.nodeLng[target]!;
    out[i] = a.nodeLat[target]!;
    return out;
  }

  /**
   * Whether a turn restriction forbids leaving by `outEdge` after arriving by `inEdge` to the
   * modes of `modeBits` (modeBit). Binary search over the sorted (in, out) table; allocation-free.
   * Searches ask this for every move and few edges are restricted, so a bitset of the in-edges
   * answers most calls without the search.
   */
  turnForbidden(inEdge: number, outEdge: number, modeBits: number): boolean {
    const restricted = this.restrictedIn ?? this.restrictedInEdges();
    if ((restricted[inEdge >>> 5]! & (1 << (inEdge & 31))) === 0) return false;
    const { turnInEdge, turnOutEdge, turnModes } = this.arrays;
    let lo = 0;
    let hi = turnInEdge.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const i = turnInEdge[mid]!;
      if (i < inEdge || (i === inEdge && turnOutEdge[mid]! < outEdge)) lo = mid + 1;
      else hi = mid;
    }
    return lo < turnInEdge.length && turnInEdge[lo] === inEdge && turnOutEdge[lo] === outEdge && (turnModes[lo]! & modeBits) !== 0;
  }

  private restrictedInEdges(): Uint32Array {
    const bits = new Uint32Array((this.edgeCount + 31) >>> 5);
    for (const e of this.arrays.turnInEdge) bits[e >>> 5] = bits[e >>> 5]! | (1 << (e & 31));
    this.restrictedIn = bits;
    return bits;
  }

  /** The nodes where a turn restriction binds the modes of `modeBits`, as a bitset: elsewhere turnForbidden is always false for them. */
  restrictedNodes(modeBits: number): Uint32Array {
    let bits = this.restrictedVia.get(modeBits);
    if (!bits) {
      const { turnInEdge, turnModes, edgeTarget } = this.arrays;
      bits = new Uint32Array((this.nodeCount + 31) >>> 5);
      for (let i = 0; i < turnInEdge.length; i++) {
        if ((turnModes[i]! & modeBits) === 0) continue;
        const v = edgeTarget[turnInEdge[i]!]!;
        bits[v >>> 5] = bits[v >>> 5]! | (1 << (v & 31));
      }
      this.restrictedVia.set(modeBits, bits);
    }
    return bits;
  }

  /** String `index` of the table ('' for 0). */
  string(index: number): string {
    let s = this.strings.get(index);
    if (s === undefined) {
      const a = this.arrays;
      s = utf8.decode(a.stringBytes.subarray(a.stringOffsets[index]!, a.stringOffsets[index + 1]!));
      this.strings.set(index, s);
    }
    return s;
  }

  edgeName(edge: number): string | null {
    const i = this.arrays.edgeName[edge]!;
    return i === 0 ? null : this.string(i);
  }

  edgeRef(edge: number): string | null {
    const i = this.arrays.edgeRef[edge]!;
    return i === 0 ? null : this.string(i);
  }

  edgeTruckLimits(edge: number): EdgeTruckLimits {
    const a = this.arrays;
    return {
      maxHeight: decodeTenths(a.edgeMaxHeight[edge]!),
      maxWidth: decodeTenths(a.edgeMaxWidth[edge]!),
      maxLength: decodeTenths(a.edgeMaxLength[edge]!),
      maxWeight: decodeTenths(a.edgeMaxWeight[edge]!),
      maxAxleLoad: decodeTenths(a.edgeMaxAxleLoad[edge]!),
    };
  }
}

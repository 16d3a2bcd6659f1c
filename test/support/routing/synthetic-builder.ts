/**
 * Collects the synthetic graph as the real build does before its CSR layout: nodes (micro-degrees),
 * undirected segments (two endpoints, a profile, a name and ref, intermediate shape points and the
 * haversine length along them), the string table and turn rules still in geometric terms.
 * Typed arrays that double as they fill; nothing per node or segment but array slots.
 */
import { haversineMetres } from '../../../lib/geo/haversine.ts';
import { MICRO_DEGREES } from '../../../engines/routing/graph-format.ts';
import { ProfileTable } from './synthetic-profiles.ts';

type Typed = Int32Array | Uint32Array | Float64Array;

function grown<T extends Typed>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

/** At node `via`, arriving from the neighbour lying at angle `fromAngle` and leaving toward `toAngle` is forbidden. */
export interface TurnRules {
  count: number;
  via: Uint32Array;
  /** Radians, counter-clockwise from east, of the direction from the via node to the neighbour. */
  fromAngle: Float64Array;
  toAngle: Float64Array;
  modes: Uint32Array;
}

export class GraphBuilder {
  nodeCount = 0;
  lng: Int32Array;
  lat: Int32Array;

  segmentCount = 0;
  segU: Uint32Array;
  segV: Uint32Array;
  segProfile: Uint32Array;
  segName: Uint32Array;
  segRef: Uint32Array;
  segShapeStart: Uint32Array;
  segShapeCount: Uint32Array;
  segLength: Float64Array;
  /** Crossing seconds of the ferry segments, by segment. */
  readonly ferrySeconds = new Map<number, number>();

  /** Shape points, interleaved lng,lat micro-degrees; shapeCount points so far. */
  shape = new Int32Array(1 << 16);
  shapeCount = 0;
  private pendingShape = 0;

  readonly profiles = new ProfileTable();
  readonly strings: string[] = [''];
  private readonly stringIds = new Map<string, number>([['', 0]]);

  readonly turns: TurnRules = {
    count: 0, via: new Uint32Array(64), fromAngle: new Float64Array(64), toAngle: new Float64Array(64), modes: new Uint32Array(64),
  };

  constructor(expectedNodes: number) {
    const n = Math.max(1024, Math.ceil(expectedNodes * 1.05));
    const m = Math.ceil(n * 1.35);
    this.lng = new Int32Array(n);
    this.lat = new Int32Array(n);
    this.segU = new Uint32Array(m);
    this.segV = new Uint32Array(m);
    this.segProfile = new Uint32Array(m);
    this.segName = new Uint32Array(m);
    this.segRef = new Uint32Array(m);
    this.segShapeStart = new Uint32Array(m);
    this.segShapeCount = new Uint32Array(m);
    this.segLength = new Float64Array(m);
  }

  addNode(lngDeg: number, latDeg: number): number {
    if (this.nodeCount === this.lng.length) {
      this.lng = grown(this.lng, this.nodeCount + 1);
      this.lat = grown(this.lat, this.nodeCount + 1);
    }
    this.lng[this.nodeCount] = Math.round(lngDeg * MICRO_DEGREES);
    this.lat[this.nodeCount] = Math.round(latDeg * MICRO_DEGREES);
    return this.nodeCount++;
  }

  lngOf(node: number): number {
    return this.lng[node]! / MICRO_DEGREES;
  }

  latOf(node: number): number {
    return this.lat[node]! / MICRO_DEGREES;
  }

  /** An intermediate point of the next segment added. */
  addShapePoint(lngDeg: number, latDeg: number): void {
    this.shape = grown(this.shape, 2 * (this.shapeCount + 1));
    this.shape[2 * this.shapeCount] = Math.round(lngDeg * MICRO_DEGREES);
    this.shape[2 * this.shapeCount + 1] = Math.round(latDeg * MICRO_DEGREES);
    this.shapeCount++;
    this.pendingShape++;
  }

  /** A segment u → v through the shape points added since the last segment; returns its index. */
  addSegment(u: number, v: number, profile: number, name = 0, ref = 0): number {
    const s = this.segmentCount;
    if (s === this.segU.length) this.growSegments();
    const count = this.pendingShape;
    const start = this.shapeCount - count;
    let length = 0;
    let lng = this.lng[u]!;
    let lat = this.lat[u]!;
    for (let k = 0; k <= count; k++) {
      const nextLng = k < count ? this.shape[2 * (start + k)]! : this.lng[v]!;
      const nextLat = k < count ? this.shape[2 * (start + k) + 1]! : this.lat[v]!;
      length += haversineMetres(lng / MICRO_DEGREES, lat / MICRO_DEGREES, nextLng / MICRO_DEGREES, nextLat / MICRO_DEGREES);
      lng = nextLng;
      lat = nextLat;
    }
    this.segU[s] = u;
    this.segV[s] = v;
    this.segProfile[s] = profile;
    this.segName[s] = name;
    this.segRef[s] = ref;
    this.segShapeStart[s] = start;
    this.segShapeCount[s] = count;
    this.segLength[s] = length;
    this.pendingShape = 0;
    this.segmentCount++;
    return s;
  }

  private growSegments(): void {
    const need = this.segmentCount + 1;
    this.segU = grown(this.segU, need);
    this.segV = grown(this.segV, need);
    this.segProfile = grown(this.segProfile, need);
    this.segName = grown(this.segName, need);
    this.segRef = grown(this.segRef, need);
    this.segShapeStart = grown(this.segShapeStart, need);
    this.segShapeCount = grown(this.segShapeCount, need);
    this.segLength = grown(this.segLength, need);
  }

  /** Index of a string in the table (0 for ''). */
  string(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
    }
    return id;
  }

  addTurnRule(via: number, fromAngle: number, toAngle: number, modes: number): void {
    const t = this.turns;
    if (t.count === t.via.length) {
      t.via = grown(t.via, t.count + 1);
      t.fromAngle = grown(t.fromAngle, t.count + 1);
      t.toAngle = grown(t.toAngle, t.count + 1);
      t.modes = grown(t.modes, t.count + 1);
    }
    t.via[t.count] = via;
    t.fromAngle[t.count] = fromAngle;
    t.toAngle[t.count] = toAngle;
    t.modes[t.count] = modes;
    t.count++;
  }
}

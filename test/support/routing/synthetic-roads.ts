/**
 * Roads outside the city grids: a bent path between two points (a sum of sine bends that vanish
 * at both ends, plus a little noise), cut into graph segments at junctions with shape points
 * between; and a spatial index of the nodes new roads may join.
 */
import { METRES_PER_DEGREE, haversineMetres } from '../../../lib/geo/haversine.ts';
import type { Random } from '../../../lib/seeded-random.ts';
import type { GraphBuilder } from './synthetic-builder.ts';
import { metresPerDegreeLng } from './synthetic-cities.ts';

/** Interleaved lng,lat degrees from (lng0, lat0) to (lng1, lat1), both included, about `step` metres apart. */
export function roadPath(random: Random, lng0: number, lat0: number, lng1: number, lat1: number, step: number, wiggle: number): Float64Array {
  const length = haversineMetres(lng0, lat0, lng1, lat1);
  const points = Math.max(1, Math.ceil(length / step));
  const mLng = metresPerDegreeLng((lat0 + lat1) / 2);
  const east = (lng1 - lng0) * mLng;
  const north = (lat1 - lat0) * METRES_PER_DEGREE;
  const norm = Math.max(1, Math.hypot(east, north));
  // Unit vector to the left of the travel direction, in metres.
  const px = -north / norm;
  const py = east / norm;
  const bends = [1, 2, 3, 4].map((n) => (length * wiggle * (2 * random() - 1)) / n);
  const out = new Float64Array(2 * (points + 1));
  for (let k = 0; k <= points; k++) {
    const t = k / points;
    let offset = 0;
    if (k > 0 && k < points) {
      for (let n = 0; n < bends.length; n++) offset += bends[n]! * Math.sin((n + 1) * Math.PI * t);
      offset += (random() - 0.5) * step * 0.3;
    }
    out[2 * k] = lng0 + (lng1 - lng0) * t + (px * offset) / mLng;
    out[2 * k + 1] = lat0 + (lat1 - lat0) * t + (py * offset) / METRES_PER_DEGREE;
  }
  return out;
}

export interface RoadSpec {
  step: number;
  wiggle: number;
  /** A graph node every this many path points, drawn in [min, max]. */
  junctionEvery: readonly [number, number];
  /** Profile of the k-th segment from the start. */
  profile: (k: number) => number;
  name?: number;
  ref?: number;
  /** Called for each new junction node, with its distance in metres from the start along the path. */
  onJunction?: (node: number, metres: number) => void;
}

/** A road from node `from` to node `to`; returns the number of segments. */
export function buildRoad(b: GraphBuilder, random: Random, from: number, to: number, spec: RoadSpec): number {
  const path = roadPath(random, b.lngOf(from), b.latOf(from), b.lngOf(to), b.latOf(to), spec.step, spec.wiggle);
  const points = path.length / 2 - 1;
  const [min, max] = spec.junctionEvery;
  const draw = () => min + random.int(max - min + 1);
  let current = from;
  let countdown = draw();
  let segments = 0;
  for (let k = 1; k < points; k++) {
    if (--countdown > 0) {
      b.addShapePoint(path[2 * k]!, path[2 * k + 1]!);
      continue;
    }
    const node = b.addNode(path[2 * k]!, path[2 * k + 1]!);
    b.addSegment(current, node, spec.profile(segments++), spec.name, spec.ref);
    spec.onJunction?.(node, (k / points) * haversineMetres(b.lngOf(from), b.latOf(from), b.lngOf(to), b.latOf(to)));
    current = node;
    countdown = draw();
  }
  b.addSegment(current, to, spec.profile(segments++), spec.name, spec.ref);
  return segments;
}

const CELL = 0.1;
const cellKey = (cx: number, cy: number): number => (cx + 4000) * 10_000 + (cy + 1000);

/** Nodes new roads may join (rural junctions, city edges), bucketed by 0.1° cells. */
export class AttachIndex {
  private readonly cells = new Map<number, number[]>();
  readonly nodes: number[] = [];

  constructor(private readonly b: GraphBuilder) {}

  add(node: number): void {
    const key = cellKey(Math.floor(this.b.lngOf(node) / CELL), Math.floor(this.b.latOf(node) / CELL));
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = []));
    cell.push(node);
    this.nodes.push(node);
  }

  /** The nearest indexed node within `maxMetres` that `accept` takes, or -1. */
  nearest(lng: number, lat: number, maxMetres: number, accept: (node: number) => boolean = () => true): number {
    const cx = Math.floor(lng / CELL);
    const cy = Math.floor(lat / CELL);
    const rx = Math.ceil(maxMetres / (metresPerDegreeLng(Math.min(80, Math.abs(lat) + CELL)) * CELL));
    const ry = Math.ceil(maxMetres / (METRES_PER_DEGREE * CELL));
    let best = -1;
    let bestMetres = maxMetres;
    for (let dx = -rx; dx <= rx; dx++) {
      for (let dy = -ry; dy <= ry; dy++) {
        for (const node of this.cells.get(cellKey(cx + dx, cy + dy)) ?? []) {
          const d = haversineMetres(lng, lat, this.b.lngOf(node), this.b.latOf(node));
          if (d < bestMetres && accept(node)) {
            bestMetres = d;
            best = node;
          }
        }
      }
    }
    return best;
  }
}

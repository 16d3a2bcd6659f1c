/**
 * One-to-one CH query: a bidirectional upward Dijkstra with stall-on-demand between endpoint
 * seeds. An origin position on directed edge e at fraction f seeds the forward search at the
 * hierarchy node at e's end (region.ts headOf) with (1−f)·w(e); a destination position on edge d
 * at fraction g seeds the backward search at each node a path onto d may leave from (forEachTail:
 * d's source, or in the region each arrival that may turn onto d) with g·w(d); an origin and a
 * destination on the same edge with g ≥ f also give the direct (g−f)·w(e). Positions on edges
 * outside the motor metric are ignored.
 *
 * `bound` is the distance in the hierarchy's lower-bound metric (metric.ts); the caller recomputes
 * cost, seconds and metres of `edges` with its own cost model.
 */
import type { Endpoint } from '../endpoints.ts';
import type { RoadGraph } from '../road-graph.ts';
import type { ContractionHierarchy } from './hierarchy.ts';
import { unpackBackward, unpackForward } from './unpack.ts';
import { searchPairOf, type UpwardSearch } from './upward-search.ts';

export interface ChRoute {
  /** The CH (lower-bound metric) distance. */
  bound: number;
  /** Original directed edges in travel order: first the origin edge, last the destination edge. */
  edges: Uint32Array;
  startFraction: number;
  endFraction: number;
}

/** The best direct trip along one edge: [cost, origin index, destination index] or null. */
export function directTrip(ch: ContractionHierarchy, origin: Endpoint, destination: Endpoint): [number, number, number] | null {
  const w = ch.arrays.edgeWeight;
  let best: [number, number, number] | null = null;
  for (let i = 0; i < origin.length; i++) {
    const p = origin[i]!;
    for (let j = 0; j < destination.length; j++) {
      const q = destination[j]!;
      if (q.edge !== p.edge || q.fraction < p.fraction || w[p.edge] === Infinity) continue;
      const c = (q.fraction - p.fraction) * w[p.edge]!;
      if (best === null || c < best[0]) best = [c, i, j];
    }
  }
  return best;
}

export function seedForward(ch: ContractionHierarchy, graph: RoadGraph, fwd: UpwardSearch, origin: Endpoint): void {
  const w = ch.arrays.edgeWeight;
  fwd.begin();
  for (let i = 0; i < origin.length; i++) {
    const p = origin[i]!;
    if (w[p.edge]! < Infinity) fwd.seed(ch.nodes.headOf(graph, p.edge), (1 - p.fraction) * w[p.edge]!, i);
  }
}

export function seedBackward(ch: ContractionHierarchy, graph: RoadGraph, bwd: UpwardSearch, destination: Endpoint): void {
  const w = ch.arrays.edgeWeight;
  bwd.begin();
  for (let j = 0; j < destination.length; j++) {
    const q = destination[j]!;
    if (w[q.edge]! < Infinity) ch.nodes.forEachTail(graph, q.edge, (node) => bwd.seed(node, q.fraction * w[q.edge]!, j));
  }
}

/** The route of `middle` (unpacked arcs) between the origin and destination positions. */
export function routeOf(bound: number, origin: Endpoint, i: number, middle: readonly number[], destination: Endpoint, j: number): ChRoute {
  const edges = new Uint32Array(middle.length + 2);
  edges[0] = origin[i]!.edge;
  edges.set(middle, 1);
  edges[middle.length + 1] = destination[j]!.edge;
  return { bound, edges, startFraction: origin[i]!.fraction, endFraction: destination[j]!.fraction };
}

/** The route along one edge, from the origin position straight to the destination position. */
export function directRouteOf(bound: number, origin: Endpoint, i: number, destination: Endpoint, j: number): ChRoute {
  return { bound, edges: Uint32Array.of(origin[i]!.edge), startFraction: origin[i]!.fraction, endFraction: destination[j]!.fraction };
}

const stack: number[] = [];

export function chRoute(ch: ContractionHierarchy, graph: RoadGraph, origin: Endpoint, destination: Endpoint): ChRoute | null {
  ch.assertFits(graph);
  const { fwd, bwd } = searchPairOf(ch, 'query');
  seedForward(ch, graph, fwd, origin);
  seedBackward(ch, graph, bwd, destination);
  const direct = directTrip(ch, origin, destination);
  let best = direct ? direct[0] : Infinity;
  let meet = -1;
  for (;;) {
    const tf = fwd.topKey();
    const tb = bwd.topKey();
    if ((tf < tb ? tf : tb) >= best) break;
    const side = tf <= tb ? fwd : bwd;
    const other = tf <= tb ? bwd : fwd;
    const v = side.step(true);
    if (v < 0 || side.settledStalled || !other.has(v)) continue;
    const c = side.dist[v]! + other.dist[v]!;
    if (c < best) {
      best = c;
      meet = v;
    }
  }
  if (best === Infinity) return null;
  if (meet < 0) {
    const [, i, j] = direct!;
    return directRouteOf(best, origin, i, destination, j);
  }
  const middle: number[] = [];
  const i = unpackForward(ch, fwd, meet, middle, stack);
  const j = unpackBackward(ch, bwd, meet, middle, stack);
  return routeOf(best, origin, i, middle, destination, j);
}

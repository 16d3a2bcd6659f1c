/**
 * Node-to-node queries of the engine benchmark: endpoints at graph nodes (every usable edge
 * leaving the origin from its start, every usable edge entering the destination to its end —
 * what a snapped point on a node gives the search, without the snapping), and seeded random
 * pairs that the hierarchy connects.
 */
import { chRoute } from '../../engines/routing/contraction/query.ts';
import type { Endpoint, EdgePosition } from '../../engines/routing/endpoints.ts';
import type { IncomingEdges } from '../../engines/routing/incoming-edges.ts';
import type { RoadGraph } from '../../engines/routing/road-graph.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import type { BenchNetwork } from './bench-network.ts';

export type Usable = (edge: number) => boolean;

export function leaving(graph: RoadGraph, node: number, usable: Usable): Endpoint {
  const out: EdgePosition[] = [];
  const { start, end } = graph.edgesOf(node);
  for (let e = start; e < end; e++) if (usable(e)) out.push({ edge: e, fraction: 0 });
  return out;
}

export function arriving(incoming: IncomingEdges, node: number, usable: Usable): Endpoint {
  const out: EdgePosition[] = [];
  for (let i = incoming.first[node]!; i < incoming.first[node + 1]!; i++) {
    const e = incoming.edges[i]!;
    if (usable(e)) out.push({ edge: e, fraction: 1 });
  }
  return out;
}

export interface NodePair {
  origin: number;
  destination: number;
  /** The hierarchy's node-to-node distance (lower-bound metric seconds). */
  bound: number;
}

/**
 * `count` pairs of distinct nodes drawn uniformly (seeded) among those outside the turn-restriction
 * region that every `usable` rule can leave and enter, connected in the hierarchy's metric;
 * `redraws` counts unconnected draws.
 */
export function reachablePairs(
  net: BenchNetwork, incoming: IncomingEdges, rules: readonly Usable[], count: number, seed: number,
): { pairs: NodePair[]; redraws: number } {
  const random = seededRandom(seed);
  const metric = net.hierarchy.arrays.edgeWeight;
  const inMetric: Usable = (e) => metric[e]! < Infinity;
  const all = [inMetric, ...rules];
  // Outside the turn-restriction region a road node is one node of the hierarchy's graph, which is what pgRouting is given.
  const fits = (v: number) => !net.hierarchy.nodes.inRegion(v) && all.every((rule) => leaving(net.graph, v, rule).length > 0 && arriving(incoming, v, rule).length > 0);
  const draw = () => {
    for (;;) {
      const v = random.int(net.graph.nodeCount);
      if (fits(v)) return v;
    }
  };
  const pairs: NodePair[] = [];
  let redraws = 0;
  while (pairs.length < count) {
    const origin = draw();
    const destination = draw();
    if (origin === destination) continue;
    const route = chRoute(net.hierarchy, net.graph, leaving(net.graph, origin, inMetric), arriving(incoming, destination, inMetric));
    if (route === null) redraws++;
    else pairs.push({ origin, destination, bound: route.bound });
  }
  return { pairs, redraws };
}

/**
 * Oracles for the contraction hierarchy tests, written apart from engines/routing/contraction:
 * the lower-bound motor metric in Float64 straight from the cost models, and a plain node-based
 * Dijkstra over it (array binary heap of [distance, node] pairs), forwards or backwards.
 */
import { costModel } from '../../engines/routing/cost-model.ts';
import type { Endpoint } from '../../engines/routing/endpoints.ts';
import type { RoadGraph } from '../../engines/routing/road-graph.ts';
import { PairHeap } from './pair-heap.ts';

/** Per edge: the least seconds of auto and truck among the modes that may use it (no truck dimension limits), else Infinity. */
export function referenceMotorWeights(graph: RoadGraph): Float64Array {
  const a = graph.arrays;
  const auto = costModel(graph, 'auto');
  const truck = costModel(graph, 'truck');
  const out = new Float64Array(graph.edgeCount).fill(Infinity);
  for (let e = 0; e < graph.edgeCount; e++) {
    const ferry = graph.hasFlag(e, 'ferry');
    if (graph.allows(e, 'auto') && (ferry || a.edgeSpeedAuto[e]! > 0)) out[e] = Math.min(out[e]!, auto.seconds(e));
    if (graph.allows(e, 'truck') && (ferry || a.edgeSpeedTruck[e]! > 0)) out[e] = Math.min(out[e]!, truck.seconds(e));
    if (!Number.isFinite(out[e]!)) out[e] = Infinity;
  }
  return out;
}

/** Edge ids into each node (the graph stores only outgoing CSR). */
export function incomingEdges(graph: RoadGraph): { first: Uint32Array; edges: Uint32Array } {
  const first = new Uint32Array(graph.nodeCount + 1);
  const targets = graph.arrays.edgeTarget;
  for (let e = 0; e < graph.edgeCount; e++) first[targets[e]! + 1] = first[targets[e]! + 1]! + 1;
  for (let v = 0; v < graph.nodeCount; v++) first[v + 1] = first[v + 1]! + first[v]!;
  const fill = first.slice(0, graph.nodeCount);
  const edges = new Uint32Array(graph.edgeCount);
  for (let e = 0; e < graph.edgeCount; e++) {
    const v = targets[e]!;
    edges[fill[v]!] = e;
    fill[v] = fill[v]! + 1;
  }
  return { first, edges };
}

/**
 * Node distances from seeds: forwards over edges (source → target), or with `incoming` backwards
 * (distance from each node to the seeds).
 */
export function referenceDistances(
  graph: RoadGraph, weights: Float64Array, seeds: [node: number, distance: number][],
  incoming?: { first: Uint32Array; edges: Uint32Array },
): Float64Array {
  const dist = new Float64Array(graph.nodeCount).fill(Infinity);
  const heap = new PairHeap();
  for (const [v, d] of seeds) {
    if (d < dist[v]!) {
      dist[v] = d;
      heap.push(d, v);
    }
  }
  const settled = new Uint8Array(graph.nodeCount);
  while (heap.size > 0) {
    const [d, v] = heap.pop();
    if (settled[v]) continue;
    settled[v] = 1;
    const relax = (e: number, x: number) => {
      const nd = d + weights[e]!;
      if (nd < dist[x]!) {
        dist[x] = nd;
        heap.push(nd, x);
      }
    };
    if (incoming) {
      for (let i = incoming.first[v]!; i < incoming.first[v + 1]!; i++) relax(incoming.edges[i]!, graph.edgeSource(incoming.edges[i]!));
    } else {
      const { start, end } = graph.edgesOf(v);
      for (let e = start; e < end; e++) relax(e, graph.edgeTarget(e));
    }
  }
  return dist;
}

/** The exact lower-bound distance between two endpoints, seeded as the CH query is. */
export function referenceRoute(graph: RoadGraph, weights: Float64Array, origin: Endpoint, destination: Endpoint): number {
  const seeds: [number, number][] = [];
  for (const p of origin) if (weights[p.edge]! < Infinity) seeds.push([graph.edgeTarget(p.edge), (1 - p.fraction) * weights[p.edge]!]);
  const dist = referenceDistances(graph, weights, seeds);
  let best = Infinity;
  for (const q of destination) {
    const w = weights[q.edge]!;
    if (w === Infinity) continue;
    best = Math.min(best, dist[graph.edgeSource(q.edge)]! + q.fraction * w);
    for (const p of origin) if (p.edge === q.edge && q.fraction >= p.fraction) best = Math.min(best, (q.fraction - p.fraction) * w);
  }
  return best;
}

/** Both directions of an edge's segment at a point, as far as the metric has them (like endpointOnEdge). */
export function motorEndpoint(graph: RoadGraph, weights: Float64Array, edge: number, fraction: number): Endpoint {
  const out = [];
  if (weights[edge]! < Infinity) out.push({ edge, fraction });
  const reverse = graph.reverseEdge(edge);
  if (reverse !== null && weights[reverse]! < Infinity) out.push({ edge: reverse, fraction: 1 - fraction });
  return out;
}

/**
 * The graph the build contracts (region.ts): per hierarchy node, one arc per edge it may leave by
 * — from a node-based road node every edge of the metric out of it, from an arrival node the
 * turns motor-turns.ts allows — to the hierarchy node at the edge's end, weighing the edge.
 */
import type { RoadGraph } from '../road-graph.ts';
import { motorTurnAllowed } from './motor-turns.ts';
import type { HierarchyNodes } from './region.ts';

export interface HierarchyInput {
  /** CSR by hierarchy node. */
  first: Uint32Array;
  head: Uint32Array;
  weight: Float64Array;
  /** The road edge each arc travels. */
  edge: Uint32Array;
}

export function hierarchyInput(graph: RoadGraph, weight: Float64Array, nodes: HierarchyNodes): HierarchyInput {
  const a = graph.arrays;
  const first = new Uint32Array(nodes.count + 1);
  const head: number[] = [];
  const edge: number[] = [];
  const leave = (from: number, arrival: number) => {
    for (let e = a.firstEdge[from]!; e < a.firstEdge[from + 1]!; e++) {
      if (weight[e] === Infinity || (arrival >= 0 && !motorTurnAllowed(graph, arrival, e))) continue;
      head.push(nodes.headOf(graph, e));
      edge.push(e);
    }
  };
  for (let x = 0; x < nodes.count; x++) {
    first[x] = head.length;
    if (x >= nodes.roadNodes) {
      const arrival = nodes.arrivalEdge(x);
      leave(a.edgeTarget[arrival]!, arrival);
    } else if (!nodes.inRegion(x)) leave(x, -1);
  }
  first[nodes.count] = head.length;
  const edges = Uint32Array.from(edge);
  return { first, head: Uint32Array.from(head), weight: Float64Array.from(edges, (e) => weight[e]!), edge: edges };
}

/**
 * The graph the build contracts (region.ts): per hierarchy node, one arc per edge it may leave by
 * — from a node-based road node every edge of the metric out of it, from an arrival node the
 * turns motor-turns.ts allows — to the hierarchy node at the edge's end, weighing the edge.
 * Two passes over the graph (count, then fill) so the arcs go straight into typed arrays of their
 * final size: at national sizes a growing list of numbers would cost twice the arrays.
 */
import type { RoadGraph } from '../road-graph.ts';
import { motorTurnAllowed } from './motor-turns.ts';
import type { HierarchyNodes } from './region.ts';

export interface HierarchyInput {
  /** CSR by hierarchy node. */
  first: Uint32Array;
  head: Uint32Array;
  /** The road edge each arc travels (its weight is the metric's weight of that edge). */
  edge: Uint32Array;
}

export function hierarchyInput(graph: RoadGraph, weight: Float64Array, nodes: HierarchyNodes): HierarchyInput {
  const a = graph.arrays;
  /** Calls visit(e) for each edge hierarchy node x may leave by. */
  const forEachExit = (x: number, visit: (e: number) => void) => {
    let from = x;
    let arrival = -1;
    if (x >= nodes.roadNodes) {
      arrival = nodes.arrivalEdge(x);
      from = a.edgeTarget[arrival]!;
    } else if (nodes.inRegion(x)) return;
    for (let e = a.firstEdge[from]!; e < a.firstEdge[from + 1]!; e++) {
      if (weight[e] === Infinity || (arrival >= 0 && !motorTurnAllowed(graph, arrival, e))) continue;
      visit(e);
    }
  };
  const first = new Uint32Array(nodes.count + 1);
  let arcs = 0;
  const count = () => {
    arcs++;
  };
  for (let x = 0; x < nodes.count; x++) {
    first[x] = arcs;
    forEachExit(x, count);
  }
  first[nodes.count] = arcs;
  const head = new Uint32Array(arcs);
  const edge = new Uint32Array(arcs);
  let i = 0;
  const fill = (e: number) => {
    head[i] = nodes.headOf(graph, e);
    edge[i++] = e;
  };
  for (let x = 0; x < nodes.count; x++) forEachExit(x, fill);
  return { first, head, edge };
}

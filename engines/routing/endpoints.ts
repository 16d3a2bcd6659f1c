/**
 * Where a search starts and ends: positions on directed edges (edge + fraction of the way along
 * it, in its own direction). An endpoint is a list of alternatives — the two directions of the
 * snapped segment, or the edges at a graph node — and the search picks the cheapest.
 */
import type { CostModel } from './cost-model.ts';
import type { RoadGraph } from './road-graph.ts';

export interface EdgePosition {
  edge: number;
  /** 0 = the edge's source node, 1 = its target node. */
  fraction: number;
}

export type Endpoint = readonly EdgePosition[];

/** A point on `edge` at `fraction`, in whichever directions the mode may travel it. */
export function endpointOnEdge(model: CostModel, edge: number, fraction: number): Endpoint {
  const out: EdgePosition[] = [];
  if (model.allowed(edge)) out.push({ edge, fraction });
  const reverse = model.graph.reverseEdge(edge);
  if (reverse !== null && model.allowed(reverse)) out.push({ edge: reverse, fraction: 1 - fraction });
  return out;
}

/** Leaving a graph node: each edge out of it the mode may use, from its start. */
export function originAtNode(model: CostModel, node: number): Endpoint {
  const { start, end } = model.graph.edgesOf(node);
  const out: EdgePosition[] = [];
  for (let e = start; e < end; e++) if (model.allowed(e)) out.push({ edge: e, fraction: 0 });
  return out;
}

/**
 * Arriving at a graph node: each edge into it the mode may use, to its end. Scans every edge
 * (the graph keeps no incoming lists); meant for tests and tools, not for request paths.
 */
export function destinationAtNode(model: CostModel, node: number): Endpoint {
  const graph: RoadGraph = model.graph;
  const targets = graph.arrays.edgeTarget;
  const out: EdgePosition[] = [];
  for (let e = 0; e < graph.edgeCount; e++) if (targets[e] === node && model.allowed(e)) out.push({ edge: e, fraction: 1 });
  return out;
}

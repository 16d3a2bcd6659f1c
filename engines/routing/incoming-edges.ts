import type { RoadGraph } from './road-graph.ts';

/** Incoming edges per node (CSR; the graph stores only outgoing ones): edges[first[v] .. first[v + 1]] end at v. */
export class IncomingEdges {
  readonly first: Uint32Array;
  readonly edges: Uint32Array;

  constructor(graph: RoadGraph) {
    const target = graph.arrays.edgeTarget;
    this.first = new Uint32Array(graph.nodeCount + 1);
    for (let e = 0; e < graph.edgeCount; e++) this.first[target[e]! + 1]!++;
    for (let v = 0; v < graph.nodeCount; v++) this.first[v + 1]! += this.first[v]!;
    const fill = this.first.slice(0, graph.nodeCount);
    this.edges = new Uint32Array(graph.edgeCount);
    for (let e = 0; e < graph.edgeCount; e++) this.edges[fill[target[e]!]!++] = e;
  }
}

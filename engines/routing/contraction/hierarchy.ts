/** A loaded contraction hierarchy: its arrays (public, for the search loops), its counts and its node ids (region.ts). */
import type { RoadGraph } from '../road-graph.ts';
import { chCountsOf, type ChArrays } from './format.ts';
import { HierarchyNodes } from './region.ts';

export class ContractionHierarchy {
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly upArcs: number;
  readonly downArcs: number;
  readonly nodes: HierarchyNodes;

  constructor(readonly arrays: ChArrays) {
    const c = chCountsOf(arrays);
    this.nodeCount = c.nodes;
    this.edgeCount = c.edges;
    this.upArcs = c.upArcs;
    this.downArcs = c.downArcs;
    this.nodes = new HierarchyNodes(c.nodes - c.regionEdges, arrays);
  }

  /** Throws unless the hierarchy was built for a graph of this shape. */
  assertFits(graph: RoadGraph): void {
    if (graph.nodeCount !== this.nodes.roadNodes || graph.edgeCount !== this.edgeCount) {
      throw new Error(`contraction hierarchy of ${this.nodes.roadNodes} road nodes / ${this.edgeCount} edges does not fit a graph of ` +
        `${graph.nodeCount} nodes / ${graph.edgeCount} edges`);
    }
  }
}

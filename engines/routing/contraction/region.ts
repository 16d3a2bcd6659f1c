/**
 * Where the hierarchy tells arrivals apart. Most of the hierarchy is node-based — one node per
 * road node, where every turn is free — but around each junction with a turn restriction binding
 * a motor mode (every road node within REGION_SECONDS of it in the metric, either direction) a
 * road node v gives way to one hierarchy node per edge into v ("at v, having come by e"), whose
 * arcs are the turns motor-turns.ts allows (no banned turn, no u-turn but at a dead end). The
 * restrictions are then inside the hierarchy. A least-cost path through it can still turn back
 * where it leaves the region (a u-turn at a node-based node), which costs at least twice
 * REGION_SECONDS over going straight — more than going round a block. Callers check every path
 * anyway (checked-ch-path.ts) and search again when one turns back.
 *
 * REGION_SECONDS trades build time for answers straight from the hierarchy: on Vancouver's real
 * restrictions, 30 s answers 162 of 167 trips across a banned turn without a second search
 * (2 edges: 51, 60 s: all), and makes the 500,000-node synthetic build 1.5× slower than without a
 * region (60 s: 2.4×, 120 s: 17×).
 *
 * Hierarchy node ids: road node v (unused when v is in the region), then roadNodes + k for the
 * region's k-th in-edge (in-edges grouped by their node, nodes ascending, edges ascending).
 */
import type { RoadGraph } from '../road-graph.ts';
import { MOTOR_MODES } from './metric.ts';
import { modeBit } from '../graph-format.ts';
import { MinHeap } from '../heap.ts';
import { IncomingEdges } from '../incoming-edges.ts';
import { motorTurnAllowed } from './motor-turns.ts';

export const REGION_SECONDS = 30;

export interface RegionArrays {
  /** Road nodes of the region, ascending. */
  regionNodes: Uint32Array;
  /** Per region node i: its in-edges are regionInEdge[regionInFirst[i] .. regionInFirst[i + 1]]. */
  regionInFirst: Uint32Array;
  regionInEdge: Uint32Array;
}

/** The region around the restrictions that bind a motor mode; `weight` marks the edges in the metric (finite). */
export function turnRegion(graph: RoadGraph, weight: Float64Array): RegionArrays {
  const a = graph.arrays;
  const motorBits = MOTOR_MODES.reduce((bits, mode) => bits | modeBit(mode), 0);
  const marked = new Uint8Array(graph.nodeCount);
  const junctions: number[] = [];
  for (let r = 0; r < a.turnInEdge.length; r++) {
    const v = a.edgeTarget[a.turnInEdge[r]!]!;
    if ((a.turnModes[r]! & motorBits) !== 0 && !marked[v]) {
      marked[v] = 1;
      junctions.push(v);
    }
  }
  const into = new IncomingEdges(graph);
  const dist = new Float64Array(graph.nodeCount).fill(Infinity);
  const heap = new MinHeap(1024);
  for (const v of junctions) {
    dist[v] = 0;
    heap.push(0, v);
  }
  const relax = (x: number, d: number) => {
    if (d <= REGION_SECONDS && d < dist[x]!) {
      dist[x] = d;
      heap.push(d, x);
    }
  };
  while (heap.size > 0) {
    const d = heap.peekKey();
    const v = heap.pop();
    if (d > dist[v]!) continue;
    marked[v] = 1;
    for (let e = a.firstEdge[v]!; e < a.firstEdge[v + 1]!; e++) if (weight[e]! < Infinity) relax(a.edgeTarget[e]!, d + weight[e]!);
    for (let i = into.first[v]!; i < into.first[v + 1]!; i++) {
      const e = into.edges[i]!;
      if (weight[e]! < Infinity) relax(graph.edgeSource(e), d + weight[e]!);
    }
  }
  const nodes: number[] = [];
  const inFirst: number[] = [0];
  const inEdge: number[] = [];
  for (let v = 0; v < graph.nodeCount; v++) {
    if (!marked[v]) continue;
    nodes.push(v);
    for (let i = into.first[v]!; i < into.first[v + 1]!; i++) if (weight[into.edges[i]!]! < Infinity) inEdge.push(into.edges[i]!);
    inFirst.push(inEdge.length);
  }
  return { regionNodes: Uint32Array.from(nodes), regionInFirst: Uint32Array.from(inFirst), regionInEdge: Uint32Array.from(inEdge) };
}

/** The hierarchy's node ids for the road graph's edges: where an edge ends, and where a path onto it leaves from. */
export class HierarchyNodes {
  readonly count: number;
  /** Per road node: its index in regionNodes, or -1 outside the region. */
  private readonly regionIndex: Int32Array;

  constructor(readonly roadNodes: number, private readonly region: RegionArrays) {
    this.count = roadNodes + region.regionInEdge.length;
    this.regionIndex = new Int32Array(roadNodes).fill(-1);
    region.regionNodes.forEach((v, i) => {
      this.regionIndex[v] = i;
    });
  }

  inRegion(roadNode: number): boolean {
    return this.regionIndex[roadNode]! >= 0;
  }

  /** The hierarchy node reached at the end of edge `e` (an edge of the metric). */
  headOf(graph: RoadGraph, e: number): number {
    const v = graph.arrays.edgeTarget[e]!;
    const i = this.regionIndex[v]!;
    if (i < 0) return v;
    const { regionInFirst, regionInEdge } = this.region;
    for (let k = regionInFirst[i]!; k < regionInFirst[i + 1]!; k++) if (regionInEdge[k] === e) return this.roadNodes + k;
    throw new Error(`edge ${e} is not in the hierarchy's metric`);
  }

  /** The hierarchy nodes a path may leave from onto edge `d`: its source, or in the region each arrival that may turn onto d. */
  forEachTail(graph: RoadGraph, d: number, visit: (node: number) => void): void {
    const u = graph.edgeSource(d);
    const i = this.regionIndex[u]!;
    if (i < 0) {
      visit(u);
      return;
    }
    const { regionInFirst, regionInEdge } = this.region;
    for (let k = regionInFirst[i]!; k < regionInFirst[i + 1]!; k++) if (motorTurnAllowed(graph, regionInEdge[k]!, d)) visit(this.roadNodes + k);
  }

  /** The road edge whose arrival hierarchy node `node` (≥ roadNodes) stands for. */
  arrivalEdge(node: number): number {
    return this.region.regionInEdge[node - this.roadNodes]!;
  }
}

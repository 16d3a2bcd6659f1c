/**
 * Builds the contraction hierarchy of a road graph over the motor lower-bound metric (Geisberger
 * et al. 2008) — its nodes road nodes, or around turn restrictions arrivals (region.ts): nodes
 * leave the graph in priority order, each with the shortcuts that keep the remaining distances,
 * and every arc ends up at its lower-ranked end as an up or a down arc.
 *
 * Priority (lower first) = edge difference (shortcuts added − arcs removed) + contracted
 * neighbours + original edges (hops of the added shortcuts − hops removed) + level (1 + the
 * deepest contracted neighbour's level, which keeps the hierarchy shallow), each weighted below.
 * Lazy updates: a popped node's priority is recomputed and it goes back when it is no longer the
 * least; its neighbours' priorities are recomputed after each contraction. Ties go to the lower
 * node id (the heap key is priority · 2^26 + id), so builds are reproducible.
 */
import { MinHeap } from '../heap.ts';
import type { RoadGraph } from '../road-graph.ts';
import type { ArcStore } from './build-graph.ts';
import { Contractor, type WitnessLimits } from './contractor.ts';
import { checkChArrays, type ChArrays } from './format.ts';
import { ContractionHierarchy } from './hierarchy.ts';
import { hierarchyArcArrays } from './hierarchy-arrays.ts';
import { motorLowerBound } from './metric.ts';
import { HierarchyNodes, turnRegion, type RegionArrays } from './region.ts';
import { hierarchyInput, type HierarchyInput } from './region-graph.ts';
import { collectGarbage } from './collect-garbage.ts';

export interface ChBuildOptions {
  witness?: Partial<WitnessLimits>;
  /** Called as each step ends: `restriction regions`, `hierarchy input`, `contraction`, `hierarchy arrays`. */
  onStep?: (step: ChBuildStep) => void;
}

export type ChBuildStep = 'restriction regions' | 'hierarchy input' | 'contraction' | 'hierarchy arrays';

export interface ChBuildStats {
  seconds: number;
  nodes: number;
  /** Arcs from original edges (parallel edges merged) plus shortcuts. */
  arcs: number;
  shortcuts: number;
  upArcs: number;
  downArcs: number;
  /** Road nodes told apart by arrival (region.ts), and their arrival nodes. */
  regionNodes: number;
  regionEdges: number;
}

const DEFAULT_LIMITS: WitnessLimits = { simulate: 60, contract: 500 };
const ID_SPACE = 2 ** 26;
const W_EDGE_DIFFERENCE = 4;
const W_CONTRACTED = 2;
const W_HOPS = 1;
const W_LEVEL = 2;

export function buildContractionHierarchy(graph: RoadGraph, options: ChBuildOptions = {}): { hierarchy: ContractionHierarchy; stats: ChBuildStats } {
  return finishContraction(prepareContraction(graph, options));
}

/**
 * What the contraction needs of the road graph, taken from it (the metric, the restriction
 * regions, the graph to contract): the caller may release the graph before finishContraction.
 */
export interface PreparedContraction {
  started: number;
  step: (step: ChBuildStep) => void;
  limits: WitnessLimits;
  edgeWeight: Float64Array;
  region: RegionArrays;
  /** Null once finishContraction has taken it. */
  input: HierarchyInput | null;
  nodes: number;
}

export function prepareContraction(graph: RoadGraph, options: ChBuildOptions = {}): PreparedContraction {
  const started = performance.now();
  const step = options.onStep ?? (() => {});
  const edgeWeight = motorLowerBound(graph);
  const region = turnRegion(graph, edgeWeight);
  step('restriction regions');
  const ids = new HierarchyNodes(graph.nodeCount, region);
  const n = ids.count;
  if (n >= ID_SPACE) throw new Error(`contraction: ${n} nodes exceed the ${ID_SPACE} the priority keys hold`);
  const input = hierarchyInput(graph, edgeWeight, ids);
  // The region's search (distances, incoming edges) is garbage: give it back before the contraction.
  collectLargeGarbage(n);
  step('hierarchy input');
  return { started, step, limits: { ...DEFAULT_LIMITS, ...options.witness }, edgeWeight, region, input, nodes: n };
}

/** Contracts the prepared graph and lays out the hierarchy; `prepared` is consumed. */
export function finishContraction(prepared: PreparedContraction): { hierarchy: ContractionHierarchy; stats: ChBuildStats } {
  const { started, step, edgeWeight, region } = prepared;
  // Only the arcs outlive the contraction: the input, the lists, witness search and queue are
  // garbage after it (collected before the layout, which then has their room).
  const { arcs, rank } = contract(takeContractor(prepared), prepared.nodes);
  collectLargeGarbage(prepared.nodes);
  step('contraction');
  let shortcuts = 0;
  for (let id = 0; id < arcs.count; id++) if (arcs.isShortcut(id)) shortcuts++;
  const arcCount = arcs.count;
  const arrays: ChArrays = { rank, edgeWeight, ...hierarchyArcArrays(arcs, rank), ...region };
  checkChArrays(arrays);
  const hierarchy = new ContractionHierarchy(arrays);
  step('hierarchy arrays');
  return {
    hierarchy,
    stats: {
      seconds: (performance.now() - started) / 1000, nodes: prepared.nodes, arcs: arcCount, shortcuts,
      upArcs: hierarchy.upArcs, downArcs: hierarchy.downArcs,
      regionNodes: region.regionNodes.length, regionEdges: region.regionInEdge.length,
    },
  };
}

/** The contractor over the prepared input, which is garbage once the contractor holds its arcs. */
function takeContractor(prepared: PreparedContraction): Contractor {
  const input = prepared.input;
  if (!input) throw new Error('contraction: this graph was already contracted');
  prepared.input = null;
  return new Contractor(prepared.nodes, input.first, input.head, input.edge, prepared.edgeWeight, prepared.limits);
}

/** Contracts every node in priority order; returns the arcs (originals and shortcuts) and each node's rank. */
function contract(c: Contractor, n: number): { arcs: ArcStore; rank: Uint32Array } {
  collectLargeGarbage(n); // the input the contractor was made from
  const contracted = new Uint8Array(n);
  const contractedNeighbours = new Uint32Array(n);
  const level = new Uint32Array(n);
  const key = new Float64Array(n);
  const touched = new Uint32Array(n);
  const rank = new Uint32Array(n);
  const heap = new MinHeap(n + 16);
  let neighbours: Uint32Array = new Uint32Array(64);

  const priorityKey = (v: number): number => {
    c.shortcutsOf(v, false);
    const removed = c.in.size[v]! + c.out.size[v]!;
    const priority = W_EDGE_DIFFERENCE * (c.added - removed) + W_CONTRACTED * contractedNeighbours[v]!
      + W_HOPS * (c.addedHops - c.hopsAt(v)) + W_LEVEL * level[v]!;
    return priority * ID_SPACE + v;
  };

  for (let v = 0; v < n; v++) {
    key[v] = priorityKey(v);
    heap.push(key[v]!, v);
  }
  let order = 0;
  let stamp = 0;
  while (heap.size > 0) {
    const k = heap.peekKey();
    const v = heap.pop();
    if (contracted[v] || k !== key[v]) continue;
    const fresh = priorityKey(v);
    if (fresh !== k) {
      key[v] = fresh;
      if (heap.size > 0 && fresh > heap.peekKey()) {
        heap.push(fresh, v);
        continue;
      }
    }
    c.shortcutsOf(v, true);
    // v's remaining neighbours, each once, before v leaves the graph.
    stamp++;
    let count = 0;
    for (let side = 0; side < 2; side++) {
      const lists = side === 0 ? c.in : c.out;
      const ends = side === 0 ? c.arcs.tail : c.arcs.head;
      for (let i = lists.start[v]!, end = i + lists.size[v]!; i < end; i++) {
        const x = ends[lists.pool[i]!]!;
        if (touched[x] === stamp) continue;
        touched[x] = stamp;
        if (count === neighbours.length) neighbours = growUint32(neighbours);
        neighbours[count++] = x;
      }
    }
    c.remove(v);
    contracted[v] = 1;
    rank[v] = order++;
    for (let j = 0; j < count; j++) {
      const x = neighbours[j]!;
      contractedNeighbours[x] = contractedNeighbours[x]! + 1;
      if (level[x]! < level[v]! + 1) level[x] = level[v]! + 1;
      key[x] = priorityKey(x);
      heap.push(key[x]!, x);
    }
  }
  return { arcs: c.arcs, rank };
}

/** A full collection where the garbage is worth it (a graph of a million nodes or more; smaller ones are over before it matters). */
function collectLargeGarbage(nodes: number): void {
  if (nodes >= 1_000_000) collectGarbage();
}

function growUint32(arr: Uint32Array): Uint32Array {
  const next = new Uint32Array(arr.length * 2);
  next.set(arr);
  return next;
}

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
import { Contractor, type WitnessLimits } from './contractor.ts';
import { NO_ARC, checkChArrays, type ChArrays } from './format.ts';
import { ContractionHierarchy } from './hierarchy.ts';
import { motorLowerBound } from './metric.ts';
import { HierarchyNodes, turnRegion, type RegionArrays } from './region.ts';
import { hierarchyInput } from './region-graph.ts';

export interface ChBuildOptions {
  witness?: Partial<WitnessLimits>;
}

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
  const t0 = performance.now();
  const edgeWeight = motorLowerBound(graph);
  const region = turnRegion(graph, edgeWeight);
  const ids = new HierarchyNodes(graph.nodeCount, region);
  const n = ids.count;
  if (n >= ID_SPACE) throw new Error(`contraction: ${n} nodes exceed the ${ID_SPACE} the priority keys hold`);
  const input = hierarchyInput(graph, edgeWeight, ids);
  const c = new Contractor(n, input.first, input.head, input.weight, { ...DEFAULT_LIMITS, ...options.witness });
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

  const arrays = { ...hierarchyArrays(c, rank, edgeWeight, input.edge), ...region };
  checkChArrays(arrays);
  const hierarchy = new ContractionHierarchy(arrays);
  let shortcuts = 0;
  for (let id = 0; id < c.arcs.count; id++) if (c.arcs.isShortcut(id)) shortcuts++;
  return {
    hierarchy,
    stats: {
      seconds: (performance.now() - t0) / 1000, nodes: n, arcs: c.arcs.count, shortcuts,
      upArcs: hierarchy.upArcs, downArcs: hierarchy.downArcs,
      regionNodes: region.regionNodes.length, regionEdges: region.regionInEdge.length,
    },
  };
}

function growUint32(arr: Uint32Array): Uint32Array {
  const next = new Uint32Array(arr.length * 2);
  next.set(arr);
  return next;
}

/** Every arc at its lower-ranked end in CSR, up arcs first, with the unpacking references renumbered (an original arc to its road edge). */
function hierarchyArrays(c: Contractor, rank: Uint32Array, edgeWeight: Float64Array, roadEdge: Uint32Array): Omit<ChArrays, keyof RegionArrays> {
  const n = rank.length;
  const { arcs } = c;
  const total = arcs.count;
  const up = new Uint8Array(total);
  const upFirst = new Uint32Array(n + 1);
  const downFirst = new Uint32Array(n + 1);
  for (let id = 0; id < total; id++) {
    const t = arcs.tail[id]!;
    const h = arcs.head[id]!;
    if (rank[t]! < rank[h]!) {
      up[id] = 1;
      upFirst[t + 1] = upFirst[t + 1]! + 1;
    } else downFirst[h + 1] = downFirst[h + 1]! + 1;
  }
  for (let v = 0; v < n; v++) {
    upFirst[v + 1] = upFirst[v + 1]! + upFirst[v]!;
    downFirst[v + 1] = downFirst[v + 1]! + downFirst[v]!;
  }
  const upArcs = upFirst[n]!;
  const downArcs = downFirst[n]!;
  const upFill = upFirst.slice(0, n);
  const downFill = downFirst.slice(0, n);
  const finalId = new Uint32Array(total);
  const upHead = new Uint32Array(upArcs);
  const upWeight = new Float64Array(upArcs);
  const downHead = new Uint32Array(downArcs);
  const downWeight = new Float64Array(downArcs);
  for (let id = 0; id < total; id++) {
    const t = arcs.tail[id]!;
    const h = arcs.head[id]!;
    if (up[id]) {
      const i = upFill[t]!;
      upFill[t] = i + 1;
      upHead[i] = h;
      upWeight[i] = arcs.weight[id]!;
      finalId[id] = i;
    } else {
      const i = downFill[h]!;
      downFill[h] = i + 1;
      downHead[i] = t;
      downWeight[i] = arcs.weight[id]!;
      finalId[id] = upArcs + i;
    }
  }
  const arcA = new Uint32Array(total);
  const arcB = new Uint32Array(total);
  for (let id = 0; id < total; id++) {
    const f = finalId[id]!;
    if (arcs.b[id] === NO_ARC) {
      arcA[f] = roadEdge[arcs.a[id]!]!;
      arcB[f] = NO_ARC;
    } else {
      arcA[f] = finalId[arcs.a[id]!]!;
      arcB[f] = finalId[arcs.b[id]!]!;
    }
  }
  return { rank, edgeWeight, upFirst, upHead, upWeight, downFirst, downHead, downWeight, arcA, arcB };
}

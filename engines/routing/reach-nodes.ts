/**
 * reachWithin's search when cost is seconds and only the graph's own restrictions bind turns:
 * labels per road node where no restriction binds, and the edge-based labels (one per arriving
 * edge, moves.ts) only at the nodes where one does. The u-turn rule (no way back over the edge
 * just travelled, except at a dead end) needs two labels per node: the earliest arrival, and the
 * earliest over another edge, which alone may leave by the reverse of the first one's edge.
 * Every edge thus gets the entry and arrival the edge-based search gives it, bit for bit: each is
 * the minimum of the same sums, only taken before the addition instead of after it.
 *
 * Queue ids: 2·v for node v's first label, 2·v + 1 for its second, 2·nodeCount + e for edge e
 * into a restricted node. A node whose way back is closed (a one-way arrival, or a dead end,
 * where the first label takes it) gets NaN as its second label: nothing compares below it.
 */
import type { CostModel } from './cost-model.ts';
import type { Endpoint } from './endpoints.ts';
import { NO_EDGE } from './graph-format.ts';
import { Moves, type TurnRule } from './moves.ts';
import { EnteredList, type Reach } from './reach-list.ts';
import { MinHeap } from './heap.ts';
import type { RoadGraph } from './road-graph.ts';
import { searchSpaceOf } from './search-space.ts';

/**
 * Per node of a graph, interleaved so one cache line holds all of a node's (a search reads them
 * together, at nodes scattered over the graph): FIRST, SECOND, VIA (the edge the first label
 * arrived over) and SEEN (the generation stamp, as SearchSpace's); and the search's queue.
 */
class NodeLabels {
  readonly slots: Float64Array;
  readonly heap = new MinHeap(4096);
  stamp = 0;

  constructor(nodeCount: number) {
    this.slots = new Float64Array(4 * nodeCount);
  }

  begin(): number {
    if (this.stamp === 2 ** 53) {
      for (let i = SEEN; i < this.slots.length; i += 4) this.slots[i] = 0;
      this.stamp = 0;
    }
    this.heap.clear();
    return ++this.stamp;
  }
}
const FIRST = 0;
const SECOND = 1;
const VIA = 2;
const SEEN = 3;

const labels = new WeakMap<RoadGraph, NodeLabels>();

/** Whether the queue ids fit the graph (they are 32-bit). */
export function nodeReachFits(graph: RoadGraph): boolean {
  return 2 * graph.nodeCount + graph.edgeCount <= 0xffffffff;
}

/** `restricted`: the nodes where `turnRule` can forbid a turn (bitset), null when there is no rule. */
export function reachByNodes(model: CostModel, origin: Endpoint, maxSeconds: number, restricted: Uint32Array | null, turnRule?: TurnRule): Reach {
  const graph = model.graph;
  const a = graph.arrays;
  const moves = new Moves(model, turnRule);
  const space = searchSpaceOf(graph);
  const stamp = space.begin();
  const { cost, seen, pred, metres: entry } = space;
  let node = labels.get(graph);
  if (!node) labels.set(graph, (node = new NodeLabels(graph.nodeCount)));
  const nodeStamp = node.begin();
  const { slots: n, heap } = node;
  const edgeIds = 2 * graph.nodeCount;
  const list = new EnteredList();

  /** Edge e entered from node u at `at` seconds, reaching its end at `end`. */
  const enter = (e: number, at: number, end: number, u: number): void => {
    if (seen[e] !== stamp) {
      seen[e] = stamp;
      entry[e] = at;
      pred[e] = list.push(e, u);
    } else {
      if (at < entry[e]!) entry[e] = at;
      if (end >= cost[e]!) return;
    }
    cost[e] = end;
    if (end > maxSeconds) return;
    const w = a.edgeTarget[e]!;
    if (restricted !== null && (restricted[w >>> 5]! & (1 << (w & 31))) !== 0) {
      heap.push(end, edgeIds + e);
      return;
    }
    const i = 4 * w;
    if (n[i + SEEN] !== nodeStamp) {
      n[i + SEEN] = nodeStamp;
      n[i + FIRST] = end;
      n[i + SECOND] = Infinity;
      n[i + VIA] = e;
      heap.push(end, 2 * w);
    } else if (end < n[i + FIRST]!) {
      if (n[i + VIA] !== e && n[i + FIRST]! < n[i + SECOND]!) {
        n[i + SECOND] = n[i + FIRST]!;
        heap.push(n[i + FIRST]!, 2 * w + 1);
      }
      n[i + FIRST] = end;
      n[i + VIA] = e;
      heap.push(end, 2 * w);
    } else if (n[i + VIA] !== e && end < n[i + SECOND]!) {
      n[i + SECOND] = end;
      heap.push(end, 2 * w + 1);
    }
  };

  for (const p of origin) enter(p.edge, 0, (1 - p.fraction) * model.seconds(p.edge), graph.edgeSource(p.edge));

  while (heap.size > 0) {
    const key = heap.peekKey();
    const id = heap.pop();
    if (id >= edgeIds) {
      const edge = id - edgeIds;
      if (key !== cost[edge]) continue;
      const v = a.edgeTarget[edge]!;
      for (let e = a.firstEdge[v]!; e < a.firstEdge[v + 1]!; e++) if (moves.allowed(edge, e)) enter(e, key, key + model.seconds(e), v);
      continue;
    }
    const v = id >>> 1;
    const arrived = n[4 * v + VIA]!;
    const back = a.edgeReverse[arrived]!;
    if ((id & 1) === 1) {
      if (key !== n[4 * v + SECOND]) continue;
      // Equal to the first label, which may still be queued and so not have closed a shut way back.
      if (key === n[4 * v + FIRST] && (back === NO_EDGE || !model.allowed(back) || moves.deadEndAfter(arrived))) continue;
      enter(back, key, key + model.seconds(back), v);
      continue;
    }
    if (key !== n[4 * v + FIRST]) continue;
    let backOpen = false;
    let others = 0;
    for (let e = a.firstEdge[v]!; e < a.firstEdge[v + 1]!; e++) {
      if (!model.allowed(e)) continue;
      if (e === back) backOpen = true;
      else {
        others++;
        enter(e, key, key + model.seconds(e), v);
      }
    }
    if (backOpen && others === 0) enter(back, key, key + model.seconds(back), v);
    if (!backOpen || others === 0) n[4 * v + SECOND] = NaN;
  }
  return list.answer(space, stamp, cost, maxSeconds, origin, a.edgeReverse);
}

/**
 * The oracle: a plain Dijkstra over directed edges, written independently of engines/routing/search.ts
 * (pair-heap.ts, no A*, no shared label space). Same rules:
 * start on any usable edge out of the source node, no u-turn onto the reverse edge unless no other
 * usable edge leaves the node, turn rule honoured. Returns each node's cost of arrival.
 */
import type { CostModel } from '../../engines/routing/cost-model.ts';
import type { TurnRule } from '../../engines/routing/search.ts';
import { PairHeap } from './pair-heap.ts';

export function referenceNodeCosts(model: CostModel, source: number, turnRule?: TurnRule): Float64Array {
  const g = model.graph;
  const best = new Float64Array(g.edgeCount).fill(Infinity);
  const heap = new PairHeap();
  const { start, end } = g.edgesOf(source);
  for (let e = start; e < end; e++) {
    if (model.allowed(e) && model.cost(e) < best[e]!) {
      best[e] = model.cost(e);
      heap.push(best[e]!, e);
    }
  }
  const settled = new Uint8Array(g.edgeCount);
  while (heap.size > 0) {
    const [c, e] = heap.pop();
    if (settled[e]) continue;
    settled[e] = 1;
    const v = g.edgeTarget(e);
    const out = g.edgesOf(v);
    const reverse = g.reverseEdge(e);
    const others: number[] = [];
    for (let f = out.start; f < out.end; f++) if (f !== reverse && model.allowed(f)) others.push(f);
    const next = others.length > 0 ? others : reverse !== null && model.allowed(reverse) ? [reverse] : [];
    for (const f of next) {
      if (turnRule?.(e, f)) continue;
      const cf = c + model.cost(f);
      if (cf < best[f]!) {
        best[f] = cf;
        heap.push(cf, f);
      }
    }
  }
  const nodeCost = new Float64Array(g.nodeCount).fill(Infinity);
  nodeCost[source] = 0;
  for (let e = 0; e < g.edgeCount; e++) {
    const v = g.edgeTarget(e);
    if (v !== source && best[e]! < nodeCost[v]!) nodeCost[v] = best[e]!;
  }
  return nodeCost;
}

/**
 * Everything reachable from an origin within a time budget (for isochrones). When cost is seconds
 * and turns are bound by the graph's rules (or none), reach-nodes.ts answers with node labels;
 * otherwise the same edge-based search as search.ts, ordered by cost, with labels whose seconds exceed the budget left
 * unexpanded. Without preferences cost is seconds, so this is exactly "within T seconds"; with
 * preferences (avoid=ferries …) it is "within T seconds along the least-cost paths".
 *
 * The answer lists only the edges entered, so a small isochrone on a national graph costs what
 * it reaches, not the graph's size. The search borrows the space's `metres` as entry seconds (a
 * reach has no distances). An edge is entered exactly when it has a label, so `seen` marks both.
 * Labels beyond the budget are kept but never queued: they would only be popped and dropped. A
 * popped label is stale when its key is no longer the edge's cost (a cheaper one was pushed
 * since; pushes are strictly cheaper, so only the current label matches), which spares `done`.
 * `pred` holds each entered edge's index in the list (a reach has no paths).
 */
import type { CostModel } from './cost-model.ts';
import type { Endpoint } from './endpoints.ts';
import { Moves } from './moves.ts';
import { EnteredList, type Reach } from './reach-list.ts';
import { nodeReachFits, reachByNodes } from './reach-nodes.ts';
import { searchSpaceOf } from './search-space.ts';
import type { TurnRule } from './search.ts';
import { turnRuleNodes } from './turn-rule.ts';

export type { Reach } from './reach-list.ts';

export function reachWithin(model: CostModel, origin: Endpoint, maxSeconds: number, turnRule?: TurnRule): Reach {
  const graph = model.graph;
  const restricted = turnRule === undefined ? null : turnRuleNodes(turnRule);
  if (model.costIsSeconds && restricted !== undefined && nodeReachFits(graph)) return reachByNodes(model, origin, maxSeconds, restricted, turnRule);
  const a = graph.arrays;
  const moves = new Moves(model, turnRule);
  const space = searchSpaceOf(graph);
  const stamp = space.begin();
  const { cost, seen, heap, pred } = space;
  // When cost is seconds the two labels are equal: keep one array.
  const sameCost = model.costIsSeconds;
  const seconds = sameCost ? cost : space.seconds;
  const entry = space.metres;
  const list = new EnteredList();

  for (const p of origin) {
    const e = p.edge;
    const rest = 1 - p.fraction;
    const c = rest * model.cost(e);
    if (seen[e] !== stamp) {
      seen[e] = stamp;
      entry[e] = 0;
      pred[e] = list.push(e, graph.edgeSource(e));
    } else if (c >= cost[e]!) continue;
    cost[e] = c;
    seconds[e] = rest * model.seconds(e);
    if (seconds[e]! <= maxSeconds) heap.push(c, e);
  }

  while (heap.size > 0) {
    const c0 = heap.peekKey();
    const edge = heap.pop();
    if (c0 !== cost[edge]) continue;
    const s0 = seconds[edge]!;
    const v = a.edgeTarget[edge]!;
    for (let e2 = a.firstEdge[v]!; e2 < a.firstEdge[v + 1]!; e2++) {
      if (!moves.allowed(edge, e2)) continue;
      const c = c0 + (sameCost ? model.seconds(e2) : model.cost(e2));
      if (seen[e2] !== stamp) {
        seen[e2] = stamp;
        entry[e2] = s0;
        pred[e2] = list.push(e2, v);
      } else {
        if (s0 < entry[e2]!) entry[e2] = s0;
        if (c >= cost[e2]!) continue;
      }
      cost[e2] = c;
      const s = sameCost ? c : s0 + model.seconds(e2);
      seconds[e2] = s;
      if (s <= maxSeconds) heap.push(c, e2);
    }
  }
  return list.answer(space, stamp, seconds, maxSeconds, origin, a.edgeReverse);
}

/** Arrival seconds for every edge of the graph (Infinity where not reached): for tools and tests. */
export function arrivalByEdge(reach: Reach, edgeCount: number): Float64Array {
  const out = new Float64Array(edgeCount).fill(Infinity);
  reach.edges.forEach((e, i) => {
    out[e] = reach.arrival[i]!;
  });
  return out;
}

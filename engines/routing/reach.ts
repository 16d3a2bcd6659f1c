/**
 * Everything reachable from an origin within a time budget (for isochrones): the same edge-based
 * search as search.ts, ordered by cost, with labels whose seconds exceed the budget left
 * unexpanded. Without preferences cost is seconds, so this is exactly "within T seconds"; with
 * preferences (avoid=ferries …) it is "within T seconds along the least-cost paths".
 */
import type { CostModel } from './cost-model.ts';
import type { Endpoint } from './endpoints.ts';
import { Moves } from './moves.ts';
import { searchSpaceOf } from './search-space.ts';
import type { TurnRule } from './search.ts';

export interface Reach {
  /** Seconds on reaching each edge's end (Infinity when not within the budget). */
  arrival: Float64Array;
  /**
   * Seconds on entering each edge (Infinity when not entered within the budget): an edge with a
   * finite entry and an infinite arrival is reached part of the way.
   */
  entry: Float64Array;
  /** The origin edges and the fraction they are entered at (entry is 0 there). */
  origin: Endpoint;
}

export function reachWithin(model: CostModel, origin: Endpoint, maxSeconds: number, turnRule?: TurnRule): Reach {
  const graph = model.graph;
  const a = graph.arrays;
  const moves = new Moves(model, turnRule);
  const space = searchSpaceOf(graph);
  const stamp = space.begin();
  const { cost, seconds, seen, done, heap } = space;
  const arrival = new Float64Array(graph.edgeCount).fill(Infinity);
  const entry = new Float64Array(graph.edgeCount).fill(Infinity);

  for (const p of origin) {
    const e = p.edge;
    const rest = 1 - p.fraction;
    const c = rest * model.cost(e);
    entry[e] = 0;
    if (seen[e] !== stamp || c < cost[e]!) {
      seen[e] = stamp;
      cost[e] = c;
      seconds[e] = rest * model.seconds(e);
      heap.push(c, e);
    }
  }

  while (heap.size > 0) {
    const edge = heap.pop();
    if (done[edge] === stamp) continue;
    done[edge] = stamp;
    const s0 = seconds[edge]!;
    if (s0 > maxSeconds) continue;
    arrival[edge] = s0;
    const v = a.edgeTarget[edge]!;
    const deadEnd = moves.deadEndAfter(edge);
    const c0 = cost[edge]!;
    for (let e2 = a.firstEdge[v]!; e2 < a.firstEdge[v + 1]!; e2++) {
      if (!moves.allowed(edge, e2, deadEnd)) continue;
      if (s0 < entry[e2]!) entry[e2] = s0;
      if (done[e2] === stamp) continue;
      const c = c0 + model.cost(e2);
      if (seen[e2] !== stamp || c < cost[e2]!) {
        seen[e2] = stamp;
        cost[e2] = c;
        seconds[e2] = s0 + model.seconds(e2);
        heap.push(c, e2);
      }
    }
  }
  return { arrival, entry, origin };
}

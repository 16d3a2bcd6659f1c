/**
 * Everything reachable from an origin within a time budget (for isochrones): the same edge-based
 * search as search.ts, ordered by cost, with labels whose seconds exceed the budget left
 * unexpanded. Without preferences cost is seconds, so this is exactly "within T seconds"; with
 * preferences (avoid=ferries …) it is "within T seconds along the least-cost paths".
 *
 * The answer lists only the edges entered, so a small isochrone on a national graph costs what
 * it reaches, not the graph's size. The search borrows the space's `metres` as entry seconds and
 * `targetMark` as the entered stamp (a reach has no destinations and no distances).
 */
import type { CostModel } from './cost-model.ts';
import type { Endpoint } from './endpoints.ts';
import { Moves } from './moves.ts';
import { searchSpaceOf } from './search-space.ts';
import type { TurnRule } from './search.ts';

export interface Reach {
  /** Every edge entered within the budget (origin edges first). */
  edges: Uint32Array;
  /** Seconds on entering edges[i] (0 for an origin edge, where it is entered at its origin fraction). */
  entry: Float64Array;
  /** Seconds on reaching the end of edges[i]; Infinity when that is beyond the budget (reached part of the way). */
  arrival: Float64Array;
  /** The origin edges and the fraction they are entered at. */
  origin: Endpoint;
}

export function reachWithin(model: CostModel, origin: Endpoint, maxSeconds: number, turnRule?: TurnRule): Reach {
  const a = model.graph.arrays;
  const moves = new Moves(model, turnRule);
  const space = searchSpaceOf(model.graph);
  const stamp = space.begin();
  const { cost, seconds, seen, done, heap } = space;
  const entry = space.metres;
  const entered = space.targetMark;
  const list: number[] = [];
  const enter = (edge: number, at: number) => {
    if (entered[edge] !== stamp) {
      entered[edge] = stamp;
      entry[edge] = at;
      list.push(edge);
    } else if (at < entry[edge]!) entry[edge] = at;
  };

  for (const p of origin) {
    const e = p.edge;
    const rest = 1 - p.fraction;
    const c = rest * model.cost(e);
    enter(e, 0);
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
    const v = a.edgeTarget[edge]!;
    const c0 = cost[edge]!;
    for (let e2 = a.firstEdge[v]!; e2 < a.firstEdge[v + 1]!; e2++) {
      if (!moves.allowed(edge, e2)) continue;
      enter(e2, s0);
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
  const edges = Uint32Array.from(list);
  const arrival = new Float64Array(edges.length);
  edges.forEach((e, i) => {
    arrival[i] = done[e] === stamp && seconds[e]! <= maxSeconds ? seconds[e]! : Infinity;
  });
  return { edges, entry: Float64Array.from(edges, (e) => entry[e]!), arrival, origin };
}

/** Arrival seconds for every edge of the graph (Infinity where not reached): for tools and tests. */
export function arrivalByEdge(reach: Reach, edgeCount: number): Float64Array {
  const out = new Float64Array(edgeCount).fill(Infinity);
  reach.edges.forEach((e, i) => {
    out[e] = reach.arrival[i]!;
  });
  return out;
}

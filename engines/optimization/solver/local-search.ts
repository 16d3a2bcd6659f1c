/**
 * Polishing of the best solution: relocate each shipment (both visits of a pair together) to its
 * cheapest position anywhere, and insert skipped shipments when that pays, until no move improves.
 * Works for every problem since it goes through the same insertion evaluation as the search.
 */
import type { State } from './state.ts';

const best = { delta: Infinity, v: -1, a: 0, c: 0 };

export function improve(state: State, deadline = Infinity, maxRounds = 20): void {
  const model = state.model;
  for (let round = 0; round < maxRounds; round++) {
    let improved = false;
    for (let s = 0; s < model.shipmentCount; s++) {
      if (performance.now() > deadline) break;
      const v = state.routeOf[s]!;
      const before = v < 0 ? model.penalty[s]! : state.routes[v]!.cost;
      state.remove(s);
      if (v >= 0) state.refresh(v);
      const removedCost = v < 0 ? 0 : state.routes[v]!.cost;
      state.best(s, null, 0, best);
      const gain = before - removedCost - (best.v < 0 ? model.penalty[s]! : best.delta);
      if (best.v >= 0 && gain > 1e-7 && (model.mandatory[s] || best.delta < model.penalty[s]!)) {
        state.insert(s, best.v, best.a, best.c);
        state.commit();
        improved = true;
      } else state.rollback();
    }
    if (!improved) break;
  }
  state.commit();
}

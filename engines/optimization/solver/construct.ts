/**
 * Initial solution by regret-2 insertion: repeatedly insert the shipment whose best insertion is
 * most ahead of its second best (over routes; skipping an optional shipment counts as an option
 * costing its penalty). Insertion costs are cached per (shipment, vehicle) and recomputed only for
 * the route that changed and for a newly exposed empty vehicle.
 */
import { bestPlacement, type Placement } from './insertion.ts';
import type { State } from './state.ts';

/**
 * Past `deadline` (ms, performance.now()) the remaining shipments are inserted in index order,
 * cheapest place first; past `stopAt` the rest stay unassigned. Returns false when it stopped so.
 */
export function regretConstruct(state: State, deadline = Infinity, stopAt = Infinity): boolean {
  const model = state.model;
  const V = state.routes.length;
  const S = model.shipmentCount;
  const cache = new Float64Array(S * V).fill(Infinity);
  const known = new Uint8Array(S * V);
  const pending: number[] = [];
  for (let s = 0; s < S; s++) if (state.routeOf[s] === -1) pending.push(s);
  const place: Placement = { delta: Infinity, a: 0, c: 0 };
  const evaluate = (s: number, v: number): void => {
    place.delta = Infinity;
    bestPlacement(model, state.routes[v]!, s, place, null, 0);
    cache[s * V + v] = place.delta;
    known[s * V + v] = 1;
  };
  const candidates = (s: number): number[] => {
    const out: number[] = [];
    state.forCandidates(s, (r) => out.push(r.v));
    return out;
  };
  for (const s of pending) for (const v of candidates(s)) evaluate(s, v);
  let complete = true;
  while (pending.length > 0) {
    if (performance.now() > deadline) {
      complete = greedyRest(state, pending, stopAt);
      break;
    }
    let pick = -1;
    let pickRegret = -Infinity;
    let pickBest = Infinity;
    let pickV = -1;
    for (let i = 0; i < pending.length; i++) {
      const s = pending[i]!;
      let b1 = Infinity;
      let b2 = Infinity;
      let bv = -1;
      for (const v of candidates(s)) {
        const d = cache[s * V + v]!;
        if (d < b1) {
          b2 = b1;
          b1 = d;
          bv = v;
        } else if (d < b2) b2 = d;
      }
      if (!model.mandatory[s] && model.penalty[s]! < b2) b2 = model.penalty[s]!;
      const regret = b2 === Infinity ? (b1 === Infinity ? -1 : 1e300) : b2 - b1;
      if (regret > pickRegret || (regret === pickRegret && b1 < pickBest)) {
        pick = i;
        pickRegret = regret;
        pickBest = b1;
        pickV = bv;
      }
    }
    const s = pending[pick]!;
    pending.splice(pick, 1);
    if (pickV < 0 || (!model.mandatory[s] && pickBest >= model.penalty[s]!)) continue;
    const wasEmpty = state.routes[pickV]!.n === 0;
    place.delta = Infinity;
    bestPlacement(model, state.routes[pickV]!, s, place, null, 0);
    state.insert(s, pickV, place.a, place.c);
    for (const t of pending) if (model.allowed[t * V + pickV]) evaluate(t, pickV);
    if (wasEmpty) {
      // The vehicle class now exposes its next empty vehicle.
      for (const t of pending) for (const v of candidates(t)) if (!known[t * V + v]) evaluate(t, v);
    }
  }
  state.commit();
  return complete;
}

function greedyRest(state: State, pending: number[], stopAt: number): boolean {
  const model = state.model;
  const best = { delta: Infinity, v: -1, a: 0, c: 0 };
  for (const s of pending) {
    if (performance.now() > stopAt) return false;
    state.best(s, null, 0, best);
    if (best.v >= 0 && (model.mandatory[s] || best.delta < model.penalty[s]!)) state.insert(s, best.v, best.a, best.c);
  }
  return true;
}

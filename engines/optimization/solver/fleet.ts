/**
 * SISR's fleet-minimisation phase, for fleets whose fixed cost dominates travel: empty one route
 * and, without opening any route, ruin-and-recreate until every shipment is placed again. A step is
 * accepted when it leaves fewer shipments out, or the same number with a lower sum of absence
 * counters (how often each shipment has been left out), which steers the search toward placing the
 * hard ones. Success keeps the smaller fleet and tries the next route; running out of steps restores
 * the last complete solution.
 */
import type { Rng } from './rng.ts';
import { recreate, ruin, type SisrParams } from './sisr.ts';
import type { State } from './state.ts';

/** Returns true while fleet minimisation is worth running: some fixed cost outweighs many arcs. */
export function fleetMatters(state: State, meanArc: number): boolean {
  return state.model.vehicles.some((v) => v.fixed > 20 * meanArc);
}

export function minimiseFleet(state: State, rng: Rng, params: SisrParams, until: () => boolean, stepsPerRoute: number): number {
  const model = state.model;
  const absence = new Float64Array(model.shipmentCount);
  const removed: number[] = [];
  let complete = state.snapshot();
  let steps = 0;
  const outside = (): number[] => {
    const out: number[] = [];
    for (let s = 0; s < model.shipmentCount; s++) if (state.routeOf[s] === -1 && model.mandatory[s]) out.push(s);
    return out;
  };
  if (outside().length > 0) return 0;
  state.noNewRoutes = true;
  try {
    while (!until()) {
      const used = state.routes.filter((r) => r.n > 0);
      if (used.length <= 1) break;
      // Empty the route with the fewest visits (ties: random).
      let pick = used[rng.int(used.length)]!;
      for (const r of used) if (r.n < pick.n) pick = r;
      for (let i = pick.n; i >= 1; i--) state.remove(pick.nodes[i]! >> 1);
      pick.update();
      state.commit();
      let out = outside();
      let score = out.reduce((a, s) => a + absence[s]!, 0);
      let step = 0;
      while (out.length > 0 && step < stepsPerRoute && !until()) {
        step++;
        steps++;
        ruin(state, rng, params, removed);
        for (const s of out) if (!removed.includes(s)) removed.push(s);
        recreate(state, rng, params, removed);
        const now = outside();
        const nowScore = now.reduce((a, s) => a + absence[s]!, 0);
        if (now.length < out.length || nowScore < score) {
          state.commit();
          out = now;
          score = nowScore;
        } else state.rollback();
        for (const s of out) absence[s]!++;
        score = out.reduce((a, s) => a + absence[s]!, 0);
      }
      if (out.length > 0) break;
      complete = state.snapshot();
    }
  } finally {
    state.noNewRoutes = false;
    state.restore(complete);
  }
  return steps;
}

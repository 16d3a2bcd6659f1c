/**
 * Fleet minimisation, for fleets whose fixed cost dominates travel: empty one route and, without
 * opening any route, place its shipments again; success keeps the smaller fleet and tries the next
 * route, running out of steps restores the last complete solution. It stops at the fleet the loads
 * alone call for. Single-visit shipments go through an ejection pool (placeByEjection); pairs
 * through SISR's phase (placeByAbsence): ruin-and-recreate until every shipment is placed. A step is
 * accepted when it leaves fewer shipments out, or as many with no higher sum of absence counters
 * (how often each shipment has been left out), which steers the search toward placing the hard
 * ones. (Accepting more shipments out for a lower sum, as the paper's rule reads, let the pool of
 * pairs grow and the phase never empty a route.)
 */
import { ejectionApplies, insertWithEjection } from './ejection.ts';
import type { Model } from './model.ts';
import type { Rng } from './rng.ts';
import { recreate, ruin, type SisrParams } from './sisr.ts';
import type { State } from './state.ts';

/** Visits ejected at most per insertion, and ruin-and-recreate perturbations after each ejection. */
const MAX_EJECTED = 3;
const PERTURBATIONS = 3;
/** Positions an ejection search visits for the cost of one ruin-and-recreate step (both about 40 µs). */
const EXPLORED_PER_STEP = 2000;
/** Work per turn of the two ways of placing the pool: ejections, then plain ruin-and-recreate steps (long routes need the second). */
const TURN = 200;
/** Blink rate of a pooled shipment's insertion: where it goes is partly random (the paper picks a random feasible place). */
const POOL_BLINK = 0.3;

/** Returns true while fleet minimisation is worth running: some fixed cost outweighs many arcs. */
export function fleetMatters(state: State, meanArc: number): boolean {
  return state.model.vehicles.some((v) => v.fixed > 20 * meanArc);
}

export function minimiseFleet(state: State, rng: Rng, params: SisrParams, until: (work?: number) => boolean, stepsPerRoute: number): number {
  const model = state.model;
  const least = fleetLowerBound(model);
  const done = () => until() || state.routes.reduce((used, r) => used + (r.n > 0 ? 1 : 0), 0) <= least;
  if (done()) return 0;
  for (let s = 0; s < model.shipmentCount; s++) if (state.routeOf[s] === -1 && model.mandatory[s]) return 0;
  const place = ejectionApplies(model) ? placeByEjection(state, rng, params, until, stepsPerRoute) : placeByAbsence(state, rng, params, until, stepsPerRoute);
  let complete = state.snapshot();
  let steps = 0;
  state.noNewRoutes = true;
  try {
    while (!done()) {
      const used = state.routes.filter((r) => r.n > 0);
      if (used.length <= 1) break;
      // Empty the route with the fewest visits (ties: random).
      let pick = used[rng.int(used.length)]!;
      for (const r of used) if (r.n < pick.n) pick = r;
      const pool: number[] = [];
      // Last visit first: the pool is taken from its end, so the route's first visits go back first.
      for (let i = pick.n; i >= 1; i--) if (!pool.includes(pick.nodes[i]! >> 1)) pool.push(pick.nodes[i]! >> 1);
      for (const s of pool) state.remove(s);
      pick.update();
      state.commit();
      const placed = place(pool);
      steps += placed.steps;
      if (!placed.all) break;
      complete = state.snapshot();
    }
  } finally {
    state.noNewRoutes = false;
    state.restore(complete);
  }
  return steps;
}

/** Places the shipments of an emptied route (in the pool) without opening a route: whether all went in, and the steps it took. */
type Placer = (pool: number[]) => { all: boolean; steps: number };

/** No plan can use fewer vehicles than the total demand of some load type over the largest capacity. */
export function fleetLowerBound(model: Model): number {
  let least = 1;
  for (let k = 0; k < model.K; k++) {
    let total = 0;
    for (let s = 0; s < model.shipmentCount; s++) if (model.mandatory[s]) total += Math.abs(model.delta[(model.exists[2 * s] ? 2 * s : 2 * s + 1) * model.K + k]!);
    const largest = model.vehicles.reduce((a, v) => Math.max(a, v.cap[k]!), 0);
    if (largest > 0 && largest < Infinity) least = Math.max(least, Math.ceil(total / largest - 1e-9));
  }
  return least;
}

function placeByAbsence(state: State, rng: Rng, params: SisrParams, until: () => boolean, stepsPerRoute: number): Placer {
  const model = state.model;
  const absence = new Float64Array(model.shipmentCount);
  const removed: number[] = [];
  const outside = (): number[] => {
    const out: number[] = [];
    for (let s = 0; s < model.shipmentCount; s++) if (state.routeOf[s] === -1 && model.mandatory[s]) out.push(s);
    return out;
  };
  return () => {
    let out = outside();
    let score = out.reduce((a, s) => a + absence[s]!, 0);
    let step = 0;
    for (; out.length > 0 && step < stepsPerRoute && !until(); step++) {
      ruin(state, rng, params, removed);
      for (const s of out) if (!removed.includes(s)) removed.push(s);
      recreate(state, rng, params, removed);
      const now = outside();
      const nowScore = now.reduce((a, s) => a + absence[s]!, 0);
      if (now.length < out.length || (now.length === out.length && nowScore <= score)) {
        state.commit();
        out = now;
      } else state.rollback();
      for (const s of out) absence[s]!++;
      score = out.reduce((a, s) => a + absence[s]!, 0);
    }
    return { all: out.length === 0, steps: step };
  };
}

/**
 * Route elimination with an ejection pool (Nagata & Bräysy 2009, without the squeeze): empty a
 * route into the pool, then take shipments from it one at a time: insert one where it fits;
 * otherwise raise its penalty and insert it by ejecting the visits of least summed penalty, which
 * go to the pool, then shake the solution with a few ruin-and-recreate steps that leave no more
 * shipments out than before. The pool emptied, the smaller fleet is kept and the next route tried.
 */
function placeByEjection(state: State, rng: Rng, params: SisrParams, until: (work?: number) => boolean, stepsPerRoute: number): Placer {
  const penalty = new Float64Array(state.model.shipmentCount);
  const removed: number[] = [];
  const best = { delta: Infinity, v: -1, a: 0, c: 0 };
  return (pool) => {
    penalty.fill(1);
    let step = 0;
    let work = 1;
    while (pool.length > 0 && step < stepsPerRoute && !until(work)) {
      step += work;
      work = 1;
      if (Math.floor(step / TURN) % 2 === 1) {
        perturb(state, rng, params, removed, pool, penalty);
        for (const s of pool) penalty[s]!++;
        continue;
      }
      const s = pool.pop()!;
      state.best(s, rng, POOL_BLINK, best);
      if (best.v >= 0) {
        state.insert(s, best.v, best.a, best.c);
        state.commit();
        continue;
      }
      penalty[s]!++;
      const { ejected, explored } = insertWithEjection(state, s, penalty, MAX_EJECTED);
      work += explored / EXPLORED_PER_STEP;
      if (ejected) pool.push(...ejected);
      else pool.unshift(s);
      state.commit();
      for (let k = 0; k < PERTURBATIONS && !until(); k++) {
        step++;
        perturb(state, rng, params, removed, pool, penalty);
      }
    }
    return { all: pool.length === 0, steps: step };
  };
}

/** One ruin-and-recreate step, kept when it leaves no more shipments out (nor a heavier pool); the pool becomes what is out. */
function perturb(state: State, rng: Rng, params: SisrParams, removed: number[], pool: number[], penalty: Float64Array): void {
  const weight = (list: number[]) => list.reduce((a, s) => a + penalty[s]!, 0);
  const before = weight(pool);
  ruin(state, rng, params, removed);
  recreate(state, rng, params, removed);
  const out = pool.filter((s) => state.routeOf[s] === -1);
  for (const s of removed) if (state.routeOf[s] === -1 && !out.includes(s)) out.push(s);
  if (out.length < pool.length || (out.length === pool.length && weight(out) <= before)) {
    state.commit();
    pool.length = 0;
    pool.push(...out);
  } else state.rollback();
}

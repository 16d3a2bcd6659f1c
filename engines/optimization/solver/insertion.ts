/**
 * The cheapest insertion of one shipment into one route. Fast path: O(1) time, load, distance and
 * travel checks per position from the route's caches (O(n) per pickup position for a pair, walking
 * the delivery forward with the shifted earliest starts). Otherwise every candidate is evaluated
 * exactly by the scheduler. Blinks (SISR) skip each position with a small probability.
 */
import { routeCost } from '../schedule.ts';
import type { Model } from './model.ts';
import type { Rng } from './rng.ts';
import type { SolverRoute } from './route.ts';

/** Where the best insertion goes: pickup after position a, delivery after position c (c = a: right after it). */
export interface Placement {
  delta: number;
  a: number;
  c: number;
}

const EPS = 1e-9;

function loadFits(model: Model, route: SolverRoute, node: number, pos: number, pickup: boolean): boolean {
  const K = model.K;
  const cap = route.view.cap;
  for (let k = 0; k < K; k++) {
    const d = model.delta[node * K + k]!;
    const m = pickup ? route.sufMax[pos * K + k]! + d : route.prefMax[pos * K + k]! - d;
    if (m > cap[k]! + EPS) return false;
  }
  return true;
}

function limitsFit(route: SolverRoute, dDist: number, dTravel: number): boolean {
  const view = route.view;
  return route.dist + dDist <= view.maxDist + EPS && route.travel + dTravel <= view.maxTravel + EPS;
}

/** Best placement of a single-visit shipment node into the route (fast path). */
function single(model: Model, route: SolverRoute, node: number, out: Placement, rng: Rng | null, blink: number, collect: number[] | null): void {
  const { view, locAt, es, ls, nodes, n } = route;
  const { time: T, cost: C, S } = view;
  const lu = model.loc[node]!;
  const tws = model.twStart[node]!;
  const twe = model.twEnd[node]!;
  const du = model.dur[node]!;
  const pickup = (node & 1) === 0;
  const limited = view.maxDist !== Infinity || view.maxTravel !== Infinity;
  for (let a = 0; a <= n; a++) {
    if (rng && rng.next() < blink) continue;
    const la = locAt[a]!;
    const lb = locAt[a + 1]!;
    const depart = a === 0 ? es[0]! : es[a]! + model.dur[nodes[a]!]!;
    const arr = depart + T[la * S + lu]!;
    if (arr > twe + EPS) continue;
    const e = arr > tws ? arr : tws;
    if (e + du + T[lu * S + lb]! > ls[a + 1]! + EPS) continue;
    const delta = C[la * S + lu]! + C[lu * S + lb]! - C[la * S + lb]!;
    if (delta >= out.delta) continue;
    if (!loadFits(model, route, node, a, pickup)) continue;
    if (limited && !limitsFit(route, view.dist[la * S + lu]! + view.dist[lu * S + lb]! - view.dist[la * S + lb]!, T[la * S + lu]! + T[lu * S + lb]! - T[la * S + lb]!)) continue;
    if (collect) collect.push(delta, a, a);
    else {
      out.delta = delta;
      out.a = a;
      out.c = a;
    }
  }
}

/** Best placement of a pickup-delivery pair (fast path). */
function pair(model: Model, route: SolverRoute, p: number, d: number, out: Placement, rng: Rng | null, blink: number, collect: number[] | null): void {
  const { view, locAt, es, ls, nodes, n, load } = route;
  const { time: T, cost: C, S, cap } = view;
  const { twStart, twEnd, dur, K, delta: dl } = model;
  const lp = model.loc[p]!;
  const ld = model.loc[d]!;
  const limited = view.maxDist !== Infinity || view.maxTravel !== Infinity;
  const D = view.dist;
  for (let a = 0; a <= n; a++) {
    let ok = true;
    for (let k = 0; k < K; k++) if (load[a * K + k]! + dl[p * K + k]! > cap[k]! + EPS) ok = false;
    if (!ok) continue;
    const la = locAt[a]!;
    const lb = locAt[a + 1]!;
    const depart = a === 0 ? es[0]! : es[a]! + dur[nodes[a]!]!;
    const arrP = depart + T[la * S + lp]!;
    if (arrP > twEnd[p]! + EPS) continue;
    const eP = arrP > twStart[p]! ? arrP : twStart[p]!;
    const endP = eP + dur[p]!;
    // Delivery right after the pickup.
    if (!(rng && rng.next() < blink)) {
      const arrD = endP + T[lp * S + ld]!;
      if (arrD <= twEnd[d]! + EPS) {
        const eD = arrD > twStart[d]! ? arrD : twStart[d]!;
        if (eD + dur[d]! + T[ld * S + lb]! <= ls[a + 1]! + EPS) {
          const delta = C[la * S + lp]! + C[lp * S + ld]! + C[ld * S + lb]! - C[la * S + lb]!;
          if (delta < out.delta && (!limited || limitsFit(route, D[la * S + lp]! + D[lp * S + ld]! + D[ld * S + lb]! - D[la * S + lb]!, T[la * S + lp]! + T[lp * S + ld]! + T[ld * S + lb]! - T[la * S + lb]!))) {
            if (collect) collect.push(delta, a, a);
            else {
              out.delta = delta;
              out.a = a;
              out.c = a;
            }
          }
        }
      }
    }
    if (a === n) continue;
    let ec = endP + T[lp * S + lb]!;
    let node = nodes[a + 1]!;
    if (ec < twStart[node]!) ec = twStart[node]!;
    if (ec > ls[a + 1]! + EPS) continue;
    const costP = C[la * S + lp]! + C[lp * S + lb]! - C[la * S + lb]!;
    if (costP >= out.delta) continue;
    for (let c = a + 1; c <= n; c++) {
      node = nodes[c]!;
      let fits = true;
      for (let k = 0; k < K; k++) if (load[c * K + k]! + dl[p * K + k]! > cap[k]! + EPS) fits = false;
      if (!fits) break;
      const lc = locAt[c]!;
      const ln = locAt[c + 1]!;
      const endC = ec + dur[node]!;
      if (!(rng && rng.next() < blink)) {
        const arrD = endC + T[lc * S + ld]!;
        if (arrD <= twEnd[d]! + EPS) {
          const eD = arrD > twStart[d]! ? arrD : twStart[d]!;
          if (eD + dur[d]! + T[ld * S + ln]! <= ls[c + 1]! + EPS) {
            const delta = costP + C[lc * S + ld]! + C[ld * S + ln]! - C[lc * S + ln]!;
            if (delta < out.delta && (!limited || limitsFit(route, D[la * S + lp]! + D[lp * S + lb]! - D[la * S + lb]! + D[lc * S + ld]! + D[ld * S + ln]! - D[lc * S + ln]!, T[la * S + lp]! + T[lp * S + lb]! - T[la * S + lb]! + T[lc * S + ld]! + T[ld * S + ln]! - T[lc * S + ln]!))) {
              if (collect) collect.push(delta, a, c);
              else {
                out.delta = delta;
                out.a = a;
                out.c = c;
              }
            }
          }
        }
      }
      if (c === n) break;
      const next = nodes[c + 1]!;
      ec = endC + T[lc * S + ln]!;
      if (ec < twStart[next]!) ec = twStart[next]!;
      if (ec > ls[c + 1]! + EPS) break;
    }
  }
}

const scratch: number[] = [];
const found: number[] = [];
const order: number[] = [];
const probe: Placement = { delta: Infinity, a: 0, c: 0 };

/**
 * General problems: the fast checks (on the hull of each visit's windows, breaks ignored) only
 * filter out impossible placements; the survivors are priced exactly by the scheduler, cheapest
 * arc delta first, stopping once the arc delta (a lower bound when no soft start can be relieved)
 * reaches the best exact delta.
 */
function general(model: Model, route: SolverRoute, s: number, out: Placement, rng: Rng | null, blink: number): void {
  const p = model.exists[2 * s] ? 2 * s : -1;
  const d = model.exists[2 * s + 1] ? 2 * s + 1 : -1;
  found.length = 0;
  probe.delta = Infinity;
  if (p >= 0 && d >= 0) pair(model, route, p, d, probe, rng, blink, found);
  else single(model, route, p >= 0 ? p : d, probe, rng, blink, found);
  const count = found.length / 3;
  order.length = 0;
  for (let i = 0; i < count; i++) order.push(i);
  order.sort((x, y) => found[3 * x]! - found[3 * y]! || x - y);
  const n = route.n;
  const base = route.cost;
  const fixed = n === 0 ? route.view.fixed : 0;
  for (const i of order) {
    const a = found[3 * i + 1]!;
    const c = found[3 * i + 2]!;
    if (model.lowerBound && found[3 * i]! + fixed >= out.delta) break;
    scratch.length = 0;
    for (let j = 1; j <= n; j++) {
      if (j === a + 1) scratch.push(p >= 0 ? p : d);
      if (j === c + 1 && p >= 0 && d >= 0) scratch.push(d);
      scratch.push(route.nodes[j]!);
    }
    if (a === n) scratch.push(p >= 0 ? p : d);
    if (c === n && p >= 0 && d >= 0) scratch.push(d);
    const delta = routeCost(model.problem, route.v, route.stops(scratch)) - base;
    if (delta < out.delta) {
      out.delta = delta;
      out.a = a;
      out.c = c;
    }
  }
}

/** Lowers out.delta to the best placement of shipment s in the route, if any is better. */
export function bestPlacement(model: Model, route: SolverRoute, s: number, out: Placement, rng: Rng | null, blink: number): void {
  const hasP = model.exists[2 * s] === 1;
  const hasD = model.exists[2 * s + 1] === 1;
  if (!hasP && !hasD) return;
  if (!model.fast) return general(model, route, s, out, rng, blink);
  const before = out.delta;
  const fixed = route.n === 0 ? route.view.fixed : 0;
  out.delta -= fixed;
  if (hasP && hasD) pair(model, route, 2 * s, 2 * s + 1, out, rng, blink, null);
  else single(model, route, hasP ? 2 * s : 2 * s + 1, out, rng, blink, null);
  if (out.delta === before - fixed) out.delta = before;
  else out.delta += fixed;
}

/** Applies a placement found by bestPlacement. */
export function applyPlacement(model: Model, route: SolverRoute, s: number, a: number, c: number): void {
  const hasP = model.exists[2 * s] === 1;
  const hasD = model.exists[2 * s + 1] === 1;
  if (hasP && hasD) {
    route.insert(c + 1, 2 * s + 1);
    route.insert(a + 1, 2 * s);
  } else route.insert(a + 1, hasP ? 2 * s : 2 * s + 1);
  route.update();
}

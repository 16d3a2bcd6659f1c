/**
 * Slack Induction by String Removals (Christiaens & Vanden Berghe 2020): remove strings of
 * consecutive visits (or split strings that keep a middle part) from routes near a random seed
 * shipment, then reinsert the removed shipments greedily in a random / demand / far / close order
 * with blinks. Removing a visit removes its whole shipment (both visits of a pair).
 */
import type { Rng } from './rng.ts';
import type { State } from './state.ts';

export interface SisrParams {
  /** Mean removed visits (c̄). */
  meanRemoved: number;
  /** Maximum string length (L^max). */
  maxString: number;
  /** Split-string continuation parameter (β in the paper's split string). */
  splitRate: number;
  /** Probability of skipping a position during insertion. */
  blinkRate: number;
}

export const DEFAULT_SISR: SisrParams = { meanRemoved: 10, maxString: 10, splitRate: 0.01, blinkRate: 0.01 };

/** Removes strings around a random seed; returns the removed shipments. */
export function ruin(state: State, rng: Rng, params: SisrParams, removed: number[]): void {
  removed.length = 0;
  const model = state.model;
  const S = model.shipmentCount;
  let seed = rng.int(S);
  for (let tries = 0; tries < S && state.routeOf[seed] === -1; tries++) seed = (seed + 1) % S;
  if (state.routeOf[seed] === -1) return;
  const lsMax = Math.min(params.maxString, state.meanRouteSize());
  const ksMax = (4 * params.meanRemoved) / (1 + lsMax) - 1;
  const ks = Math.floor(rng.next() * ksMax) + 1;
  const ruined: number[] = [];
  const neighbours = model.neighboursOf(seed);
  for (let i = -1; i < neighbours.length && ruined.length < ks; i++) {
    const c = i < 0 ? seed : neighbours[i]!;
    const v = state.routeOf[c]!;
    if (v < 0 || ruined.includes(v)) continue;
    const route = state.routes[v]!;
    const len = route.n;
    const lMax = Math.min(len, lsMax);
    const l = Math.floor(rng.next() * lMax) + 1;
    let pos = 1;
    while (route.nodes[pos]! >> 1 !== c) pos++;
    const picked: number[] = [];
    if (l >= len || rng.next() < 0.5) {
      const first = Math.max(1, Math.min(len - l + 1, pos - rng.int(l)));
      for (let j = first; j < first + l; j++) picked.push(route.nodes[j]! >> 1);
    } else {
      let m = 1;
      while (l + m < len && rng.next() > params.splitRate) m++;
      const span = l + m;
      const first = Math.max(1, Math.min(len - span + 1, pos - rng.int(span)));
      const keep = first + rng.int(l + 1);
      for (let j = first; j < first + span; j++) if (j < keep || j >= keep + m) picked.push(route.nodes[j]! >> 1);
    }
    ruined.push(v);
    for (const s of picked) {
      const w = state.routeOf[s]!;
      if (w < 0) continue;
      state.remove(s);
      removed.push(s);
      if (w !== v && !ruined.includes(w)) state.refresh(w);
    }
    state.refresh(v);
  }
  for (const v of ruined) state.refresh(v);
}

const best = { delta: Infinity, v: -1, a: 0, c: 0 };
let mark = new Int32Array(0);
let stamp = 0;

/** Sorts the removed shipments (SISR's four orders, weights 4/4/2/1) and inserts them greedily. */
export function recreate(state: State, rng: Rng, params: SisrParams, removed: number[]): void {
  const model = state.model;
  // Shipments left out earlier get another chance each time (SISR reinserts every absent one).
  if (mark.length < model.shipmentCount) mark = new Int32Array(model.shipmentCount);
  stamp++;
  for (const s of removed) mark[s] = stamp;
  for (let s = 0; s < model.shipmentCount; s++) if (state.routeOf[s] === -1 && mark[s] !== stamp) removed.push(s);
  const r = rng.int(11);
  if (r < 4) {
    for (let i = removed.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      const t = removed[i]!;
      removed[i] = removed[j]!;
      removed[j] = t;
    }
  } else if (r < 8) removed.sort((a, b) => model.demandSize[b]! - model.demandSize[a]! || a - b);
  else if (r < 10) removed.sort((a, b) => model.depotDistance[b]! - model.depotDistance[a]! || a - b);
  else removed.sort((a, b) => model.depotDistance[a]! - model.depotDistance[b]! || a - b);
  for (const s of removed) {
    state.best(s, rng, params.blinkRate, best);
    if (best.v < 0) continue;
    if (!model.mandatory[s] && best.delta >= model.penalty[s]!) continue;
    state.insert(s, best.v, best.a, best.c);
  }
}

/** Removes every visit of one random used route (fleet minimisation); returns the removed shipments. */
export function ruinRoute(state: State, rng: Rng, removed: number[]): void {
  removed.length = 0;
  const used = state.routes.filter((r) => r.n > 0);
  if (used.length === 0) return;
  // Prefer short routes: pick the smaller of two random ones.
  const a = used[rng.int(used.length)]!;
  const b = used[rng.int(used.length)]!;
  const route = a.n <= b.n ? a : b;
  for (let i = 1; i <= route.n; i++) {
    const s = route.nodes[i]! >> 1;
    if (!removed.includes(s)) removed.push(s);
  }
  for (const s of removed) state.remove(s);
  state.refresh(route.v);
}

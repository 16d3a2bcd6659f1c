/**
 * Insertion with ejection (Nagata & Bräysy 2009): place a shipment that fits nowhere by taking up
 * to `maxEjected` visits out of one route, choosing the ejection whose summed penalties (how often
 * each ejected shipment has already failed to find a place) is lowest, then the cheapest such
 * route. One route's candidates are enumerated depth-first along its visits: keep or eject each
 * visit, and place the new one in any gap; a branch ends as soon as the rest of the route is
 * unchanged and still on time (its latest starts say so), or its penalty passes the best found
 * (equal penalties are still explored for a single ejection, where the cheaper result wins).
 * Fast-path models of single-visit shipments only; pairs keep to the ruin-and-recreate search.
 */
import type { Model } from './model.ts';
import type { SolverRoute } from './route.ts';
import type { State } from './state.ts';

const EPS = 1e-9;
/** Positions one insertion's search may visit over all routes: long routes with wide windows could otherwise take seconds. */
const MAX_EXPLORED = 200_000;

/** Whether the ejection search models the problem exactly. */
export function ejectionApplies(model: Model): boolean {
  if (!model.fast) return false;
  for (let s = 0; s < model.shipmentCount; s++) if (model.exists[2 * s] && model.exists[2 * s + 1]) return false;
  return true;
}

interface Best {
  penalty: number;
  delta: number;
  v: number;
  /** The winning route's new visits (node ids). */
  nodes: number[];
  ejected: number[];
  /** Positions visited by the search so far (its cost, charged to the caller's budget). */
  explored: number;
}

/**
 * Inserts shipment s, ejecting at most `maxEjected` single-visit shipments from one route. Returns
 * the ejected shipments (null when no route can take s even so) and the positions the search
 * visited.
 */
export function insertWithEjection(state: State, s: number, penalty: Float64Array, maxEjected: number): { ejected: number[] | null; explored: number } {
  const model = state.model;
  const node = model.exists[2 * s] ? 2 * s : 2 * s + 1;
  const best: Best = { penalty: Infinity, delta: Infinity, v: -1, nodes: [], ejected: [], explored: 0 };
  state.forCandidates(s, (r) => {
    if (r.n > 0 && best.explored < MAX_EXPLORED) new RouteEjection(model, r, node, penalty, maxEjected, best).search();
  });
  if (best.v < 0) return { ejected: null, explored: best.explored };
  const ejected = best.ejected.map((n) => n >> 1);
  for (const e of ejected) state.remove(e);
  state.refresh(best.v);
  const at = best.nodes.indexOf(node);
  state.insert(s, best.v, at, at);
  return { ejected, explored: best.explored };
}

class RouteEjection {
  private readonly ejected: number[] = [];
  private readonly lu: number;
  private readonly S: number;

  constructor(
    private readonly model: Model,
    private readonly route: SolverRoute,
    private readonly u: number,
    private readonly penalty: Float64Array,
    private readonly maxEjected: number,
    private readonly best: Best,
  ) {
    this.lu = model.loc[u]!;
    this.S = route.view.S;
  }

  search(): void {
    this.gap(1, this.route.view.startTime, this.route.view.startLoc, 0, 0);
  }

  /** Before original position i: place u here (uAt = i) unless it is placed already (uAt ≥ 1), then go on with position i. */
  private gap(i: number, depart: number, prevLoc: number, uAt: number, penalty: number): void {
    if (uAt === 0) {
      const { model, u, lu } = this;
      const arrival = depart + this.route.view.time[prevLoc * this.S + lu]!;
      if (arrival <= model.twEnd[u]! + EPS) {
        const start = arrival > model.twStart[u]! ? arrival : model.twStart[u]!;
        this.position(i, start + model.dur[u]!, lu, i, penalty);
      }
    }
    this.position(i, depart, prevLoc, uAt, penalty);
  }

  /** At original position i (n + 1: the route's end), keep or eject its visit. */
  private position(i: number, depart: number, prevLoc: number, uAt: number, penalty: number): void {
    const { model, route } = this;
    const view = route.view;
    if (++this.best.explored > MAX_EXPLORED) return;
    if (i === route.n + 1) {
      if (uAt > 0 && depart + view.time[prevLoc * this.S + view.endLoc]! <= view.endTime + EPS) this.leaf(penalty, uAt);
      return;
    }
    const node = route.nodes[i]!;
    const arrival = depart + view.time[prevLoc * this.S + model.loc[node]!]!;
    if (arrival <= model.twEnd[node]! + EPS) {
      const start = arrival > model.twStart[node]! ? arrival : model.twStart[node]!;
      // The rest of the route is unchanged: on time from here if this start is no later than its latest.
      if (uAt > 0 && start <= route.ls[i]! + EPS) this.leaf(penalty, uAt);
      else this.gap(i + 1, start + model.dur[node]!, model.loc[node]!, uAt, penalty);
    }
    const p = penalty + this.penalty[node >> 1]!;
    if (this.ejected.length < this.maxEjected && (p < this.best.penalty || (p === this.best.penalty && this.ejected.length === 0))) {
      this.ejected.push(node);
      this.gap(i + 1, depart, prevLoc, uAt, p);
      this.ejected.pop();
    }
  }

  /** A time-feasible candidate (u before original position uAt): check loads and limits, price it, keep it if it beats the best. */
  private leaf(penalty: number, uAt: number): void {
    const best = this.best;
    if (this.ejected.length === 0 || penalty > best.penalty) return;
    const { model, route } = this;
    const view = route.view;
    const nodes: number[] = [];
    for (let i = 1; i <= route.n + 1; i++) {
      if (i === uAt) nodes.push(this.u);
      if (i <= route.n && !this.ejected.includes(route.nodes[i]!)) nodes.push(route.nodes[i]!);
    }
    let cost = 0;
    let dist = 0;
    let travel = 0;
    let prev = view.startLoc;
    for (let j = 0; j <= nodes.length; j++) {
      const loc = j < nodes.length ? model.loc[nodes[j]!]! : view.endLoc;
      const a = prev * this.S + loc;
      cost += view.cost[a]!;
      dist += view.dist[a]!;
      travel += view.time[a]!;
      prev = loc;
    }
    if (dist > view.maxDist + EPS || travel > view.maxTravel + EPS) return;
    const delta = cost + view.fixed - route.cost;
    if (penalty === best.penalty && delta >= best.delta) return;
    if (!loadsFit(model, view.cap, nodes)) return;
    best.penalty = penalty;
    best.delta = delta;
    best.v = route.v;
    best.nodes = nodes;
    best.ejected = [...this.ejected];
  }
}

/** Loads along the visits: deliveries on board from the start, pickups added where they are. */
function loadsFit(model: Model, cap: Float64Array, nodes: number[]): boolean {
  const K = model.K;
  for (let k = 0; k < K; k++) {
    let load = 0;
    for (const n of nodes) if (n & 1) load -= model.delta[n * K + k]!;
    if (load > cap[k]! + EPS) return false;
    for (const n of nodes) {
      load += model.delta[n * K + k]!;
      if (load > cap[k]! + EPS) return false;
    }
  }
  return true;
}

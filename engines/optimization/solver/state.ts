/**
 * A solution during the search: one SolverRoute per vehicle, which route serves each shipment (−1:
 * unassigned), and an undo log so a rejected ruin-and-recreate step restores only the routes it
 * touched.
 */
import type { Model } from './model.ts';
import { applyPlacement, bestPlacement, type Placement } from './insertion.ts';
import type { Rng } from './rng.ts';
import { SolverRoute } from './route.ts';

export interface Snapshot {
  routes: Int32Array[];
  cost: number;
}

export class State {
  readonly routes: SolverRoute[];
  readonly routeOf: Int32Array;
  private readonly saved: (Int32Array | null)[];
  private readonly touched: number[] = [];
  private readonly place: Placement = { delta: Infinity, a: 0, c: 0 };
  private readonly seenClass: Int32Array;
  private stamp = 0;
  /** Set during fleet minimisation: empty vehicles are not candidates. */
  noNewRoutes = false;

  constructor(readonly model: Model) {
    const V = model.vehicles.length;
    this.routes = Array.from({ length: V }, (_, v) => new SolverRoute(model, v));
    this.routeOf = new Int32Array(model.shipmentCount).fill(-1);
    this.saved = new Array(V).fill(null);
    this.seenClass = new Int32Array(V + 1);
  }

  cost(): number {
    let c = 0;
    for (const r of this.routes) c += r.cost;
    for (let s = 0; s < this.routeOf.length; s++) if (this.routeOf[s] === -1) c += this.model.penalty[s]!;
    return c;
  }

  /** Calls f for each route worth trying for shipment s: used allowed ones, one empty per vehicle class. */
  forCandidates(s: number, f: (r: SolverRoute) => void): void {
    const V = this.routes.length;
    this.stamp++;
    for (let v = 0; v < V; v++) {
      if (!this.model.allowed[s * V + v]) continue;
      const r = this.routes[v]!;
      if (r.n === 0) {
        if (this.noNewRoutes) continue;
        const cls = this.model.vehicleClass[v]!;
        if (this.seenClass[cls] === this.stamp) continue;
        this.seenClass[cls] = this.stamp;
      }
      f(r);
    }
  }

  /** The cheapest insertion of s over its candidate routes: [delta, vehicle, a, c], vehicle −1 when none. */
  best(s: number, rng: Rng | null, blink: number, out: { delta: number; v: number; a: number; c: number }): void {
    out.delta = Infinity;
    out.v = -1;
    const place = this.place;
    this.forCandidates(s, (r) => {
      place.delta = out.delta;
      bestPlacement(this.model, r, s, place, rng, blink);
      if (place.delta < out.delta) {
        out.delta = place.delta;
        out.v = r.v;
        out.a = place.a;
        out.c = place.c;
      }
    });
  }

  touch(v: number): void {
    if (this.saved[v]) return;
    const r = this.routes[v]!;
    this.saved[v] = r.nodes.slice(1, r.n + 1);
    this.touched.push(v);
  }

  insert(s: number, v: number, a: number, c: number): void {
    this.touch(v);
    applyPlacement(this.model, this.routes[v]!, s, a, c);
    this.routeOf[s] = v;
  }

  /** Removes shipment s's visits (without refreshing the route's caches: call refresh()). */
  remove(s: number): void {
    const v = this.routeOf[s]!;
    if (v < 0) return;
    this.touch(v);
    const r = this.routes[v]!;
    for (let i = r.n; i >= 1; i--) if (r.nodes[i]! >> 1 === s) r.removeAt(i);
    this.routeOf[s] = -1;
  }

  refresh(v: number): void {
    this.routes[v]!.update();
  }

  /** Forgets the undo log (the step was accepted). */
  commit(): void {
    for (const v of this.touched) this.saved[v] = null;
    this.touched.length = 0;
  }

  /** Undoes every change since the last commit. */
  rollback(): void {
    for (const v of this.touched) {
      const r = this.routes[v]!;
      for (let i = 1; i <= r.n; i++) if (this.routeOf[r.nodes[i]! >> 1] === v) this.routeOf[r.nodes[i]! >> 1] = -1;
    }
    for (const v of this.touched) {
      const nodes = this.saved[v]!;
      this.routes[v]!.set(nodes);
      for (const n of nodes) this.routeOf[n >> 1] = v;
      this.saved[v] = null;
    }
    this.touched.length = 0;
  }

  snapshot(): Snapshot {
    return { routes: this.routes.map((r) => r.nodes.slice(1, r.n + 1)), cost: this.cost() };
  }

  restore(snap: Snapshot): void {
    this.routeOf.fill(-1);
    snap.routes.forEach((nodes, v) => {
      this.routes[v]!.set(nodes);
      for (const n of nodes) this.routeOf[n >> 1] = v;
    });
    this.commit();
  }

  /** Mean visits per used route (SISR's string length bound). */
  meanRouteSize(): number {
    let used = 0;
    let visits = 0;
    for (const r of this.routes) if (r.n > 0) {
      used++;
      visits += r.n;
    }
    return used ? visits / used : 0;
  }
}

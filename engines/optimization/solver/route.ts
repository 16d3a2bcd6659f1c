/**
 * One vehicle's route during the search, with the caches that make insertion checks O(1) on the
 * fast path: earliest and latest service starts per position, loads after each position with
 * prefix and suffix maxima, and totals of cost, distance and travel. Position 0 is the start,
 * n + 1 the end; nodes[1..n] are the visits.
 */
import { routeCost } from '../schedule.ts';
import type { RouteStop } from '../problem.ts';
import type { Model, VehicleView } from './model.ts';

export class SolverRoute {
  readonly v: number;
  readonly view: VehicleView;
  n = 0;
  nodes: Int32Array;
  locAt: Int32Array;
  es: Float64Array;
  ls: Float64Array;
  load: Float64Array;
  prefMax: Float64Array;
  sufMax: Float64Array;
  /** SolverRoute cost including the fixed cost when used. */
  cost = 0;
  dist = 0;
  travel = 0;

  constructor(readonly model: Model, v: number) {
    this.v = v;
    this.view = model.vehicles[v]!;
    // Grown on demand: a big fleet must not reserve room for every shipment in every route.
    const cap = Math.min(2 * model.shipmentCount + 2, 32);
    this.nodes = new Int32Array(cap);
    this.locAt = new Int32Array(cap);
    this.es = new Float64Array(cap);
    this.ls = new Float64Array(cap);
    this.load = new Float64Array(cap * model.K);
    this.prefMax = new Float64Array(cap * model.K);
    this.sufMax = new Float64Array(cap * model.K);
    this.update();
  }

  stops(nodes: ArrayLike<number> = this.nodes.subarray(1, this.n + 1)): RouteStop[] {
    return Array.from(nodes, (n) => ({ shipment: n >> 1, isPickup: (n & 1) === 0 }));
  }

  private ensure(size: number): void {
    if (size <= this.nodes.length) return;
    const cap = Math.max(size, 2 * this.nodes.length);
    const K = this.model.K;
    const nodes = new Int32Array(cap);
    nodes.set(this.nodes);
    this.nodes = nodes;
    this.locAt = new Int32Array(cap);
    this.es = new Float64Array(cap);
    this.ls = new Float64Array(cap);
    this.load = new Float64Array(cap * K);
    this.prefMax = new Float64Array(cap * K);
    this.sufMax = new Float64Array(cap * K);
  }

  /** Replaces the visits (node ids) and refreshes the caches. */
  set(visits: ArrayLike<number>): void {
    this.ensure(visits.length + 2);
    this.n = visits.length;
    for (let i = 0; i < visits.length; i++) this.nodes[i + 1] = visits[i]!;
    this.update();
  }

  /** Inserts without refreshing the caches (call update()). */
  insert(pos: number, node: number): void {
    this.ensure(this.n + 3);
    this.nodes.copyWithin(pos + 1, pos, this.n + 1);
    this.nodes[pos] = node;
    this.n++;
  }

  removeAt(pos: number): void {
    this.nodes.copyWithin(pos, pos + 1, this.n + 1);
    this.n--;
  }

  update(): void {
    const { model, view, n } = this;
    const { loc, dur, twStart, twEnd, delta, K } = model;
    const S = view.S;
    const locAt = this.locAt;
    locAt[0] = view.startLoc;
    for (let i = 1; i <= n; i++) locAt[i] = loc[this.nodes[i]!]!;
    locAt[n + 1] = view.endLoc;
    let cost = 0;
    let dist = 0;
    let travel = 0;
    for (let i = 0; i <= n; i++) {
      const a = locAt[i]! * S + locAt[i + 1]!;
      cost += view.cost[a]!;
      dist += view.dist[a]!;
      travel += view.time[a]!;
    }
    this.dist = dist;
    this.travel = travel;
    if (n === 0) {
      this.cost = 0;
    } else if (model.fast) {
      this.cost = cost + view.fixed;
    } else {
      this.cost = routeCost(model.problem, this.v, this.stops());
    }
    const es = this.es;
    es[0] = view.startTime;
    let prevEnd = view.startTime;
    for (let i = 1; i <= n + 1; i++) {
      const t = prevEnd + view.time[locAt[i - 1]! * S + locAt[i]!]!;
      if (i <= n) {
        const node = this.nodes[i]!;
        es[i] = t > twStart[node]! ? t : twStart[node]!;
        prevEnd = es[i]! + dur[node]!;
      } else es[i] = t;
    }
    const ls = this.ls;
    ls[n + 1] = view.endTime;
    for (let i = n; i >= 1; i--) {
      const node = this.nodes[i]!;
      const l = ls[i + 1]! - view.time[locAt[i]! * S + locAt[i + 1]!]! - dur[node]!;
      ls[i] = l < twEnd[node]! ? l : twEnd[node]!;
    }
    ls[0] = view.startTime;
    for (let k = 0; k < K; k++) {
      let initial = 0;
      for (let i = 1; i <= n; i++) {
        const node = this.nodes[i]!;
        if (node & 1 && !model.exists[node - 1]) initial -= delta[node * K + k]!;
      }
      let l = initial;
      this.load[k] = l;
      this.prefMax[k] = l;
      for (let i = 1; i <= n; i++) {
        l += delta[this.nodes[i]! * K + k]!;
        this.load[i * K + k] = l;
        this.prefMax[i * K + k] = Math.max(this.prefMax[(i - 1) * K + k]!, l);
      }
      this.load[(n + 1) * K + k] = l;
      this.prefMax[(n + 1) * K + k] = this.prefMax[n * K + k]!;
      this.sufMax[(n + 1) * K + k] = l;
      for (let i = n; i >= 0; i--) this.sufMax[i * K + k] = Math.max(this.sufMax[(i + 1) * K + k]!, this.load[i * K + k]!);
    }
  }

  /** True when the fast-path time checks hold for the current visits (used by tests). */
  timeFeasible(): boolean {
    for (let i = 1; i <= this.n + 1; i++) if (this.es[i]! > this.ls[i]! + 1e-9) return false;
    return true;
  }
}

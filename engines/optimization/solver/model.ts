/**
 * The search's flat view of a Problem: node n = 2·shipment (pickup) or 2·shipment + 1 (delivery),
 * typed arrays for locations, service, windows and load deltas, one extended matrix per vehicle
 * profile whose extra last location stands for an open start or end (zero travel to everything),
 * and per-shipment neighbour lists for the string removals.
 */
import type { Problem, Vehicle } from '../problem.ts';

export interface Model {
  problem: Problem;
  shipmentCount: number;
  K: number;
  /** Node arrays, indexed by node id; exists[n] = 0 for a missing pickup or delivery. */
  exists: Uint8Array;
  loc: Int32Array;
  dur: Float64Array;
  twStart: Float64Array;
  twEnd: Float64Array;
  /** delta[n·K + k]: + demand at a pickup, − demand at a delivery. */
  delta: Float64Array;
  /** Per vehicle: extended matrix size, travel times, arc costs, distances, start/end location. */
  vehicles: VehicleView[];
  /** True when the fast O(1) insertion checks model the problem exactly. */
  fast: boolean;
  /** True when an insertion's arc-cost delta never exceeds its exact delta (no soft start to relieve). */
  lowerBound: boolean;
  /** Skipping cost per shipment (mandatory: BIG). */
  penalty: Float64Array;
  mandatory: Uint8Array;
  /** allowed[s·V + v]. */
  allowed: Uint8Array;
  /** Class id per vehicle: identical vehicles share one; only one empty vehicle per class is tried. */
  vehicleClass: Int32Array;
  /** Shipments by closeness (at most 100), computed on first use so construction never waits for them. */
  neighboursOf: (s: number) => Int32Array;
  /** Total demand per shipment (sort key) and distance from the first depot (sort key). */
  demandSize: Float64Array;
  depotDistance: Float64Array;
}

export interface VehicleView {
  S: number;
  time: Float64Array;
  cost: Float64Array;
  dist: Float64Array;
  startLoc: number;
  endLoc: number;
  startTime: number;
  endTime: number;
  fixed: number;
  cap: Float64Array;
  maxDist: number;
  maxTravel: number;
}

export const BIG = 1e9;

function isFastVehicle(v: Vehicle): boolean {
  const soft = (w: { softStart?: number; softEnd?: number }) => w.softStart !== undefined || w.softEnd !== undefined;
  return (
    v.breaks.length === 0 && v.costPerHour === 0 && v.routeDurationLimit.max === Infinity && v.routeDurationLimit.softMax === undefined &&
    v.travelDurationLimit.softMax === undefined && v.routeDistanceLimit.softMax === undefined &&
    v.loadLimits.every((l) => l.softMax === undefined) && !soft(v.startWindow) && !soft(v.endWindow)
  );
}

export function buildModel(problem: Problem): Model {
  const S = problem.shipments.length;
  const V = problem.vehicles.length;
  const K = problem.loadTypes.length;
  const N = 2 * S;
  const exists = new Uint8Array(N);
  const loc = new Int32Array(N);
  const dur = new Float64Array(N);
  const twStart = new Float64Array(N);
  const twEnd = new Float64Array(N);
  const delta = new Float64Array(N * K);
  let fast = problem.vehicles.every(isFastVehicle);
  const relievable = (w: { softStart?: number; costPerHourBeforeSoftStart?: number }) => w.softStart !== undefined && (w.costPerHourBeforeSoftStart ?? 0) > 0;
  let lowerBound = problem.vehicles.every((v) => !relievable(v.startWindow) && !relievable(v.endWindow) && v.startWindow.softEnd === undefined);
  problem.shipments.forEach((s, i) => {
    [s.pickup, s.delivery].forEach((visit, j) => {
      if (!visit) return;
      const n = 2 * i + j;
      exists[n] = 1;
      loc[n] = visit.location;
      dur[n] = visit.duration;
      const w = visit.windows;
      twStart[n] = w.length ? w[0]!.start : 0;
      twEnd[n] = w.length ? w[w.length - 1]!.end : problem.horizon;
      if (w.length > 1 || w.some((x) => x.softStart !== undefined || x.softEnd !== undefined)) fast = false;
      if (w.some(relievable)) lowerBound = false;
      for (let k = 0; k < K; k++) delta[n * K + k] = (j === 0 ? 1 : -1) * (s.demand[k] ?? 0);
    });
  });
  const views = problem.vehicles.map((v) => vehicleView(problem, v, K));
  const penalty = new Float64Array(S);
  const mandatory = new Uint8Array(S);
  const allowed = new Uint8Array(S * V);
  const demandSize = new Float64Array(S);
  const depotDistance = new Float64Array(S);
  const m0 = problem.matrices[problem.vehicles[0]?.matrix ?? 0];
  const depot = problem.vehicles[0]?.start ?? problem.vehicles[0]?.end ?? null;
  problem.shipments.forEach((s, i) => {
    mandatory[i] = s.penaltyCost === null ? 1 : 0;
    penalty[i] = s.penaltyCost ?? BIG;
    for (let v = 0; v < V; v++) allowed[i * V + v] = !s.allowedVehicles || s.allowedVehicles.includes(v) ? 1 : 0;
    demandSize[i] = s.demand.reduce((a, b) => a + Math.abs(b), 0);
    const l = (s.pickup ?? s.delivery)?.location ?? 0;
    if (m0 && depot !== null) depotDistance[i] = m0.durations[depot * m0.size + l]! + m0.durations[l * m0.size + depot]!;
  });
  const classes = new Map<string, number>();
  const vehicleClass = Int32Array.from(problem.vehicles, (v) => {
    const key = JSON.stringify(v, (_k, x) => (x === Infinity ? 'inf' : x));
    if (!classes.has(key)) classes.set(key, classes.size);
    return classes.get(key)!;
  });
  return {
    problem, shipmentCount: S, K, exists, loc, dur, twStart, twEnd, delta, vehicles: views, fast, lowerBound, penalty, mandatory, allowed, vehicleClass,
    neighboursOf: neighbourLists(problem, exists, loc), demandSize, depotDistance,
  };
}

const extended = new WeakMap<object, { time: Float64Array; dist: Float64Array }>();
const costs = new WeakMap<object, Map<string, Float64Array>>();

function vehicleView(problem: Problem, v: Vehicle, K: number): VehicleView {
  const m = problem.matrices[v.matrix]!;
  const S = m.size + 1;
  let ext = extended.get(m);
  if (!ext) {
    const time = new Float64Array(S * S);
    const dist = new Float64Array(S * S);
    for (let i = 0; i < m.size; i++) {
      time.set(m.durations.subarray(i * m.size, (i + 1) * m.size), i * S);
      dist.set(m.distances.subarray(i * m.size, (i + 1) * m.size), i * S);
    }
    ext = { time, dist };
    extended.set(m, ext);
  }
  const a = v.costPerKilometer / 1000;
  const b = v.costPerTraveledHour / 3600;
  // Shared by every vehicle with the same matrix and rates: a large fleet must not copy matrices.
  const key = `${a}:${b}`;
  let byRate = costs.get(m);
  if (!byRate) costs.set(m, (byRate = new Map()));
  let cost = byRate.get(key);
  if (!cost) {
    cost = new Float64Array(S * S);
    for (let i = 0; i < S * S; i++) cost[i] = a * ext.dist[i]! + b * ext.time[i]!;
    byRate.set(key, cost);
  }
  const cap = new Float64Array(K);
  for (let k = 0; k < K; k++) cap[k] = v.loadLimits[k]?.max ?? Infinity;
  return {
    S, time: ext.time, cost, dist: ext.dist, startLoc: v.start ?? m.size, endLoc: v.end ?? m.size,
    startTime: v.startWindow.start, endTime: v.endWindow.end, fixed: v.fixedCost, cap,
    maxDist: v.routeDistanceLimit.max, maxTravel: v.travelDurationLimit.max,
  };
}

/** Shipments by closeness (minimum symmetric travel between any of their visits), at most 100, per shipment on demand. */
function neighbourLists(problem: Problem, exists: Uint8Array, loc: Int32Array): (s: number) => Int32Array {
  const S = problem.shipments.length;
  const m = problem.matrices[problem.vehicles[0]?.matrix ?? 0];
  const limit = Math.min(100, S - 1);
  const gap = new Float64Array(S);
  const out: (Int32Array | undefined)[] = new Array(S);
  return (s) => (out[s] ??= listOf(s));
  function listOf(s: number): Int32Array {
    for (let t = 0; t < S; t++) {
      let best = Infinity;
      if (m) {
        for (let a = 2 * s; a < 2 * s + 2; a++) {
          if (!exists[a]) continue;
          for (let b = 2 * t; b < 2 * t + 2; b++) {
            if (!exists[b]) continue;
            const d = m.durations[loc[a]! * m.size + loc[b]!]! + m.durations[loc[b]! * m.size + loc[a]!]!;
            if (d < best) best = d;
          }
        }
      }
      gap[t] = t === s ? -1 : best;
    }
    return closest(gap, limit + 1).subarray(1);
  }
}

/**
 * The `count` indices of the smallest values in order (ties: lower index first), as a full sort
 * would give them, by insertion into a bounded sorted list: O(n log count) instead of O(n log n),
 * as the lists of a 2,000-shipment problem add up to a few hundred milliseconds otherwise.
 */
function closest(values: Float64Array, count: number): Int32Array {
  const top = new Int32Array(count);
  let size = 0;
  const before = (x: number, y: number) => values[x]! < values[y]! || (values[x] === values[y] && x < y);
  for (let i = 0; i < values.length; i++) {
    if (size === count && !before(i, top[count - 1]!)) continue;
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(top[mid]!, i)) lo = mid + 1;
      else hi = mid;
    }
    if (size < count) size++;
    top.copyWithin(lo + 1, lo, size - 1);
    top[lo] = i;
  }
  return top.subarray(0, size);
}

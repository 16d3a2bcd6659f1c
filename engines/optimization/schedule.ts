/**
 * The exact timing and cost of one vehicle's route (volume 3 "Optimization"). The API writes its
 * response from this, the benchmark checks solutions with it, and the search falls back to it
 * (through routeCost) for problems its fast insertion checks do not model.
 *
 * Timing rules: each visit starts at the earliest instant inside one of its hard windows at or
 * after arrival, except that it waits for a soft start when that costs more per hour than the
 * vehicle's costPerHour. Breaks are taken greedily in a transition when they fit in its waiting
 * time or can no longer be deferred past the next visit; remaining breaks are taken after the
 * last stop. The vehicle's start time is the cheapest of a few candidates: the earliest start,
 * that start shifted by the forward time slack (no added waiting), and the soft start bounds.
 */
import { COST_KEYS, type Problem, type RouteSchedule, type RouteStop, type ScheduledTransition, type ScheduledVisit, type TimeWindow, type Vehicle, type Visit } from './problem.ts';

interface Simulation {
  start: number;
  end: number;
  visits: ScheduledVisit[];
  transitions: ScheduledTransition[];
  breaks: { startTime: number; duration: number }[];
  travel: number;
  distance: number;
  /** Latest delay of the start that keeps every hard bound: feeds the second candidate. */
  slack: number;
  waitTotal: number;
}

function visitOf(problem: Problem, stop: RouteStop): Visit | null {
  const s = problem.shipments[stop.shipment];
  if (!s) return null;
  return stop.isPickup ? s.pickup : s.delivery;
}

/** The window a visit starting at `start` lies in, or null. */
function windowAt(windows: TimeWindow[], start: number): TimeWindow | null {
  for (const w of windows) if (start >= w.start && start <= w.end) return w;
  return null;
}

/** When a visit arriving at `ready` starts, or null when no window remains. */
export function visitStart(visit: Visit, ready: number, vehicle: Vehicle, horizon: number): number | null {
  if (visit.windows.length === 0) return ready <= horizon ? ready : null;
  for (const w of visit.windows) {
    if (ready > w.end) continue;
    let start = Math.max(ready, w.start);
    if (w.softStart !== undefined && start < w.softStart && (w.costPerHourBeforeSoftStart ?? 0) > vehicle.costPerHour) {
      start = Math.min(w.softStart, w.end);
    }
    return start;
  }
  return null;
}

/** Checks shipment completeness, order, vehicle permission and loads; returns max load per type or null. */
function checkLoads(problem: Problem, vehicleIndex: number, stops: RouteStop[]): number[] | null {
  const K = problem.loadTypes.length;
  const seen = new Map<number, number>();
  const load = new Array<number>(K).fill(0);
  for (const stop of stops) {
    const s = problem.shipments[stop.shipment];
    if (!s || !visitOf(problem, stop)) return null;
    if (s.allowedVehicles && !s.allowedVehicles.includes(vehicleIndex)) return null;
    const mask = (seen.get(stop.shipment) ?? 0) | (stop.isPickup ? 1 : 2);
    if (mask === (seen.get(stop.shipment) ?? 0)) return null; // visited twice
    if (!stop.isPickup && s.pickup && !((seen.get(stop.shipment) ?? 0) & 1)) return null; // delivery before pickup
    seen.set(stop.shipment, mask);
    if (!s.pickup) for (let k = 0; k < K; k++) load[k]! += s.demand[k] ?? 0;
  }
  for (const [i, mask] of seen) {
    const s = problem.shipments[i]!;
    if (mask !== ((s.pickup ? 1 : 0) | (s.delivery ? 2 : 0))) return null;
  }
  const maxLoad = load.slice();
  const vehicle = problem.vehicles[vehicleIndex]!;
  const over = () => load.some((l, k) => l > (vehicle.loadLimits[k]?.max ?? Infinity) + 1e-9);
  if (over()) return null;
  for (const stop of stops) {
    const s = problem.shipments[stop.shipment]!;
    const sign = stop.isPickup ? 1 : -1;
    for (let k = 0; k < K; k++) {
      load[k]! += sign * (s.demand[k] ?? 0);
      maxLoad[k] = Math.max(maxLoad[k]!, load[k]!);
    }
    if (over()) return null;
  }
  return maxLoad;
}

function simulate(problem: Problem, vehicle: Vehicle, stops: RouteStop[], t0: number): Simulation | null {
  const m = problem.matrices[vehicle.matrix]!;
  const n = stops.length;
  const locs = stops.map((s) => visitOf(problem, s)!.location);
  const breaks = vehicle.breaks.length > 1 ? vehicle.breaks.slice().sort((a, b) => a.earliestStart - b.earliestStart) : vehicle.breaks;
  const sim: Simulation = { start: t0, end: t0, visits: [], transitions: [], breaks: [], travel: 0, distance: 0, slack: Infinity, waitTotal: 0 };
  let prev = vehicle.start ?? locs[0]!;
  let cur = t0;
  let bi = 0;
  // Forward slack bookkeeping: waits so far plus each hard bound's margin.
  let cumWait = 0;
  sim.slack = vehicle.startWindow.end - t0;
  for (let i = 0; i <= n; i++) {
    const next = i < n ? locs[i]! : vehicle.end;
    const tr = next === null ? 0 : m.durations[prev * m.size + next]!;
    const dist = next === null ? 0 : m.distances[prev * m.size + next]!;
    const visit = i < n ? visitOf(problem, stops[i]!)! : null;
    const transitionStart = cur;
    let t = cur;
    let trLeft = tr;
    let brk = 0;
    // Breaks due here: taken when they fit in the waiting time or cannot wait for the next visit.
    while (bi < breaks.length) {
      const b = breaks[bi]!;
      if (visit) {
        const without = visitStart(visit, t + trLeft, vehicle, problem.horizon);
        if (without === null) return null;
        const mustTake = Math.max(without + visit.duration, b.earliestStart) > b.latestStart;
        let bs = Math.max(t + trLeft, b.earliestStart);
        let ready = bs + b.minDuration;
        if (bs > b.latestStart) {
          bs = Math.max(t, b.earliestStart);
          ready = bs + b.minDuration + trLeft;
        }
        const fits = bs <= b.latestStart && ready <= without;
        if (!fits && !mustTake) break;
      }
      // Take it here, after the travel when that still starts it in time.
      let bs = Math.max(t + trLeft, b.earliestStart);
      let after = true;
      if (bs > b.latestStart) {
        bs = Math.max(t, b.earliestStart);
        after = false;
        if (bs > b.latestStart) return null;
      }
      sim.slack = Math.min(sim.slack, cumWait + b.latestStart - bs);
      sim.breaks.push({ startTime: bs, duration: b.minDuration });
      t = bs + b.minDuration;
      if (after) trLeft = 0;
      brk += b.minDuration;
      bi++;
    }
    const arrival = t + trLeft;
    let wait: number;
    if (visit) {
      const start = visitStart(visit, arrival, vehicle, problem.horizon);
      if (start === null) return null;
      // Includes idle time before a break that could not start earlier.
      wait = start - transitionStart - tr - brk;
      cumWait += wait;
      const w = windowAt(visit.windows, start);
      sim.slack = Math.min(sim.slack, cumWait + (w ? w.end : problem.horizon) - start);
      sim.visits.push({ shipment: stops[i]!.shipment, isPickup: stops[i]!.isPickup, startTime: start, detour: 0 });
      cur = start + visit.duration;
      prev = next!;
    } else {
      const end = vehicle.end === null ? arrival : Math.max(arrival, vehicle.endWindow.start);
      wait = end - transitionStart - tr - brk;
      if (end < vehicle.endWindow.start - 1e-9 || end > vehicle.endWindow.end + 1e-9) return null;
      sim.slack = Math.min(sim.slack, cumWait + vehicle.endWindow.end - end);
      cur = end;
    }
    sim.waitTotal += wait;
    sim.travel += tr;
    sim.distance += dist;
    sim.transitions.push({ startTime: transitionStart, travelDuration: tr, travelDistance: dist, waitDuration: wait, breakDuration: brk, delayDuration: 0, totalDuration: tr + wait + brk });
  }
  sim.end = cur;
  return sim;
}

function softWindowCost(w: TimeWindow | null, t: number, beforeKey: string, afterKey: string, costs: Record<string, number>): void {
  if (!w) return;
  if (w.softStart !== undefined && t < w.softStart && w.costPerHourBeforeSoftStart) add(costs, beforeKey, ((w.softStart - t) / 3600) * w.costPerHourBeforeSoftStart);
  if (w.softEnd !== undefined && t > w.softEnd && w.costPerHourAfterSoftEnd) add(costs, afterKey, ((t - w.softEnd) / 3600) * w.costPerHourAfterSoftEnd);
}

function add(costs: Record<string, number>, key: string, value: number): void {
  if (value !== 0) costs[key] = (costs[key] ?? 0) + value;
}

/** Cost components of a simulated route, or null when a hard limit fails. */
function costsOf(problem: Problem, vehicle: Vehicle, stops: RouteStop[], sim: Simulation, maxLoad: number[]): Record<string, number> | null {
  const duration = sim.end - sim.start;
  const eps = 1e-9;
  if (duration > vehicle.routeDurationLimit.max + eps) return null;
  if (sim.travel > vehicle.travelDurationLimit.max + eps) return null;
  if (sim.distance > vehicle.routeDistanceLimit.max + eps) return null;
  const costs: Record<string, number> = {};
  add(costs, COST_KEYS.fixed, vehicle.fixedCost);
  add(costs, COST_KEYS.perHour, (vehicle.costPerHour * duration) / 3600);
  add(costs, COST_KEYS.perTraveledHour, (vehicle.costPerTraveledHour * sim.travel) / 3600);
  add(costs, COST_KEYS.perKilometer, (vehicle.costPerKilometer * sim.distance) / 1000);
  const rd = vehicle.routeDurationLimit;
  if (rd.softMax !== undefined && duration > rd.softMax) add(costs, COST_KEYS.routeDurationSoftMax, ((duration - rd.softMax) / 3600) * (rd.costPerHourAfterSoftMax ?? 0));
  const td = vehicle.travelDurationLimit;
  if (td.softMax !== undefined && sim.travel > td.softMax) add(costs, COST_KEYS.travelDurationSoftMax, ((sim.travel - td.softMax) / 3600) * (td.costPerHourAfterSoftMax ?? 0));
  const dl = vehicle.routeDistanceLimit;
  if (dl.softMax !== undefined && sim.distance > dl.softMax) add(costs, COST_KEYS.routeDistanceSoftMax, ((sim.distance - dl.softMax) / 1000) * (dl.costPerKilometerAboveSoftMax ?? 0));
  vehicle.loadLimits.forEach((l, k) => {
    if (l.softMax !== undefined && maxLoad[k]! > l.softMax) add(costs, COST_KEYS.loadSoftMax, (maxLoad[k]! - l.softMax) * (l.costPerUnitAboveSoftMax ?? 0));
  });
  softWindowCost(vehicle.startWindow, sim.start, COST_KEYS.startBeforeSoftStart, COST_KEYS.startAfterSoftEnd, costs);
  softWindowCost(vehicle.endWindow, sim.end, COST_KEYS.endBeforeSoftStart, COST_KEYS.endAfterSoftEnd, costs);
  sim.visits.forEach((v, i) => {
    const visit = visitOf(problem, stops[i]!)!;
    const w = windowAt(visit.windows, v.startTime);
    if (v.isPickup) softWindowCost(w, v.startTime, COST_KEYS.pickupBeforeSoftStart, COST_KEYS.pickupAfterSoftEnd, costs);
    else softWindowCost(w, v.startTime, COST_KEYS.deliveryBeforeSoftStart, COST_KEYS.deliveryAfterSoftEnd, costs);
  });
  return costs;
}

function total(costs: Record<string, number>): number {
  let sum = 0;
  for (const k in costs) sum += costs[k]!;
  return sum;
}

/** The start times worth trying, earliest first. */
function candidateStarts(vehicle: Vehicle, earliest: Simulation): number[] {
  const w = vehicle.startWindow;
  const out = [w.start];
  const shift = Math.max(0, Math.min(earliest.slack, earliest.waitTotal));
  if (shift > 0) out.push(w.start + shift);
  for (const t of [w.softStart, w.softEnd]) if (t !== undefined && t > w.start && t <= w.end) out.push(t);
  return out;
}

/** The cheapest feasible simulation over the candidate start times, or null. */
function cheapest(problem: Problem, vehicleIndex: number, vehicle: Vehicle, stops: RouteStop[]): { sim: Simulation; costs: Record<string, number>; cost: number } | null {
  const maxLoad = checkLoads(problem, vehicleIndex, stops);
  if (!maxLoad) return null;
  const first = simulate(problem, vehicle, stops, vehicle.startWindow.start);
  if (!first) return null;
  let best: { sim: Simulation; costs: Record<string, number>; cost: number } | null = null;
  for (const t0 of candidateStarts(vehicle, first)) {
    const sim = t0 === vehicle.startWindow.start ? first : simulate(problem, vehicle, stops, t0);
    if (!sim) continue;
    const costs = costsOf(problem, vehicle, stops, sim, maxLoad);
    if (!costs) continue;
    const cost = total(costs);
    if (!best || cost < best.cost - 1e-9 || (cost <= best.cost + 1e-9 && sim.end - sim.start < best.sim.end - best.sim.start)) best = { sim, costs, cost };
  }
  return best;
}

/**
 * The timed route of `stops` on vehicle `vehicleIndex`, or null when it is infeasible. Empty stops
 * give an empty schedule with zero cost (an unused vehicle).
 */
export function scheduleRoute(problem: Problem, vehicleIndex: number, stops: RouteStop[]): RouteSchedule | null {
  const vehicle = problem.vehicles[vehicleIndex];
  if (!vehicle) return null;
  if (stops.length === 0) {
    const t = vehicle.startWindow.start;
    return {
      vehicleStartTime: t, vehicleEndTime: t, visits: [], transitions: [{ startTime: t, travelDuration: 0, travelDistance: 0, waitDuration: 0, breakDuration: 0, delayDuration: 0, totalDuration: 0 }], breaks: [],
      metrics: { performedShipmentCount: 0, travelDuration: 0, waitDuration: 0, delayDuration: 0, breakDuration: 0, visitDuration: 0, totalDuration: 0, travelDistanceMeters: 0 },
      costs: {}, totalCost: 0,
    };
  }
  const best = cheapest(problem, vehicleIndex, vehicle, stops);
  if (!best) return null;
  const { sim } = best;
  const m = problem.matrices[vehicle.matrix]!;
  const pickupAt = new Map<number, ScheduledVisit>();
  let visitDuration = 0;
  for (const v of sim.visits) {
    const visit = visitOf(problem, v)!;
    visitDuration += visit.duration;
    if (v.isPickup) pickupAt.set(v.shipment, v);
    else {
      const p = pickupAt.get(v.shipment);
      const pv = problem.shipments[v.shipment]!.pickup;
      if (p && pv) v.detour = v.startTime - (p.startTime + pv.duration + m.durations[pv.location * m.size + visit.location]!);
    }
  }
  const sum = (f: (t: ScheduledTransition) => number) => sim.transitions.reduce((a, t) => a + f(t), 0);
  return {
    vehicleStartTime: sim.start,
    vehicleEndTime: sim.end,
    visits: sim.visits,
    transitions: sim.transitions,
    breaks: sim.breaks,
    metrics: {
      performedShipmentCount: new Set(stops.map((s) => s.shipment)).size,
      travelDuration: sim.travel,
      waitDuration: sum((t) => t.waitDuration),
      delayDuration: 0,
      breakDuration: sum((t) => t.breakDuration),
      visitDuration,
      totalDuration: sim.end - sim.start,
      travelDistanceMeters: sim.distance,
    },
    costs: best.costs,
    totalCost: best.cost,
  };
}

/** The route's total cost, Infinity when infeasible, 0 when empty: the search's exact fallback. */
export function routeCost(problem: Problem, vehicleIndex: number, stops: RouteStop[]): number {
  if (stops.length === 0) return 0;
  const vehicle = problem.vehicles[vehicleIndex];
  if (!vehicle) return Infinity;
  return cheapest(problem, vehicleIndex, vehicle, stops)?.cost ?? Infinity;
}

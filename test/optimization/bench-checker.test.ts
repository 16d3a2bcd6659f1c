/**
 * The benchmark's independent checker on hand-made answers: tiny instances whose schedules are
 * built here (earliest start at every stop), then broken one rule at a time.
 */
import { describe, expect, it } from 'vitest';
import { checkSolution, parseDuration, parseTimestamp } from '../support/optimization/checker.ts';
import type { Instance } from '../support/optimization/instances.ts';
import { toRequest } from '../support/optimization/to-request.ts';

const node = (id: number, x: number, y: number, demand: number, ready: number, due: number, service: number) => ({ id, x, y, demand, ready, due, service });

// Depot at the origin; n1 must start by 20, so n2 before n1 is late.
const vrptw: Instance = {
  name: 'T1', class: 'solomon', group: 'C1', vehicles: 2, capacity: 10, pairs: [],
  nodes: [node(0, 0, 0, 0, 0, 1000, 0), node(1, 3, 4, 5, 0, 20, 10), node(2, 6, 8, 5, 10, 200, 10), node(3, 0, 10, 8, 50, 60, 5)],
};
const pdptw: Instance = {
  name: 'lc0', class: 'li_lim_100', group: 'C1', vehicles: 2, capacity: 15, pairs: [[1, 2], [3, 4]],
  nodes: [node(0, 0, 0, 0, 0, 1000, 0), node(1, 1, 0, 10, 0, 100, 1), node(2, 2, 0, -10, 0, 100, 1), node(3, 0, 1, 10, 0, 100, 1), node(4, 0, 2, -10, 0, 100, 1)],
};

const ts = (s: number) => {
  const whole = Math.floor(s);
  return `${new Date(whole * 1000).toISOString().slice(0, 19)}.${String(Math.round((s - whole) * 1e9)).padStart(9, '0')}Z`;
};

/** A response for `plan` (per vehicle: [request shipment index, isPickup]) with earliest starts. */
function respond(body: any, plan: [number, boolean][][]) {
  const m = body.model;
  const tags: string[] = m.durationDistanceMatrixSrcTags;
  const rows = m.durationDistanceMatrices[0].rows;
  const cell = (a: string, b: string) => ({ s: parseDuration(rows[tags.indexOf(a)].durations[tags.indexOf(b)]), m: rows[tags.indexOf(a)].meters[tags.indexOf(b)] });
  const costs: Record<string, number> = {};
  let totalCost = 0, distance = 0, performed = 0;
  const routes = m.vehicles.map((veh: any, v: number) => {
    const stops = plan[v] ?? [];
    if (stops.length === 0) return { vehicleIndex: v, visits: [], transitions: [], routeCosts: {}, routeTotalCost: 0 };
    let at = parseTimestamp(veh.startTimeWindows[0].startTime), prev = 'depot', meters = 0;
    const start = at;
    const transitions: any[] = [];
    const leg = (tag: string, ready: number) => {
      const c = cell(prev, tag);
      const arrive = at + c.s, begin = Math.max(arrive, ready);
      transitions.push({ travelDuration: `${c.s}s`, travelDistanceMeters: c.m, waitDuration: `${begin - arrive}s`, breakDuration: '0s', delayDuration: '0s', totalDuration: `${begin - at}s`, startTime: ts(at) });
      meters += c.m;
      return begin;
    };
    const visits = stops.map(([si, isPickup]) => {
      const vr = (isPickup ? m.shipments[si].pickups : m.shipments[si].deliveries)[0];
      const begin = leg(vr.tags[0], parseTimestamp(vr.timeWindows[0].startTime));
      at = begin + parseDuration(vr.duration);
      prev = vr.tags[0];
      if (!isPickup) performed++;
      return { shipmentIndex: si, isPickup, visitRequestIndex: 0, startTime: ts(begin) };
    });
    const end = leg('depot', 0);
    const routeCosts: Record<string, number> = { 'model.vehicles.cost_per_kilometer': meters };
    if (veh.fixedCost) routeCosts['model.vehicles.fixed_cost'] = veh.fixedCost;
    const routeTotalCost = Object.values(routeCosts).reduce((a, b) => a + b, 0);
    for (const [k, c] of Object.entries(routeCosts)) costs[k] = (costs[k] ?? 0) + c;
    totalCost += routeTotalCost;
    distance += meters;
    return {
      vehicleIndex: v, vehicleStartTime: ts(start), vehicleEndTime: ts(end), visits, transitions,
      metrics: { performedShipmentCount: visits.filter((x) => !x.isPickup).length, travelDistanceMeters: meters }, routeCosts, routeTotalCost,
    };
  });
  return {
    routes,
    metrics: { usedVehicleCount: plan.filter((p) => p.length).length, costs, totalCost, aggregatedRouteMetrics: { performedShipmentCount: performed, travelDistanceMeters: distance } },
  };
}

const messages = (body: any, res: any) => checkSolution(body, res).violations.join('\n');
const D = (i: number): [number, boolean] => [i, false];
const P = (i: number): [number, boolean] => [i, true];

describe('benchmark checker', () => {
  const req = toRequest(vrptw, { objective: 'distance' }).body as any;
  const good = () => respond(req, [[D(0), D(1)], [D(2)]]);

  it('passes a valid answer and recomputes its distance and cost', () => {
    const res = good();
    const r = checkSolution(req, res);
    expect(r.violations).toEqual([]);
    expect(r.usedVehicles).toBe(2);
    expect(r.distanceMeters).toBeCloseTo(5 + 5 + 10 + 10 + 10, 9);
    expect(r.totalCost).toBeCloseTo(40, 9);
    expect(r.performed).toBe(3);
    // With the vehicles objective the fixed costs count too.
    const veh = toRequest(vrptw, { objective: 'vehicles' }).body as any;
    expect(checkSolution(veh, respond(veh, [[D(0), D(1)], [D(2)]])).totalCost).toBeCloseTo(2e6 + 40, 6);
  });

  it('reads proto3 defaults: absent vehicleIndex, shipmentIndex and isPickup are 0 and false', () => {
    const res: any = good();
    delete res.routes[0].vehicleIndex;
    delete res.routes[0].visits[0].shipmentIndex;
    for (const v of res.routes[0].visits) delete v.isPickup;
    delete res.routes[0].visits[0].visitRequestIndex;
    expect(messages(req, res)).toBe('');
  });

  it('fails a late visit, a start before the stop can be reached, and a vehicle end out of its window', () => {
    expect(messages(req, respond(req, [[D(1), D(0)], [D(2)]]))).toMatch(/visit 1 \(shipment 0\) starts at .* outside its time windows/);
    const early: any = good();
    early.routes[1].visits[0].startTime = ts(5);
    expect(messages(req, early)).toMatch(/before it can be reached/);
    const late: any = good();
    late.routes[0].vehicleEndTime = ts(2000);
    expect(messages(req, late)).toMatch(/end .* outside its window/);
  });

  it('fails an overloaded vehicle, counting delivery-only loads from the start', () => {
    expect(messages(req, respond(req, [[D(0), D(1), D(2)], []]))).toMatch(/load units 18 over 10 at the start/);
  });

  it('fails missing, repeated and skipped mandatory shipments', () => {
    expect(messages(req, respond(req, [[D(0)], [D(2)]]))).toMatch(/shipment 1: 0 pickup and 0 delivery visits/);
    expect(messages(req, respond(req, [[D(0), D(1)], [D(2), D(1)]]))).toMatch(/shipment 1: 0 pickup and 2 delivery/);
    const skipped: any = respond(req, [[D(0)], [D(2)]]);
    skipped.skippedShipments = [{ index: 1 }];
    expect(messages(req, skipped)).toMatch(/mandatory shipment 1 skipped/);
  });

  it('fails wrong costs and metrics', () => {
    const total: any = good();
    total.metrics.totalCost += 1;
    expect(messages(req, total)).toMatch(/metrics.totalCost/);
    const route: any = good();
    route.routes[1].routeCosts['model.vehicles.cost_per_kilometer'] *= 1.001;
    expect(messages(req, route)).toMatch(/routeCosts model.vehicles.cost_per_kilometer/);
    const used: any = good();
    used.metrics.usedVehicleCount = 1;
    expect(messages(req, used)).toMatch(/usedVehicleCount/);
    const travel: any = good();
    travel.routes[0].transitions[1].travelDistanceMeters = 4;
    expect(messages(req, travel)).toMatch(/transition 1 travelDistanceMeters/);
    // Within the relative tolerance: accepted.
    const tiny: any = good();
    tiny.metrics.totalCost *= 1 + 1e-9;
    expect(messages(req, tiny)).toBe('');
  });

  it('checks breaks: inside their window, long enough, not over a visit', () => {
    const withBreak = structuredClone(req);
    withBreak.model.vehicles[1].breakRule = { breakRequests: [{ earliestStartTime: ts(20), latestStartTime: ts(30), minDuration: '10s' }] };
    const base = good();
    const answer = (start: number, duration: number) => {
      const res: any = structuredClone(base);
      res.routes[1].breaks = [{ startTime: ts(start), duration: `${duration}s` }];
      Object.assign(res.routes[1].transitions[0], { breakDuration: `${duration}s`, waitDuration: `${40 - duration}s` });
      return res;
    };
    expect(messages(withBreak, answer(25, 10))).toBe('');
    expect(messages(withBreak, base)).toMatch(/0 breaks for 1 break requests/);
    expect(messages(withBreak, answer(35, 10))).toMatch(/break 0 starts outside its window/);
    expect(messages(withBreak, answer(25, 5))).toMatch(/shorter than its minimum/);
    expect(messages(withBreak, answer(29, 30))).toMatch(/overlaps a visit/);
  });

  describe('pickup and delivery pairs', () => {
    const pd = toRequest(pdptw, { objective: 'distance' }).body as any;
    it('passes pairs picked up first on one vehicle', () => {
      expect(messages(pd, respond(pd, [[P(0), D(0), P(1), D(1)], []]))).toBe('');
      expect(messages(pd, respond(pd, [[P(0), P(1), D(1), D(0)], []]))).toMatch(/load units 20 over 15/);
    });
    it('fails a delivery before its pickup and a pair split over two vehicles', () => {
      expect(messages(pd, respond(pd, [[D(0), P(0), P(1), D(1)], []]))).toMatch(/shipment 0: delivered before it is picked up/);
      expect(messages(pd, respond(pd, [[P(0), P(1), D(1)], [D(0)]]))).toMatch(/shipment 0: pickup on vehicle 0, delivery on vehicle 1/);
    });
    it('follows shipments through a shuffled request', () => {
      const shuffled = toRequest(pdptw, { objective: 'distance', shuffle: 3 });
      const at = (i: number) => shuffled.order.indexOf(i);
      const body = shuffled.body as any;
      expect(messages(body, respond(body, [[P(at(0)), D(at(0))], [P(at(1)), D(at(1))]]))).toBe('');
    });
  });
});

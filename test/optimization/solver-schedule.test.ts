import { describe, expect, it } from 'vitest';
import { COST_KEYS, type Problem, type RouteStop, type Shipment, type Vehicle, type Visit } from '../../engines/optimization/problem.ts';
import { routeCost, scheduleRoute } from '../../engines/optimization/schedule.ts';

// Locations on a line at x seconds (travel = |Δx| s, distance = 10·|Δx| m); location 0 is the depot.
const XS = [0, 100, 200, 300, 400];

function vehicle(over: Partial<Vehicle> = {}): Vehicle {
  return {
    matrix: 0, start: 0, end: 0, startWindow: { start: 0, end: 100_000 }, endWindow: { start: 0, end: 100_000 }, loadLimits: [{ max: 10 }],
    fixedCost: 0, costPerHour: 0, costPerTraveledHour: 0, costPerKilometer: 0,
    routeDurationLimit: { max: Infinity }, travelDurationLimit: { max: Infinity }, routeDistanceLimit: { max: Infinity }, breaks: [], ...over,
  };
}

const visit = (location: number, duration = 10, windows: Visit['windows'] = []): Visit => ({ location, duration, windows });
const delivery = (v: Visit, demand = 1): Shipment => ({ pickup: null, delivery: v, demand: [demand], penaltyCost: null, allowedVehicles: null });

function problem(vehicles: Vehicle[], shipments: Shipment[]): Problem {
  const n = XS.length;
  const durations = new Float64Array(n * n);
  const distances = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) {
    durations[a * n + b] = Math.abs(XS[a]! - XS[b]!);
    distances[a * n + b] = 10 * Math.abs(XS[a]! - XS[b]!);
  }
  return { horizon: 100_000, loadTypes: ['units'], matrices: [{ size: n, durations, distances }], vehicles, shipments };
}

const D = (shipment: number): RouteStop => ({ shipment, isPickup: false });
const P = (shipment: number): RouteStop => ({ shipment, isPickup: true });

describe('scheduleRoute timing', () => {
  it('chains travel and service and prices every per-route cost', () => {
    const pb = problem([vehicle({ fixedCost: 5, costPerHour: 18, costPerTraveledHour: 36, costPerKilometer: 2 })], [delivery(visit(1, 10)), delivery(visit(2, 20))]);
    const s = scheduleRoute(pb, 0, [D(0), D(1)])!;
    expect(s.vehicleStartTime).toBe(0);
    expect(s.visits.map((v) => v.startTime)).toEqual([100, 210]);
    expect(s.vehicleEndTime).toBe(430);
    expect(s.metrics).toMatchObject({ travelDuration: 400, travelDistanceMeters: 4000, visitDuration: 30, totalDuration: 430, waitDuration: 0, performedShipmentCount: 2 });
    expect(s.transitions).toHaveLength(3);
    expect(s.transitions[2]).toMatchObject({ startTime: 230, travelDuration: 200, travelDistance: 2000, totalDuration: 200 });
    expect(s.costs[COST_KEYS.fixed]).toBe(5);
    expect(s.costs[COST_KEYS.perHour]).toBeCloseTo(2.15, 9);
    expect(s.costs[COST_KEYS.perTraveledHour]).toBeCloseTo(4, 9);
    expect(s.costs[COST_KEYS.perKilometer]).toBeCloseTo(8, 9);
    expect(s.totalCost).toBeCloseTo(19.15, 9);
    expect(routeCost(pb, 0, [D(0), D(1)])).toBeCloseTo(19.15, 9);
  });

  it('starts as late as possible instead of waiting at a window', () => {
    const pb = problem([vehicle({ costPerHour: 1 })], [delivery(visit(1, 10, [{ start: 500, end: 600 }]))]);
    const s = scheduleRoute(pb, 0, [D(0)])!;
    expect(s.vehicleStartTime).toBe(400);
    expect(s.visits[0]!.startTime).toBe(500);
    expect(s.vehicleEndTime).toBe(610);
    expect(s.metrics.waitDuration).toBe(0);
  });

  it('waits when the start window forbids starting later, and honours route duration limits by starting later', () => {
    const late = problem([vehicle({ startWindow: { start: 0, end: 100 } })], [delivery(visit(1, 10, [{ start: 500, end: 600 }]))]);
    const s = scheduleRoute(late, 0, [D(0)])!;
    expect(s.vehicleStartTime).toBe(100);
    expect(s.transitions[0]).toMatchObject({ travelDuration: 100, waitDuration: 300, totalDuration: 400 });
    const limited = problem([vehicle({ routeDurationLimit: { max: 250 } })], [delivery(visit(1, 10, [{ start: 500, end: 600 }]))]);
    expect(scheduleRoute(limited, 0, [D(0)])!.vehicleStartTime).toBe(400);
    const tooShort = problem([vehicle({ routeDurationLimit: { max: 200 } })], [delivery(visit(1, 10, [{ start: 500, end: 600 }]))]);
    expect(scheduleRoute(tooShort, 0, [D(0)])).toBeNull();
  });

  it('uses the first window still open among several', () => {
    const pb = problem([vehicle()], [delivery(visit(1, 10, [{ start: 50, end: 60 }, { start: 300, end: 400 }]))]);
    expect(scheduleRoute(pb, 0, [D(0)])!.visits[0]!.startTime).toBe(300);
    const closed = problem([vehicle({ startWindow: { start: 500, end: 600 } })], [delivery(visit(1, 10, [{ start: 50, end: 60 }, { start: 300, end: 400 }]))]);
    expect(scheduleRoute(closed, 0, [D(0)])).toBeNull();
  });

  it('starts and ends at the visits on an open route', () => {
    const pb = problem([vehicle({ start: null, end: null, startWindow: { start: 1000, end: 5000 } })], [delivery(visit(1)), delivery(visit(3))]);
    const s = scheduleRoute(pb, 0, [D(0), D(1)])!;
    expect(s.vehicleStartTime).toBe(1000);
    expect(s.visits.map((v) => v.startTime)).toEqual([1000, 1210]);
    expect(s.vehicleEndTime).toBe(1220);
    expect(s.metrics.travelDuration).toBe(200);
    expect(s.transitions[0]!.travelDuration).toBe(0);
    expect(s.transitions[2]!.travelDuration).toBe(0);
  });

  it('waits for the end window and rejects a late end', () => {
    const pb = problem([vehicle({ startWindow: { start: 0, end: 0 }, endWindow: { start: 1000, end: 2000 } })], [delivery(visit(1))]);
    const s = scheduleRoute(pb, 0, [D(0)])!;
    expect(s.vehicleEndTime).toBe(1000);
    expect(s.transitions[1]!.waitDuration).toBe(790);
    const late = problem([vehicle({ endWindow: { start: 0, end: 150 } })], [delivery(visit(1))]);
    expect(scheduleRoute(late, 0, [D(0)])).toBeNull();
  });

  it('computes the detour of a pair delivery', () => {
    const pair: Shipment = { pickup: visit(1, 10), delivery: visit(3, 10), demand: [1], penaltyCost: null, allowedVehicles: null };
    const pb = problem([vehicle()], [pair, delivery(visit(2, 50))]);
    const s = scheduleRoute(pb, 0, [P(0), D(1), D(0)])!;
    // pickup 100..110, other 210..260, delivery at 360; direct would be 110 + 200 = 310.
    expect(s.visits.map((v) => v.detour)).toEqual([0, 0, 50]);
  });
});

describe('scheduleRoute breaks', () => {
  it('takes a break that cannot wait past the next visit, and shifts the start to drop idle time', () => {
    const pb = problem([vehicle({ costPerHour: 1, breaks: [{ earliestStart: 150, latestStart: 200, minDuration: 30 }] })], [delivery(visit(1)), delivery(visit(2))]);
    const s = scheduleRoute(pb, 0, [D(0), D(1)])!;
    expect(s.breaks).toEqual([{ startTime: 150, duration: 30 }]);
    expect(s.vehicleStartTime).toBe(40);
    expect(s.visits.map((v) => v.startTime)).toEqual([140, 280]);
    expect(s.transitions[1]).toMatchObject({ breakDuration: 30, travelDuration: 100, waitDuration: 0, totalDuration: 130 });
    expect(s.vehicleEndTime).toBe(490);
    expect(s.metrics.breakDuration).toBe(30);
  });

  it('puts a break into waiting time', () => {
    const pb = problem([vehicle({ startWindow: { start: 0, end: 0 }, breaks: [{ earliestStart: 150, latestStart: 300, minDuration: 30 }] })], [delivery(visit(1)), delivery(visit(2, 10, [{ start: 400, end: 500 }]))]);
    const s = scheduleRoute(pb, 0, [D(0), D(1)])!;
    expect(s.breaks).toEqual([{ startTime: 210, duration: 30 }]);
    expect(s.visits[1]!.startTime).toBe(400);
    expect(s.transitions[1]).toMatchObject({ travelDuration: 100, breakDuration: 30, waitDuration: 160, totalDuration: 290 });
  });

  it('extends the route to take a break after the last stop', () => {
    const pb = problem([vehicle({ startWindow: { start: 0, end: 0 }, breaks: [{ earliestStart: 1000, latestStart: 2000, minDuration: 60 }] })], [delivery(visit(1))]);
    const s = scheduleRoute(pb, 0, [D(0)])!;
    expect(s.breaks).toEqual([{ startTime: 1000, duration: 60 }]);
    expect(s.vehicleEndTime).toBe(1060);
    expect(s.transitions[1]).toMatchObject({ breakDuration: 60, waitDuration: 790, totalDuration: 950 });
  });

  it('is infeasible when a break cannot start in time', () => {
    const pb = problem([vehicle({ startWindow: { start: 500, end: 600 }, breaks: [{ earliestStart: 0, latestStart: 100, minDuration: 10 }] })], [delivery(visit(1))]);
    expect(scheduleRoute(pb, 0, [D(0)])).toBeNull();
  });
});

describe('scheduleRoute loads', () => {
  it('carries delivery-only demand from the start', () => {
    const ship = [delivery(visit(1), 6), delivery(visit(2), 5)];
    expect(scheduleRoute(problem([vehicle()], ship), 0, [D(0), D(1)])).toBeNull();
    const mixed: Shipment[] = [{ pickup: visit(1), delivery: null, demand: [6], penaltyCost: null, allowedVehicles: null }, delivery(visit(2), 5)];
    expect(scheduleRoute(problem([vehicle()], mixed), 0, [P(0), D(1)])).toBeNull();
    expect(scheduleRoute(problem([vehicle()], mixed), 0, [D(1), P(0)])).not.toBeNull();
  });

  it('checks pairs: both visits, pickup first, load on the span', () => {
    const pair = (d: number): Shipment => ({ pickup: visit(1), delivery: visit(3), demand: [d], penaltyCost: null, allowedVehicles: null });
    const pb = problem([vehicle()], [pair(6), pair(5)]);
    expect(scheduleRoute(pb, 0, [P(0), D(0), P(1), D(1)])).not.toBeNull();
    expect(scheduleRoute(pb, 0, [P(0), P(1), D(0), D(1)])).toBeNull();
    expect(scheduleRoute(pb, 0, [D(0), P(0)])).toBeNull();
    expect(scheduleRoute(pb, 0, [P(0)])).toBeNull();
    expect(scheduleRoute(pb, 0, [P(0), D(0), D(0)])).toBeNull();
  });

  it('prices the load above the soft maximum once per route', () => {
    const pb = problem([vehicle({ loadLimits: [{ max: 10, softMax: 4, costPerUnitAboveSoftMax: 3 }] })], [delivery(visit(1), 4), delivery(visit(2), 2)]);
    expect(scheduleRoute(pb, 0, [D(0), D(1)])!.costs).toEqual({ [COST_KEYS.loadSoftMax]: 6 });
  });

  it('respects allowedVehicles', () => {
    const s = delivery(visit(1));
    s.allowedVehicles = [1];
    const pb = problem([vehicle(), vehicle()], [s]);
    expect(scheduleRoute(pb, 0, [D(0)])).toBeNull();
    expect(scheduleRoute(pb, 1, [D(0)])).not.toBeNull();
  });
});

describe('scheduleRoute soft costs', () => {
  it('prices a late visit after its soft end', () => {
    const pb = problem([vehicle({ startWindow: { start: 0, end: 0 } })], [delivery(visit(1, 10, [{ start: 0, end: 1000, softEnd: 50, costPerHourAfterSoftEnd: 36 }]))]);
    expect(scheduleRoute(pb, 0, [D(0)])!.costs).toEqual({ [COST_KEYS.deliveryAfterSoftEnd]: expect.closeTo(0.5, 9) });
  });

  it('waits for a soft start costing more than the vehicle hour, else pays it', () => {
    const w = { start: 0, end: 1000, softStart: 200, costPerHourBeforeSoftStart: 36 };
    const pickupOnly: Shipment = { pickup: visit(1, 10, [w]), delivery: null, demand: [1], penaltyCost: null, allowedVehicles: null };
    const waits = scheduleRoute(problem([vehicle({ startWindow: { start: 0, end: 0 } })], [pickupOnly]), 0, [P(0)])!;
    expect(waits.visits[0]!.startTime).toBe(200);
    expect(waits.costs).toEqual({});
    const pays = scheduleRoute(problem([vehicle({ startWindow: { start: 0, end: 0 }, costPerHour: 72 })], [pickupOnly]), 0, [P(0)])!;
    expect(pays.visits[0]!.startTime).toBe(100);
    expect(pays.costs[COST_KEYS.pickupBeforeSoftStart]).toBeCloseTo(1, 9);
  });

  it('prices vehicle start and end soft windows', () => {
    const v = vehicle({
      startWindow: { start: 0, end: 0, softStart: 100, costPerHourBeforeSoftStart: 36 },
      endWindow: { start: 0, end: 1000, softEnd: 110, costPerHourAfterSoftEnd: 3600 },
    });
    const s = scheduleRoute(problem([v], [delivery(visit(1))]), 0, [D(0)])!;
    expect(s.costs[COST_KEYS.startBeforeSoftStart]).toBeCloseTo(1, 9);
    expect(s.costs[COST_KEYS.endAfterSoftEnd]).toBeCloseTo(100, 9);
    const late = vehicle({ startWindow: { start: 100, end: 100, softEnd: 50, costPerHourAfterSoftEnd: 36 }, endWindow: { start: 0, end: 1000, softStart: 500, costPerHourBeforeSoftStart: 36 } });
    const t = scheduleRoute(problem([late], [delivery(visit(1))]), 0, [D(0)])!;
    expect(t.costs[COST_KEYS.startAfterSoftEnd]).toBeCloseTo(0.5, 9);
    expect(t.costs[COST_KEYS.endBeforeSoftStart]).toBeCloseTo(1.9, 9);
  });

  it('prices soft route duration, travel duration and distance limits, and rejects hard ones', () => {
    const soft = vehicle({
      routeDurationLimit: { max: Infinity, softMax: 100, costPerHourAfterSoftMax: 36 },
      travelDurationLimit: { max: Infinity, softMax: 300, costPerHourAfterSoftMax: 36 },
      routeDistanceLimit: { max: Infinity, softMax: 3000, costPerKilometerAboveSoftMax: 2 },
    });
    const ship = [delivery(visit(1, 10)), delivery(visit(2, 20))];
    const s = scheduleRoute(problem([soft], ship), 0, [D(0), D(1)])!;
    expect(s.costs[COST_KEYS.routeDurationSoftMax]).toBeCloseTo(3.3, 9);
    expect(s.costs[COST_KEYS.travelDurationSoftMax]).toBeCloseTo(1, 9);
    expect(s.costs[COST_KEYS.routeDistanceSoftMax]).toBeCloseTo(2, 9);
    expect(scheduleRoute(problem([vehicle({ travelDurationLimit: { max: 399 } })], ship), 0, [D(0), D(1)])).toBeNull();
    expect(scheduleRoute(problem([vehicle({ routeDistanceLimit: { max: 3999 } })], ship), 0, [D(0), D(1)])).toBeNull();
    expect(scheduleRoute(problem([vehicle({ routeDistanceLimit: { max: 4000 } })], ship), 0, [D(0), D(1)])).not.toBeNull();
  });
});

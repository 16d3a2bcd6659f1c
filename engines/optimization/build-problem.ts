/**
 * A checked request, its places and travel matrices → the solver's Problem: times from the
 * global start, load types by index, allowed vehicles without the ignored ones, and shipments in
 * a canonical order (by content) so the answer does not depend on the order they were sent in.
 */
import type * as P from './problem.ts';
import type { PlaceSet } from './places.ts';
import type * as R from './request-model.ts';
import type { Slices } from './slices.ts';

export interface BuiltProblem {
  problem: P.Problem;
  /** Problem shipment index → request shipment index. */
  requestIndexOf: number[];
}

function window(w: P.TimeWindow, origin: number): P.TimeWindow {
  const out: P.TimeWindow = { start: w.start - origin, end: w.end - origin };
  if (w.softStart !== undefined) {
    out.softStart = w.softStart - origin;
    out.costPerHourBeforeSoftStart = w.costPerHourBeforeSoftStart ?? 0;
  }
  if (w.softEnd !== undefined) {
    out.softEnd = w.softEnd - origin;
    out.costPerHourAfterSoftEnd = w.costPerHourAfterSoftEnd ?? 0;
  }
  return out;
}

function visit(v: R.RequestVisit | null, place: number | null, origin: number): P.Visit | null {
  if (!v || place === null) return null;
  return { location: place, duration: v.duration, windows: v.timeWindows.map((w) => window(w, origin)) };
}

/** `include` picks the request shipments to plan (not ignored, reachable); `matrixOf` each vehicle's matrix. */
export function buildProblem(
  request: R.OptimizationRequest, places: PlaceSet, matrices: P.TravelMatrix[], matrixOf: (vehicle: number) => number, include: (shipment: number) => boolean,
): BuiltProblem {
  const steps = buildSteps(request, places, matrices, matrixOf, include);
  while (!steps.next().done);
  return steps.result();
}

/** buildProblem pausing whenever a time slice is used up (the API's event loop). */
export async function buildProblemInSlices(
  request: R.OptimizationRequest, places: PlaceSet, matrices: P.TravelMatrix[], matrixOf: (vehicle: number) => number, include: (shipment: number) => boolean, slices: Slices,
): Promise<BuiltProblem> {
  const steps = buildSteps(request, places, matrices, matrixOf, include);
  while (!steps.next().done) if (slices.due()) await slices.pause();
  return steps.result();
}

/** One step per request shipment, then result(). */
function buildSteps(
  request: R.OptimizationRequest, places: PlaceSet, matrices: P.TravelMatrix[], matrixOf: (vehicle: number) => number, include: (shipment: number) => boolean,
): { next: () => { done: boolean }; result: () => BuiltProblem } {
  const origin = request.globalStart;
  const loadIndex = new Map(request.loadTypes.map((t, i) => [t, i]));
  const usable = request.vehicles.map((v, i) => (v.ignore ? -1 : i)).filter((i) => i >= 0);
  const shipments: { request: number; shipment: P.Shipment; key: string }[] = [];
  let next = 0;
  const step = (s: R.RequestShipment, i: number) => {
    if (s.ignore || !include(i)) return;
    const demand = new Array<number>(request.loadTypes.length).fill(0);
    for (const [type, amount] of Object.entries(s.loadDemands)) demand[loadIndex.get(type)!] = amount;
    const shipment: P.Shipment = {
      pickup: visit(s.pickup, places.shipments[i]!.pickup, origin),
      delivery: visit(s.delivery, places.shipments[i]!.delivery, origin),
      demand,
      penaltyCost: s.penaltyCost,
      allowedVehicles: s.allowedVehicleIndices === null && usable.length === request.vehicles.length
        ? null
        : (s.allowedVehicleIndices ?? usable).filter((v) => !request.vehicles[v]!.ignore).sort((a, b) => a - b),
    };
    shipments.push({ request: i, shipment, key: JSON.stringify(shipment) });
  };
  return {
    next: () => {
      if (next < request.shipments.length) step(request.shipments[next]!, next++);
      return { done: next >= request.shipments.length };
    },
    result: () => assemble(request, places, matrices, matrixOf, shipments),
  };
}

function assemble(
  request: R.OptimizationRequest, places: PlaceSet, matrices: P.TravelMatrix[], matrixOf: (vehicle: number) => number,
  shipments: { request: number; shipment: P.Shipment; key: string }[],
): BuiltProblem {
  const origin = request.globalStart;
  shipments.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.request - b.request));
  const vehicles: P.Vehicle[] = request.vehicles.map((v, i) => ({
    matrix: matrixOf(i),
    start: places.vehicleStarts[i]!,
    end: places.vehicleEnds[i]!,
    startWindow: window(v.startTimeWindow, origin),
    endWindow: window(v.endTimeWindow, origin),
    loadLimits: request.loadTypes.map((t) => v.loadLimits[t] ?? { max: Infinity }),
    fixedCost: v.fixedCost,
    costPerHour: v.costPerHour,
    costPerTraveledHour: v.costPerTraveledHour,
    costPerKilometer: v.costPerKilometer,
    routeDurationLimit: v.routeDurationLimit,
    travelDurationLimit: v.travelDurationLimit,
    routeDistanceLimit: v.routeDistanceLimit,
    breaks: v.breaks.map((b) => ({ earliestStart: b.earliestStart - origin, latestStart: b.latestStart - origin, minDuration: b.minDuration })),
  }));
  return {
    problem: { horizon: request.globalEnd - origin, loadTypes: request.loadTypes, matrices, vehicles, shipments: shipments.map((s) => s.shipment) },
    requestIndexOf: shipments.map((s) => s.request),
  };
}

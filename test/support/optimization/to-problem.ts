/** A benchmark instance as the solver's Problem, without the HTTP request (in-process solves). */
import type { Problem, Shipment, Vehicle } from '../../../engines/optimization/problem.ts';
import { euclid, type Instance } from './instances.ts';

/** Locations = node ids, one vehicle type, cost = distance (plus 1e6 per vehicle for `vehicles`). */
export function toProblem(inst: Instance, objective: 'distance' | 'vehicles'): Problem {
  const size = inst.nodes.length;
  const durations = new Float64Array(size * size);
  for (let a = 0; a < size; a++) for (let b = 0; b < size; b++) durations[a * size + b] = euclid(inst, a, b);
  const depot = inst.nodes[0]!;
  const window = { start: depot.ready, end: depot.due };
  const vehicle: Vehicle = {
    matrix: 0, start: 0, end: 0, startWindow: window, endWindow: window, loadLimits: [{ max: inst.capacity }],
    fixedCost: objective === 'vehicles' ? 1e6 : 0, costPerHour: 0, costPerTraveledHour: 0, costPerKilometer: 1000,
    routeDurationLimit: { max: Infinity }, travelDurationLimit: { max: Infinity }, routeDistanceLimit: { max: Infinity }, breaks: [],
  };
  const visit = (n: number) => ({ location: n, duration: inst.nodes[n]!.service, windows: [{ start: inst.nodes[n]!.ready, end: inst.nodes[n]!.due }] });
  const shipments: Shipment[] = [];
  if (inst.pairs.length > 0) {
    for (const [p, d] of inst.pairs) shipments.push({ pickup: visit(p), delivery: visit(d), demand: [inst.nodes[p]!.demand], penaltyCost: null, allowedVehicles: null });
  } else {
    for (let n = 1; n < size; n++) shipments.push({ pickup: null, delivery: visit(n), demand: [inst.nodes[n]!.demand], penaltyCost: null, allowedVehicles: null });
  }
  return {
    horizon: depot.due, loadTypes: ['units'], matrices: [{ size, durations, distances: durations }],
    vehicles: Array.from({ length: inst.vehicles }, () => ({ ...vehicle })), shipments,
  };
}


/**
 * Why a shipment could not be performed (volume 3 skippedShipments reasons), where one cause is
 * identifiable: for every vehicle allowed to serve it, the shipment alone on that vehicle breaks
 * its capacity, or is infeasible until one hard limit is lifted, or its time windows cannot be
 * met. When some vehicle could serve it alone (the fleet was busy), no reason is given.
 */
import type { Problem, RouteStop, Vehicle } from './problem.ts';
import { scheduleRoute } from './schedule.ts';

export interface SkipReason {
  code: string;
  exampleVehicleIndex?: number;
  exampleExceededCapacityType?: string;
}

const LIFTS: { code: string; lift: (v: Vehicle) => Vehicle }[] = [
  { code: 'CANNOT_BE_PERFORMED_WITHIN_VEHICLE_DISTANCE_LIMIT', lift: (v) => ({ ...v, routeDistanceLimit: { max: Infinity } }) },
  { code: 'CANNOT_BE_PERFORMED_WITHIN_VEHICLE_DURATION_LIMIT', lift: (v) => ({ ...v, routeDurationLimit: { max: Infinity } }) },
  { code: 'CANNOT_BE_PERFORMED_WITHIN_VEHICLE_TRAVEL_DURATION_LIMIT', lift: (v) => ({ ...v, travelDurationLimit: { max: Infinity } }) },
];

function reasonOn(problem: Problem, s: number, vehicle: number): SkipReason | null {
  const shipment = problem.shipments[s]!;
  const v = problem.vehicles[vehicle]!;
  const over = shipment.demand.findIndex((amount, type) => amount > (v.loadLimits[type]?.max ?? Infinity));
  if (over >= 0) return { code: 'DEMAND_EXCEEDS_VEHICLE_CAPACITY', exampleVehicleIndex: vehicle, exampleExceededCapacityType: problem.loadTypes[over]! };
  const stops: RouteStop[] = [];
  if (shipment.pickup) stops.push({ shipment: s, isPickup: true });
  if (shipment.delivery) stops.push({ shipment: s, isPickup: false });
  if (scheduleRoute(problem, vehicle, stops)) return null;
  for (const { code, lift } of LIFTS) {
    const vehicles = problem.vehicles.map((x, i) => (i === vehicle ? lift(x) : x));
    if (scheduleRoute({ ...problem, vehicles }, vehicle, stops)) return { code, exampleVehicleIndex: vehicle };
  }
  return { code: 'CANNOT_BE_PERFORMED_WITHIN_VEHICLE_TIME_WINDOWS', exampleVehicleIndex: vehicle };
}

/** Distinct reasons (one example vehicle each), or undefined when none is identifiable. */
export function skipReasons(problem: Problem, s: number): SkipReason[] | undefined {
  const allowed = problem.shipments[s]!.allowedVehicles ?? problem.vehicles.map((_, i) => i);
  if (allowed.length === 0) return [{ code: 'NO_VEHICLE' }];
  const byCode = new Map<string, SkipReason>();
  for (const vehicle of allowed) {
    const reason = reasonOn(problem, s, vehicle);
    if (!reason) return undefined;
    if (!byCode.has(reason.code)) byCode.set(reason.code, reason);
  }
  return [...byCode.values()];
}

/**
 * Volume 3 rule 8: the plan's count limits, checked before any other check (VALIDATE_ONLY too).
 * Counts are read leniently from the raw body: every shipments entry (ignored ones included),
 * every vehicles entry, and the distinct places of visits and vehicle ends after merging identical
 * coordinates, or identical matrix tags with own matrices. Malformed entries are left to the checker.
 */
import { isRecord, normalizeRequest } from './normalize.ts';

export interface PlanCountLimits {
  shipments: number;
  vehicles: number;
  locations: number;
}

export type PlanCounts = PlanCountLimits;

export interface ExceededLimit {
  limit: keyof PlanCountLimits;
  /** The plan's value. */
  max: number;
  /** What the request has. */
  count: number;
}

const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : []);

function coordinateKey(latLng: unknown): string | null {
  if (!isRecord(latLng)) return null;
  return `${Number(latLng.latitude ?? 0)},${Number(latLng.longitude ?? 0)}`;
}

/** The coordinates of a LatLng field or the location.latLng of a Waypoint field. */
function placeKey(msg: Record<string, unknown>, locationKey: string, waypointKey: string): string | null {
  const direct = coordinateKey(msg[locationKey]);
  if (direct !== null) return direct;
  const waypoint = msg[waypointKey];
  if (!isRecord(waypoint) || !isRecord(waypoint.location)) return null;
  return coordinateKey(waypoint.location.latLng);
}

/** Counts on a body as received (snake_case or camelCase). */
export function countPlanItems(raw: unknown): PlanCounts {
  const body = normalizeRequest(raw).body;
  const model = isRecord(body) && isRecord(body.model) ? body.model : {};
  const shipments = Array.isArray(model.shipments) ? model.shipments : [];
  const vehicles = Array.isArray(model.vehicles) ? model.vehicles : [];
  const withMatrices = Array.isArray(model.durationDistanceMatrices) && model.durationDistanceMatrices.length > 0;
  const src = new Set(strings(model.durationDistanceMatrixSrcTags));
  const dst = new Set(strings(model.durationDistanceMatrixDstTags));
  const tagKey = (tags: unknown, ...lists: Set<string>[]): string | null => {
    const known = strings(tags).filter((t) => lists.some((l) => l.has(t))).sort();
    return known.length > 0 ? `tags:${known.join('\u0000')}` : null;
  };
  const places = new Set<string>();
  const add = (key: string | null) => {
    if (key !== null) places.add(key);
  };
  for (const shipment of records(shipments)) {
    for (const visit of [...records(shipment.pickups), ...records(shipment.deliveries)]) {
      add(withMatrices ? tagKey(visit.tags, src, dst) : placeKey(visit, 'arrivalLocation', 'arrivalWaypoint'));
    }
  }
  for (const vehicle of records(vehicles)) {
    add(withMatrices ? tagKey(vehicle.startTags, src) : placeKey(vehicle, 'startLocation', 'startWaypoint'));
    add(withMatrices ? tagKey(vehicle.endTags, dst) : placeKey(vehicle, 'endLocation', 'endWaypoint'));
  }
  return { shipments: shipments.length, vehicles: vehicles.length, locations: places.size };
}

/** The first limit the request exceeds (shipments, then vehicles, then locations), or null. */
export function countLimitViolation(raw: unknown, limits: PlanCountLimits): ExceededLimit | null {
  const counts = countPlanItems(raw);
  for (const limit of ['shipments', 'vehicles', 'locations'] as const) {
    if (counts[limit] > limits[limit]) return { limit, max: limits[limit], count: counts[limit] };
  }
  return null;
}

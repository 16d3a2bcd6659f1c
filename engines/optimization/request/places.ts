/**
 * Coordinates of visits and vehicle ends: a LatLng field or a Waypoint field (location.latLng;
 * a placeId is refused: send coordinates).
 */
import type { LatLng } from '../request-model.ts';
import { fieldPath } from './fields.ts';
import { present, type Message, type Reader } from './reader.ts';

/** google.type.LatLng; proto3 leaves zero members out, so an absent member is 0. */
export function readLatLng(r: Reader, msg: Message, path: string): LatLng | undefined {
  const latitude = r.double(msg, 'latitude', path) ?? (present(msg, 'latitude') ? undefined : 0);
  const longitude = r.double(msg, 'longitude', path) ?? (present(msg, 'longitude') ? undefined : 0);
  if (latitude === undefined || longitude === undefined) return undefined;
  let valid = true;
  if (latitude < -90 || latitude > 90) {
    r.issue('OUT_OF_RANGE', fieldPath(path, 'latitude'), 'latitude must be between -90 and 90');
    valid = false;
  }
  if (longitude < -180 || longitude > 180) {
    r.issue('OUT_OF_RANGE', fieldPath(path, 'longitude'), 'longitude must be between -180 and 180');
    valid = false;
  }
  return valid ? { latitude, longitude } : undefined;
}

export type Coordinates =
  | { given: false }
  /** latLng undefined: given but refused (the issue is recorded). */
  | { given: true; latLng: LatLng | undefined; field: string };

/** Reads `<locationKey>` or `<waypointKey>` of a visit or vehicle (`arrivalLocation` / `arrivalWaypoint`, ...). */
export function readCoordinates(r: Reader, msg: Message, locationKey: string, waypointKey: string, path: string): Coordinates {
  const hasLocation = present(msg, locationKey);
  const hasWaypoint = present(msg, waypointKey);
  if (!hasLocation && !hasWaypoint) return { given: false };
  if (hasLocation && hasWaypoint) {
    r.issue('CONFLICTING_FIELDS', fieldPath(path, waypointKey), `give ${locationKey} or ${waypointKey}, not both`);
    return { given: true, latLng: undefined, field: fieldPath(path, waypointKey) };
  }
  if (hasLocation) {
    const at = fieldPath(path, locationKey);
    const location = r.message(msg, locationKey, path);
    return { given: true, latLng: location && readLatLng(r, location, at), field: at };
  }
  const at = fieldPath(path, waypointKey);
  const waypoint = r.message(msg, waypointKey, path);
  if (!waypoint) return { given: true, latLng: undefined, field: at };
  if (present(waypoint, 'placeId')) {
    r.issue('FIELD_NOT_SUPPORTED_YET', fieldPath(at, 'placeId'), 'placeId: place-id locations are not supported; send coordinates (location.latLng)');
    return { given: true, latLng: undefined, field: at };
  }
  r.boolean(waypoint, 'vehicleStopover', at);
  r.boolean(waypoint, 'sideOfRoad', at);
  const location = r.message(waypoint, 'location', at);
  if (!location) {
    if (!present(waypoint, 'location')) r.issue('MISSING_REQUIRED_FIELD', fieldPath(at, 'location'), 'a waypoint needs location.latLng (or use arrivalLocation / startLocation / endLocation)');
    return { given: true, latLng: undefined, field: at };
  }
  const locationPath = fieldPath(at, 'location');
  r.int32(location, 'heading', locationPath);
  const latLng = r.message(location, 'latLng', locationPath);
  if (!latLng) {
    if (!present(location, 'latLng')) r.issue('MISSING_REQUIRED_FIELD', fieldPath(locationPath, 'latLng'), 'location needs latLng {latitude, longitude}');
    return { given: true, latLng: undefined, field: at };
  }
  return { given: true, latLng: readLatLng(r, latLng, fieldPath(locationPath, 'latLng')), field: at };
}

export const sameLatLng = (a: LatLng, b: LatLng): boolean => a.latitude === b.latitude && a.longitude === b.longitude;

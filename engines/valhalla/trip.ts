/**
 * Valhalla's trip (the answer of /route and /optimized_route): per leg its summary (length in
 * the request's units, kilometres here; time in seconds) and its shape (polyline6). The shape of
 * a leg starts and ends where Valhalla correlated the leg's locations to the road, so the
 * distance from a requested point to its end of the shape is how far Valhalla moved it.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { RELOCATION_WARNING_METRES } from '../routing/locate.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { malformed } from './failure.ts';
import { decodePolyline6 } from '../../lib/geo/polyline6.ts';

export interface TripLeg {
  metres: number;
  seconds: number;
  /** Micro-degrees, lng,lat interleaved. */
  line: Int32Array;
}

/** The members every Valhalla request we send shares: kilometres, no narration, polyline6 shapes. */
export const TRIP_REQUEST = { units: 'kilometers', directions_type: 'none', shape_format: 'polyline6' } as const;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The legs of `json.trip`, checked; a malformed trip is the backend failing. */
export function tripLegs(action: string, json: unknown): TripLeg[] {
  const trip = (json as { trip?: { legs?: unknown } }).trip;
  if (!trip || !Array.isArray(trip.legs) || trip.legs.length === 0) throw malformed(action, 'no trip.legs');
  return trip.legs.map((raw: unknown, i: number) => {
    const leg = raw as { summary?: { length?: unknown; time?: unknown }; shape?: unknown };
    if (!leg.summary || !finite(leg.summary.length) || !finite(leg.summary.time)) throw malformed(action, `trip.legs[${i}].summary`);
    if (typeof leg.shape !== 'string') throw malformed(action, `trip.legs[${i}].shape`);
    let line: Int32Array;
    try {
      line = decodePolyline6(leg.shape);
    } catch (err) {
      throw malformed(action, `trip.legs[${i}].shape: ${(err as Error).message}`);
    }
    if (line.length < 2) throw malformed(action, `trip.legs[${i}].shape is empty`);
    return { metres: leg.summary.length * 1000, seconds: leg.summary.time, line };
  });
}

/** The original_index of each trip location (/optimized_route's visiting order), when given. */
export function tripOrder(json: unknown): number[] | null {
  const locations = (json as { trip?: { locations?: unknown } }).trip?.locations;
  if (!Array.isArray(locations)) return null;
  const order = locations.map((l: { original_index?: unknown }) => l?.original_index);
  return order.every((i): i is number => Number.isInteger(i)) ? order : null;
}

/** Legs joined into one line: each leg after the first drops its first position (the previous leg's last). */
export function joinTripLines(lines: readonly Int32Array[]): Int32Array {
  const total = lines.reduce((sum, l, i) => sum + l.length - (i > 0 ? 2 : 0), 0);
  const out = new Int32Array(total);
  let at = 0;
  lines.forEach((l, i) => {
    const part = i > 0 ? l.subarray(2) : l;
    out.set(part, at);
    at += part.length;
  });
  return out;
}

export const positionAt = (line: Int32Array, i: number): LngLat => [line[2 * i]! / 1e6, line[2 * i + 1]! / 1e6];

/** The line has two distinct positions, so its ends can be told apart (as engines/routing/plan-route.ts). */
export function distinctPositions(line: Int32Array): boolean {
  for (let i = 2; i < line.length; i += 2) if (line[i] !== line[0] || line[i + 1] !== line[1]) return true;
  return false;
}

/** Metres from a requested point to where the line reaches it, when over the warning distance (50 m). */
export function movedBy(asked: LngLat, reached: LngLat): number | null {
  const metres = haversineMetres(asked[0], asked[1], reached[0], reached[1]);
  return metres > RELOCATION_WARNING_METRES ? metres : null;
}

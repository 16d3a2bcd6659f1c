/**
 * The straight-line walking model of transit routing, shared by the router and its reference
 * search: great-circle distance × 1.25 at 1.2 m/s. Access and egress reach stops within 1 km
 * (great-circle) of the origin or destination, a transfer stops within 300 m, and a direct walk
 * is offered when the two ends are within 1 km. Radii are straight-line; times use the detoured
 * distance. transfers.txt adds footpaths beyond the radius, lengthens them to a
 * min_transfer_time and removes the ones it marks impossible (footpaths.ts).
 */
import { haversineMetres } from '../../../lib/geo/haversine.ts';
import type { TransitData } from '../data.ts';

export const WALK_SPEED_MPS = 1.2;
export const WALK_DETOUR_FACTOR = 1.25;
export const MAX_WALK_METRES = 1000;
export const TRANSFER_RADIUS_METRES = 300;

export interface WalkTo {
  /** Release-wide stop index. */
  stop: number;
  seconds: number;
  /** Walked metres (great-circle × detour factor, or along the streets). */
  metres: number;
  /** A street walk's line, from the point walked from to the stop (absent for a straight walk). */
  line?: () => [number, number][];
}

/** Walked metres between two points: the great-circle distance × the detour factor. */
export function walkMetres(from: readonly [number, number], to: readonly [number, number]): number {
  return haversineMetres(from[0], from[1], to[0], to[1]) * WALK_DETOUR_FACTOR;
}

/** Whole seconds to walk `metres` (already detoured), rounded up. */
export function walkSeconds(metres: number): number {
  // The epsilon keeps a walk of no length (a point on the stop, 1e-9 m off) at 0 s.
  return Math.max(0, Math.ceil(metres / WALK_SPEED_MPS - 1e-6));
}

/** [lng, lat] of a stop, or null when the feed gives it no position. */
export function stopPoint(data: TransitData, stop: number): [number, number] | null {
  const { lon, lat } = data.stops[stop]!;
  return lon === null || lat === null ? null : [lon, lat];
}

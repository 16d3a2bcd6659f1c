/**
 * The walking model of transit routing, shared by the router and its reference search:
 * straight-line great-circle distance × 1.25 at 1.2 m/s. Access and egress reach stops within
 * 1 km (great-circle) of the origin or destination, a transfer stops within 300 m, and a direct
 * walk is offered when the two ends are within 1 km. Radii are straight-line; times use the
 * detoured distance. Stops only count when a trip calls there (transfers.txt is not
 * loaded into releases, so the radius rule is the only footpath rule).
 */
import { haversineMetres } from '../../../lib/geo/haversine.ts';
import type { TransitData } from '../data.ts';
import { transitNetwork } from './network.ts';

export const WALK_SPEED_MPS = 1.2;
export const WALK_DETOUR_FACTOR = 1.25;
export const MAX_WALK_METRES = 1000;
export const TRANSFER_RADIUS_METRES = 300;

export interface WalkTo {
  /** Release-wide stop index. */
  stop: number;
  seconds: number;
  /** Walked metres (great-circle × detour factor). */
  metres: number;
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

/** The routable feed's served stops within MAX_WALK_METRES (great-circle) of the point, nearest first. */
export function accessStops(data: TransitData, feedId: string, point: readonly [number, number]): WalkTo[] {
  return stopsWithin(data, feedId, point, MAX_WALK_METRES, -1);
}

/** Egress is access read backwards: the same stops and seconds. */
export const egressStops = accessStops;

const footpathCache = new WeakMap<TransitData, Map<string, Map<number, WalkTo[]>>>();

/** Stops of the feed a transfer may walk to from `stop` (itself excluded), nearest first. */
export function footpaths(data: TransitData, feedId: string, stop: number): WalkTo[] {
  let byFeed = footpathCache.get(data);
  if (!byFeed) footpathCache.set(data, (byFeed = new Map()));
  let byStop = byFeed.get(feedId);
  if (!byStop) byFeed.set(feedId, (byStop = new Map()));
  let paths = byStop.get(stop);
  if (!paths) {
    const at = stopPoint(data, stop);
    paths = at ? stopsWithin(data, feedId, at, TRANSFER_RADIUS_METRES, stop) : [];
    byStop.set(stop, paths);
  }
  return paths;
}

/** [lng, lat] of a stop, or null when the feed gives it no position. */
export function stopPoint(data: TransitData, stop: number): [number, number] | null {
  const { lon, lat } = data.stops[stop]!;
  return lon === null || lat === null ? null : [lon, lat];
}

function stopsWithin(data: TransitData, feedId: string, point: readonly [number, number], radius: number, except: number): WalkTo[] {
  const network = transitNetwork(data, feedId);
  if (!network) return [];
  // The radius is straight-line (great-circle); the walk itself is detoured.
  const out: WalkTo[] = [];
  for (const { item, distance } of data.grid.within(point[0], point[1], radius, Number.MAX_SAFE_INTEGER)) {
    if (item === except || network.stopPatterns[item]!.length === 0) continue;
    const metres = distance * WALK_DETOUR_FACTOR;
    out.push({ stop: item, seconds: walkSeconds(metres), metres });
  }
  return out;
}

/** Seconds of the direct walk between two points, or null when they are more than MAX_WALK_METRES apart. */
export function directWalkSeconds(from: readonly [number, number], to: readonly [number, number]): number | null {
  return haversineMetres(from[0], from[1], to[0], to[1]) <= MAX_WALK_METRES ? walkSeconds(walkMetres(from, to)) : null;
}

/** The walking rules bound to one release and feed, in the shape a reference search takes. */
export function walkingModel(data: TransitData, feedId: string) {
  return {
    accessStops: (point: [number, number]) => accessStops(data, feedId, point),
    egressStops: (point: [number, number]) => egressStops(data, feedId, point),
    footpaths: (stop: number) => footpaths(data, feedId, stop),
    direct: (from: [number, number], to: [number, number]) => directWalkSeconds(from, to),
  };
}

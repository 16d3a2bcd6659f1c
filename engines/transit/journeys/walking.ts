/**
 * The walks of one feed's network in release-wide stop indexes: access and egress to the stops
 * near a point, footpaths between stops and the time to change trips at a stop. The router
 * reads the network's structures directly; the reference search of the tests takes these.
 */
import type { TransitData } from '../data.ts';
import { transitNetwork } from './network.ts';
import { directWalkSeconds, MAX_WALK_METRES, WALK_DETOUR_FACTOR, walkSeconds, type WalkTo } from './walk-model.ts';

/** The routable feed's served stops within MAX_WALK_METRES (great-circle) of the point, nearest first. */
export function accessStops(data: TransitData, feedId: string, point: readonly [number, number]): WalkTo[] {
  const network = transitNetwork(data, feedId);
  if (!network) return [];
  // The radius is straight-line (great-circle); the walk itself is detoured.
  const out: WalkTo[] = [];
  for (const { item, distance } of data.grid.within(point[0], point[1], MAX_WALK_METRES, Number.MAX_SAFE_INTEGER)) {
    if (network.networkStop[item]! < 0) continue;
    const metres = distance * WALK_DETOUR_FACTOR;
    out.push({ stop: item, seconds: walkSeconds(metres), metres });
  }
  return out;
}

/** Egress is access read backwards: the same stops and seconds. */
export const egressStops = accessStops;

/** Stops of the feed a transfer may walk to from `stop` (itself excluded), shortest first. */
export function footpaths(data: TransitData, feedId: string, stop: number): WalkTo[] {
  const network = transitNetwork(data, feedId);
  const from = network?.networkStop[stop] ?? -1;
  if (!network || from < 0) return [];
  const { start, to, seconds, metres } = network.footpaths;
  const out: WalkTo[] = [];
  for (let i = start[from]!; i < start[from + 1]!; i++) out.push({ stop: network.stops[to[i]!]!, seconds: seconds[i]!, metres: metres[i]! });
  return out;
}

/** Seconds from alighting at `stop` to boarding another trip there (transfers.txt); Infinity when not allowed. */
export function changeSeconds(data: TransitData, feedId: string, stop: number): number {
  const network = transitNetwork(data, feedId);
  const at = network?.networkStop[stop] ?? -1;
  return network && at >= 0 ? network.footpaths.changeSeconds[at]! : 0;
}

/** The walking rules bound to one release and feed, in the shape a reference search takes. */
export function walkingModel(data: TransitData, feedId: string) {
  return {
    accessStops: (point: [number, number]) => accessStops(data, feedId, point),
    egressStops: (point: [number, number]) => egressStops(data, feedId, point),
    footpaths: (stop: number) => footpaths(data, feedId, stop),
    changeSeconds: (stop: number) => changeSeconds(data, feedId, stop),
    direct: (from: [number, number], to: [number, number]) => directWalkSeconds(from, to),
  };
}

/**
 * Walks between stops of one feed's network: every other stop within TRANSFER_RADIUS_METRES
 * (straight line), then transfers.txt's stop-to-stop rules on top. A rule between two stops adds
 * the footpath whatever the distance (types 0, 1, 2), lengthens it to min_transfer_time
 * (type 2) or removes it (type 3); a rule of a stop with itself sets the time needed to change
 * trips there (type 2) or forbids changing there (type 3).
 */
import type { TransitData } from '../data.ts';
import { stopPoint, TRANSFER_RADIUS_METRES, walkMetres, walkSeconds, WALK_DETOUR_FACTOR } from './walk-model.ts';

/** Indexed by network stop (see TransitNetwork.stops). */
export interface Footpaths {
  /** The paths of network stop s are [start[s], start[s + 1]), shortest first. */
  start: Int32Array;
  to: Int32Array;
  seconds: Int32Array;
  metres: Float64Array;
  /** Seconds from alighting to boarding another trip at the same stop; Infinity where no change is allowed. */
  changeSeconds: Float64Array;
}

const TransferType = { Recommended: 0, Timed: 1, MinimumTime: 2, NotPossible: 3 } as const;

interface Path {
  to: number;
  seconds: number;
  metres: number;
}

export function buildFootpaths(data: TransitData, stops: Int32Array, networkStop: Int32Array): Footpaths {
  const paths: Map<number, Path>[] = Array.from(stops, () => new Map());
  stops.forEach((stop, s) => {
    const at = stopPoint(data, stop);
    if (!at) return;
    for (const { item, distance } of data.grid.within(at[0], at[1], TRANSFER_RADIUS_METRES, Number.MAX_SAFE_INTEGER)) {
      const to = networkStop[item]!;
      if (to < 0 || to === s) continue;
      const metres = distance * WALK_DETOUR_FACTOR;
      paths[s]!.set(to, { to, seconds: walkSeconds(metres), metres });
    }
  });

  const changeSeconds = new Float64Array(stops.length);
  const { transfers } = data;
  for (let row = 0; row < transfers.from.length; row++) {
    const from = networkStop[transfers.from[row]!]!;
    const to = networkStop[transfers.to[row]!]!;
    if (from < 0 || to < 0) continue;
    const type = transfers.type[row]!;
    const minimum = type === TransferType.MinimumTime ? Math.max(0, transfers.minSeconds[row]!) : 0;
    if (from === to) {
      changeSeconds[from] = type === TransferType.NotPossible ? Infinity : minimum;
    } else if (type === TransferType.NotPossible) {
      paths[from]!.delete(to);
    } else {
      const a = stopPoint(data, stops[from]!);
      const b = stopPoint(data, stops[to]!);
      const metres = a && b ? walkMetres(a, b) : 0;
      paths[from]!.set(to, { to, seconds: Math.max(walkSeconds(metres), minimum), metres });
    }
  }

  const start = new Int32Array(stops.length + 1);
  paths.forEach((list, s) => (start[s + 1] = start[s]! + list.size));
  const total = start[stops.length]!;
  const out: Footpaths = { start, to: new Int32Array(total), seconds: new Int32Array(total), metres: new Float64Array(total), changeSeconds };
  paths.forEach((list, s) => {
    [...list.values()].sort((x, y) => x.seconds - y.seconds || x.to - y.to).forEach((path, i) => {
      out.to[start[s]! + i] = path.to;
      out.seconds[start[s]! + i] = path.seconds;
      out.metres[start[s]! + i] = path.metres;
    });
  });
  return out;
}

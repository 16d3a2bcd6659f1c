/**
 * Walks between stops of one feed's network: every other stop within TRANSFER_RADIUS_METRES
 * (straight line), then transfers.txt's stop-to-stop rules on top. A rule between two stops adds
 * the footpath whatever the distance (types 0, 1, 2), lengthens it to min_transfer_time
 * (type 2) or removes it (type 3); a rule of a stop with itself sets the time needed to change
 * trips there (type 2) or forbids changing there (type 3). A rule naming a station applies to
 * each of its stops (a rule naming the stops themselves wins). How long each walk takes is the
 * measure's: straight-line, or along the streets (street-walks.ts).
 */
import type { TransitData } from '../data.ts';
import { straightWalk, type Walk } from './street-walks.ts';
import { stopPoint, TRANSFER_RADIUS_METRES } from './walk-model.ts';
import { haversineMetres } from '../../../lib/geo/haversine.ts';

/** The footpaths from one network stop, shortest first. */
export interface StopFootpaths {
  to: Int32Array;
  seconds: Int32Array;
  metres: Float64Array;
}

/** Indexed by network stop (see TransitNetwork.stops). */
export interface Footpaths {
  /** Measured on first use for each stop, then kept: a search touches few stops, a feed may have thousands. */
  from(stop: number): StopFootpaths;
  /** Seconds from alighting to boarding another trip at the same stop; Infinity where no change is allowed. */
  changeSeconds: Float64Array;
}

/**
 * The walks from stop `from` to each of `to` (release-wide stop indexes), whose straight-line
 * distances are at most `radiusMetres`; null where there is no such walk.
 */
export type MeasureWalks = (from: number, to: readonly number[], radiusMetres: number) => (Walk | null)[];

/** Straight-line walks between stop positions (none for a stop without one). */
export const straightWalks = (data: TransitData): MeasureWalks => (from, to) => {
  const a = stopPoint(data, from);
  return to.map((stop) => {
    const b = stopPoint(data, stop);
    return a && b ? straightWalk(a, b) : null;
  });
};

const TransferType = { MinimumTime: 2, NotPossible: 3 } as const;

export function buildFootpaths(data: TransitData, stops: Int32Array, networkStop: Int32Array, measure: MeasureWalks): Footpaths {
  const changeSeconds = new Float64Array(stops.length);
  /** transfers.txt rules between two network stops, by from stop: to → minimum seconds, or −1 for type 3. */
  const rules = new Map<number, Map<number, number>>();
  const { transfers } = data;
  const apply = (row: number, from: number, to: number) => {
    if (from < 0 || to < 0) return;
    const type = transfers.type[row]!;
    const minimum = type === TransferType.MinimumTime ? Math.max(0, transfers.minSeconds[row]!) : 0;
    if (from === to) changeSeconds[from] = type === TransferType.NotPossible ? Infinity : minimum;
    else {
      if (!rules.has(from)) rules.set(from, new Map());
      rules.get(from)!.set(to, type === TransferType.NotPossible ? -1 : minimum);
    }
  };
  // A rule naming a station holds for every stop of it; a rule naming the stops themselves wins.
  const members = (stop: number) => data.stopMembers[stop] ?? [stop];
  const isStation = (stop: number) => members(stop).length > 1;
  for (const stationRules of [true, false]) {
    for (let row = 0; row < transfers.from.length; row++) {
      const from = transfers.from[row]!;
      const to = transfers.to[row]!;
      if ((isStation(from) || isStation(to)) !== stationRules) continue;
      for (const a of members(from)) for (const b of members(to)) apply(row, networkStop[a]!, networkStop[b]!);
    }
  }

  const measured: (StopFootpaths | undefined)[] = new Array(stops.length);
  const footpathsOf = (s: number): StopFootpaths => {
    const stop = stops[s]!;
    const at = stopPoint(data, stop);
    const ruled = rules.get(s) ?? new Map<number, number>();
    /** Stops within the radius that no rule names, and the rules' targets (minimum seconds each). */
    const near: number[] = [];
    if (at) {
      for (const { item } of data.grid.within(at[0], at[1], TRANSFER_RADIUS_METRES, Number.MAX_SAFE_INTEGER)) {
        const to = networkStop[item]!;
        if (to >= 0 && to !== s && !ruled.has(to)) near.push(to);
      }
    }
    const named = [...ruled].filter(([, minimum]) => minimum >= 0).map(([to]) => to);
    const points = named.map((to) => stopPoint(data, stops[to]!));
    // The rules' own radius is their farthest stop, so the radius rule's limit stays its own.
    let radius = TRANSFER_RADIUS_METRES;
    for (const b of points) if (at && b) radius = Math.max(radius, haversineMetres(at[0], at[1], b[0], b[1]));
    const nearWalks = near.length > 0 ? measure(stop, near.map((t) => stops[t]!), TRANSFER_RADIUS_METRES) : [];
    const namedWalks = named.length > 0 ? measure(stop, named.map((t) => stops[t]!), radius) : [];
    const list: { to: number; seconds: number; metres: number }[] = [];
    near.forEach((to, i) => {
      const walk = nearWalks[i];
      if (walk) list.push({ to, seconds: walk.seconds, metres: walk.metres });
    });
    named.forEach((to, i) => {
      // A feed's rule stands even where no walk is measured: straight-line, or no time at all
      // between stops without a position; min_transfer_time is its least.
      const b = points[i];
      const walk = namedWalks[i] ?? (at && b ? straightWalk(at, b) : { seconds: 0, metres: 0 });
      list.push({ to, seconds: Math.max(walk.seconds, ruled.get(to)!), metres: walk.metres });
    });
    list.sort((x, y) => x.seconds - y.seconds || x.to - y.to);
    return {
      to: Int32Array.from(list, (p) => p.to),
      seconds: Int32Array.from(list, (p) => p.seconds),
      metres: Float64Array.from(list, (p) => p.metres),
    };
  };
  return {
    from: (s) => (measured[s] ??= footpathsOf(s)),
    changeSeconds,
  };
}

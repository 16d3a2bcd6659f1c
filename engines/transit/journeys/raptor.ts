/**
 * RAPTOR rounds over one feed's network: round k holds the earliest arrivals with k rides.
 * Service days are the feed's service dates whose trips can still be running at departAt (base
 * epoch ≥ departAt − the feed's largest time, which takes in post-midnight and multi-day trips)
 * up to two days later; a trip of a day runs when the calendar says its service runs that
 * date, and its instants are base epoch + seconds (the base carries the date's UTC offset).
 *
 * Boarding and alighting follow pickup_type and drop_off_type (1: not here).
 *
 * Walking between rides happens once, right after a ride (a footpath of the network, or staying
 * put for the stop's change time); access walks to the first boarding and egress walks from
 * the last alighting. All stops here are network stops (TransitNetwork.stops).
 */
import { NO_DROP_OFF, NO_PICKUP, type TransitData } from '../data.ts';
import type { TransitNetwork } from './network.ts';
import type { Footpaths } from './footpaths.ts';
import type { WalkTo } from './walk-model.ts';

/** Service days searched after departAt's: first boardings up to two days after depart_at. */
export const SEARCH_DAYS_AHEAD = 2;

/** How a round's boarding label was reached. */
export const BoardKind = { None: 0, Carried: 1, Access: 2, Ride: 3, Walk: 4 } as const;

/** One round's labels, indexed by network stop. */
export interface Round {
  /** Arrival by a ride of this round (Infinity when none improved it this round). */
  rideArrival: Float64Array;
  ridePattern: Int32Array;
  /** Index of the trip inside its pattern. */
  rideTrip: Int32Array;
  /** Index into RaptorResult.days. */
  rideDay: Int32Array;
  rideBoardPos: Int32Array;
  rideAlightPos: Int32Array;
  /** Earliest moment one can board at the stop with at most this many rides. */
  boardArrival: Float64Array;
  boardKind: Int8Array;
  /** BoardKind.Walk: the stop walked from (its rideArrival of this round). */
  boardFrom: Int32Array;
  boardWalk: Float64Array;
}

export interface ServiceDay {
  date: number;
  base: number;
}

export interface RaptorTarget {
  rides: number;
  arrival: number;
  /** Network stop the egress walk leaves from. */
  egressStop: number;
  egress: WalkTo;
  /** The footpath walked to egressStop after the last ride (from a stop its ride reached), or null: the egress follows the ride. */
  walk: { from: number; metres: number; arrival: number } | null;
}

export interface RaptorResult {
  departAt: number;
  days: ServiceDay[];
  rounds: Round[];
  /** One per round that improved on every earlier one (and on the direct walk). */
  targets: RaptorTarget[];
}

export interface RaptorRequest {
  departAt: number;
  /** The footpaths walked after a ride (TransitWalking.paths). */
  paths: Footpaths;
  /** Release-wide stops (as walking.ts gives them); stops outside the network are ignored. */
  access: WalkTo[];
  egress: WalkTo[];
  maxRides: number;
  /** Arrival of a direct walk, Infinity when none: rides must beat it. */
  walkArrival: number;
}

export function serviceDays(network: TransitNetwork, departAt: number): ServiceDay[] {
  const { baseEpochs, serviceDates } = network.feed;
  const days: ServiceDay[] = [];
  const until = departAt + SEARCH_DAYS_AHEAD * 86_400;
  for (let d = 0; d < baseEpochs.length; d++) {
    const base = baseEpochs[d]!;
    if (base + network.maxSecs >= departAt && base <= until) days.push({ date: serviceDates[d]!, base });
  }
  return days;
}

function newRound(n: number): Round {
  return {
    rideArrival: new Float64Array(n).fill(Infinity),
    ridePattern: new Int32Array(n),
    rideTrip: new Int32Array(n),
    rideDay: new Int32Array(n),
    rideBoardPos: new Int32Array(n),
    rideAlightPos: new Int32Array(n),
    boardArrival: new Float64Array(n).fill(Infinity),
    boardKind: new Int8Array(n),
    boardFrom: new Int32Array(n).fill(-1),
    boardWalk: new Float64Array(n),
  };
}

export function runRaptor(data: TransitData, network: TransitNetwork, request: RaptorRequest): RaptorResult {
  const n = network.stops.length;
  const { patterns, stopPatterns, networkStop } = network;
  const footpaths = request.paths;
  const { calendar } = data;
  const days = serviceDays(network, request.departAt);
  const bestRide = new Float64Array(n).fill(Infinity);
  const bestBoard = new Float64Array(n).fill(Infinity);
  const egressOf = new Map<number, WalkTo>();
  for (const e of request.egress) {
    const s = networkStop[e.stop]!;
    if (s >= 0 && !egressOf.has(s)) egressOf.set(s, e);
  }
  let bestTarget = request.walkArrival;

  const isMarked = new Uint8Array(n);
  let marked: number[] = [];
  const mark = (s: number) => {
    if (!isMarked[s]) {
      isMarked[s] = 1;
      marked.push(s);
    }
  };
  const round0 = newRound(n);
  for (const a of request.access) {
    const s = networkStop[a.stop]!;
    const t = request.departAt + a.seconds;
    if (s >= 0 && t < round0.boardArrival[s]!) {
      round0.boardArrival[s] = t;
      round0.boardKind[s] = BoardKind.Access;
      round0.boardWalk[s] = a.metres;
      bestBoard[s] = t;
      mark(s);
    }
  }
  const rounds: Round[] = [round0];
  const targets: RaptorTarget[] = [];
  /** Earliest position (in its pattern) at which each pattern is scanned this round; −1 when not queued. */
  const queuedFrom = new Int32Array(patterns.length).fill(-1);

  /**
   * Index of the earliest trip of pattern p leaving position i at or after `time` on the service
   * day at `base` that takes passengers on there (pickup_type ≠ 1); −1 when none.
   */
  const findTrip = (p: number, i: number, time: number, base: number): number => {
    const { departures, stops, trips, boarding } = patterns[p]!;
    const width = stops.length;
    const count = trips.length;
    const rel = time - base;
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (departures[mid * width + i]! < rel) lo = mid + 1;
      else hi = mid;
    }
    if (boarding) while (lo < count && (boarding[lo * width + i]! & NO_PICKUP) !== 0) lo++;
    return lo < count ? lo : -1;
  };

  for (let k = 1; k <= request.maxRides && marked.length > 0; k++) {
    const prev = rounds[k - 1]!;
    const cur = newRound(n);
    cur.boardArrival.set(prev.boardArrival);
    for (let s = 0; s < n; s++) if (prev.boardArrival[s]! < Infinity) cur.boardKind[s] = BoardKind.Carried;
    rounds.push(cur);

    const queue: number[] = [];
    for (const stop of marked) {
      isMarked[stop] = 0;
      const pairs = stopPatterns[stop]!;
      for (let j = 0; j < pairs.length; j += 2) {
        const p = pairs[j]!;
        const pos = pairs[j + 1]!;
        const queued = queuedFrom[p]!;
        if (queued < 0) queue.push(p);
        if (queued < 0 || pos < queued) queuedFrom[p] = pos;
      }
    }
    marked = [];

    const improved: number[] = [];
    for (const p of queue) {
      const start = queuedFrom[p]!;
      queuedFrom[p] = -1;
      const { stops, arrivals, departures, boarding, service, trips } = patterns[p]!;
      const width = stops.length;
      const last = (trips.length - 1) * width;
      // Each service day's trips on their own: a pattern is FIFO within a day, not across days
      // (a trip at 24:50 of one day leaves before, and may arrive after, one at 01:00 of the next).
      for (let day = 0; day < days.length; day++) {
        const { base, date } = days[day]!;
        // Skip days whose trips have all arrived before departAt, start after the best arrival, or do not run.
        if (base + arrivals[last + width - 1]! < request.departAt || base + departures[0]! >= bestTarget) continue;
        if (!calendar.runs(service, date)) continue;
        let trip = -1;
        let boardPos = -1;
        for (let i = start; i < width; i++) {
          const stop = stops[i]!;
          // No getting off where the trip lets no one off (drop_off_type 1).
          if (trip >= 0 && (boarding === null || (boarding[trip * width + i]! & NO_DROP_OFF) === 0)) {
            const arrival = base + arrivals[trip * width + i]!;
            if (arrival < bestRide[stop]! && arrival < bestTarget) {
              if (cur.rideArrival[stop] === Infinity) improved.push(stop);
              bestRide[stop] = arrival;
              cur.rideArrival[stop] = arrival;
              cur.ridePattern[stop] = p;
              cur.rideTrip[stop] = trip;
              cur.rideDay[stop] = day;
              cur.rideBoardPos[stop] = boardPos;
              cur.rideAlightPos[stop] = i;
            }
          }
          const ready = prev.boardArrival[stop]!;
          if (ready === Infinity) continue;
          if (trip >= 0 && ready > base + departures[trip * width + i]!) continue;
          const found = findTrip(p, i, ready, base);
          if (found >= 0 && (trip < 0 || departures[found * width + i]! < departures[trip * width + i]!)) {
            trip = found;
            boardPos = i;
          }
        }
      }
    }

    // Staying put: boarding again after the stop's change time.
    for (const stop of improved) {
      const t = cur.rideArrival[stop]! + footpaths.changeSeconds[stop]!;
      if (t < bestBoard[stop]!) {
        bestBoard[stop] = t;
        cur.boardArrival[stop] = t;
        cur.boardKind[stop] = BoardKind.Ride;
        mark(stop);
      }
    }
    // The egress walk follows the last ride, or a footpath after it (whether or not that
    // footpath gives the stop a better boarding label: an access label there cannot egress).
    let target = null as RaptorTarget | null;
    const offer = (stop: number, arrival: number, walk: RaptorTarget['walk']) => {
      const egress = egressOf.get(stop);
      if (egress && arrival + egress.seconds < (target?.arrival ?? bestTarget)) {
        target = { rides: k, arrival: arrival + egress.seconds, egressStop: stop, egress, walk };
      }
    };
    for (const stop of improved) {
      const arrival = cur.rideArrival[stop]!;
      offer(stop, arrival, null);
      const paths = footpaths.from(stop);
      for (let f = 0; f < paths.to.length; f++) {
        const to = paths.to[f]!;
        const t = arrival + paths.seconds[f]!;
        if (t >= bestTarget) break; // paths are shortest first
        offer(to, t, { from: stop, metres: paths.metres[f]!, arrival: t });
        if (t < bestBoard[to]!) {
          bestBoard[to] = t;
          cur.boardArrival[to] = t;
          cur.boardKind[to] = BoardKind.Walk;
          cur.boardFrom[to] = stop;
          cur.boardWalk[to] = paths.metres[f]!;
          mark(to);
        }
      }
    }
    if (target) {
      targets.push(target);
      bestTarget = target.arrival;
    }
  }
  return { departAt: request.departAt, days, rounds, targets };
}

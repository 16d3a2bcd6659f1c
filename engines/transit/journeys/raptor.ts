/**
 * RAPTOR rounds over one feed's patterns: round k holds the earliest arrivals with k rides.
 * Service days are the feed's service dates whose trips can still be running at departAt (base
 * epoch ≥ departAt − the feed's largest time, which takes in post-midnight and multi-day trips)
 * up to two days later; a trip of a day runs when the calendar says its service runs that
 * date, and its instants are base epoch + seconds (the base carries the date's UTC offset).
 *
 * Walking between rides happens once, right after a ride (a footpath to a stop within 300 m or
 * staying put); access walks to the first boarding and egress walks from the last alighting.
 */
import type { TransitData } from '../data.ts';
import type { TransitNetwork } from './network.ts';
import { footpaths, type WalkTo } from './walking.ts';

/** Service days searched after departAt's: first boardings up to two days after depart_at. */
export const SEARCH_DAYS_AHEAD = 2;

/** How a round's boarding label was reached. */
export const BoardKind = { None: 0, Carried: 1, Access: 2, Ride: 3, Walk: 4 } as const;

/** One round's labels; arrays are indexed by release-wide stop. */
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
  egressStop: number;
  egress: WalkTo;
  /** The egress leaves from a stop reached by a footpath of round `rides` (else by its ride). */
  viaWalk: boolean;
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

export function runRaptor(data: TransitData, network: TransitNetwork, request: RaptorRequest): RaptorResult {
  const n = data.stops.length;
  const days = serviceDays(network, request.departAt);
  const newRound = (): Round => ({
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
  });
  const bestRide = new Float64Array(n).fill(Infinity);
  const bestBoard = new Float64Array(n).fill(Infinity);
  const egressOf = new Map<number, WalkTo>(request.egress.map((e) => [e.stop, e]));
  let bestTarget = request.walkArrival;

  const round0 = newRound();
  let marked = new Set<number>();
  for (const a of request.access) {
    const t = request.departAt + a.seconds;
    if (t < round0.boardArrival[a.stop]!) {
      round0.boardArrival[a.stop] = t;
      round0.boardKind[a.stop] = BoardKind.Access;
      round0.boardWalk[a.stop] = a.metres;
      bestBoard[a.stop] = t;
      marked.add(a.stop);
    }
  }
  const rounds: Round[] = [round0];
  const targets: RaptorTarget[] = [];
  const { calendar, trips } = data;

  /** Earliest trip of pattern p leaving position i at or after `time` on any searched day. */
  const earliestTrip = (p: number, i: number, time: number): { trip: number; day: number; at: number } | null => {
    const pattern = network.patterns[p]!;
    const width = pattern.stops.length;
    const count = pattern.trips.length;
    let best: { trip: number; day: number; at: number } | null = null;
    for (let d = 0; d < days.length; d++) {
      const { base, date } = days[d]!;
      const rel = time - base;
      let lo = 0;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (pattern.departures[mid * width + i]! < rel) lo = mid + 1;
        else hi = mid;
      }
      for (let t = lo; t < count; t++) {
        const at = base + pattern.departures[t * width + i]!;
        if (best && at >= best.at) break;
        if (calendar.runs(trips.service[pattern.trips[t]!]!, date)) {
          best = { trip: t, day: d, at };
          break;
        }
      }
    }
    return best;
  };

  for (let k = 1; k <= request.maxRides && marked.size > 0; k++) {
    const prev = rounds[k - 1]!;
    const cur = newRound();
    cur.boardArrival.set(prev.boardArrival);
    for (let s = 0; s < n; s++) if (prev.boardArrival[s]! < Infinity) cur.boardKind[s] = BoardKind.Carried;
    rounds.push(cur);

    const queue = new Map<number, number>();
    for (const stop of marked) {
      const pairs = network.stopPatterns[stop]!;
      for (let j = 0; j < pairs.length; j += 2) {
        const p = pairs[j]!;
        const pos = pairs[j + 1]!;
        const queued = queue.get(p);
        if (queued === undefined || pos < queued) queue.set(p, pos);
      }
    }

    const improved: number[] = [];
    for (const [p, start] of queue) {
      const pattern = network.patterns[p]!;
      const width = pattern.stops.length;
      let trip = -1;
      let day = -1;
      let boardPos = -1;
      for (let i = start; i < width; i++) {
        const stop = pattern.stops[i]!;
        if (trip >= 0) {
          const arrival = days[day]!.base + pattern.arrivals[trip * width + i]!;
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
        if (trip >= 0 && ready > days[day]!.base + pattern.departures[trip * width + i]!) continue;
        const candidate = earliestTrip(p, i, ready);
        if (candidate && (trip < 0 || candidate.at < days[day]!.base + pattern.departures[trip * width + i]!)) {
          trip = candidate.trip;
          day = candidate.day;
          boardPos = i;
        }
      }
    }

    marked = new Set<number>();
    for (const stop of improved) {
      const arrival = cur.rideArrival[stop]!;
      if (arrival < bestBoard[stop]!) {
        bestBoard[stop] = arrival;
        cur.boardArrival[stop] = arrival;
        cur.boardKind[stop] = BoardKind.Ride;
        marked.add(stop);
      }
    }
    for (const stop of improved) {
      const arrival = cur.rideArrival[stop]!;
      for (const path of footpaths(data, network.feed.feedId, stop)) {
        const t = arrival + path.seconds;
        if (t < bestBoard[path.stop]! && t < bestTarget) {
          bestBoard[path.stop] = t;
          cur.boardArrival[path.stop] = t;
          cur.boardKind[path.stop] = BoardKind.Walk;
          cur.boardFrom[path.stop] = stop;
          cur.boardWalk[path.stop] = path.metres;
          marked.add(path.stop);
        }
      }
    }
    // The egress walk follows the last ride, or the footpath after it.
    let target = null as RaptorTarget | null;
    const offer = (stop: number, arrival: number, viaWalk: boolean) => {
      const egress = egressOf.get(stop);
      if (egress && arrival + egress.seconds < (target?.arrival ?? bestTarget)) {
        target = { rides: k, arrival: arrival + egress.seconds, egressStop: stop, egress, viaWalk };
      }
    };
    for (const stop of improved) offer(stop, cur.rideArrival[stop]!, false);
    for (const stop of marked) if (cur.boardKind[stop] === BoardKind.Walk) offer(stop, cur.boardArrival[stop]!, true);
    if (target) {
      targets.push(target);
      bestTarget = target.arrival;
    }
  }
  return { departAt: request.departAt, days, rounds, targets };
}

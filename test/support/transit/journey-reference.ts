/**
 * A deliberately simple, brute-force earliest-arrival transit search used as an oracle for the
 * RAPTOR router (engines/transit/journeys/). It shares no code with the router: it works on the
 * time-expanded graph of the feed, explored by one label-setting (Dijkstra) search.
 *
 * Events: every stop time of every trip of the feed, on every service date whose base epoch
 * (local noon − 12 h) lies in [departAt − max(2 days, feed.maxSecs), departAt + 2 days] and on
 * which the trip's service runs (ServiceCalendar.runs, as departures.ts decides it), at the
 * absolute instant base epoch + seconds. Events later than departAt + 2 days are ignored.
 *
 * Nodes and arcs of the time-expanded graph (explored lazily, never materialised as a whole):
 *   - stop node (stop, t): the traveller stands at the stop at instant t, may board any departure
 *     ≥ t there that takes passengers on (pickup_type ≠ 1; waiting arcs, +0 s boarding time, +1 ride);
 *   - ride node (trip, service date, position): the traveller is on that trip instance as it
 *     reaches that stop of the trip (at its arrival instant); arcs: stay on to the next stop of
 *     the trip, or get off here where drop_off_type ≠ 1 → stop node at the arrival instant + the stop's change time, plus
 *     one footpath from here.
 * Walking: access walks from the origin to stop nodes at departAt + seconds; after getting off
 * a trip one footpath (footpaths(stop)) may be taken, or changeSeconds(stop) waited at the stop,
 * before boarding again (no walk after a walk, as in RAPTOR, where footpaths are one hop after
 * each round); the egress walk may follow any alighting or any stop node reached by at least one
 * ride (also one reached by a footpath); direct(from, to) is the journey without any ride.
 *
 * Labels are (instant, rides), ordered lexicographically; the heap pops them in that order, so
 * the first label popped at a node is its earliest and, of those, fewest rides. A stop node label
 * (t, r) is dominated by an earlier-popped label (t' ≤ t, r' ≤ r) at the same stop (walk-only labels,
 * r = 0, only by each other: they cannot egress); a ride node
 * has a fixed instant, so a label there is dominated by any earlier one with r' ≤ r. The search
 * stops once the popped instant is later than the best arrival found (egress only adds time).
 *
 * transfers = rides − 1 (0 for a journey with no ride). Not fast: meant for tests and benchmarks
 * over a few dozen queries.
 */
import { NO_DROP_OFF, NO_PICKUP, type TransitData } from '../../../engines/transit/data.ts';

export type LngLat = [number, number];

export interface ReferenceRequest {
  from: LngLat;
  to: LngLat;
  /** UTC epoch seconds. */
  departAt: number;
  /** At most maxTransfers + 1 rides; unbounded when left out. */
  maxTransfers?: number;
}

export interface StopWalk {
  stop: number;
  seconds: number;
}

export interface ReferenceWalking {
  accessStops(point: LngLat): StopWalk[];
  egressStops(point: LngLat): StopWalk[];
  footpaths(stop: number): StopWalk[];
  /** Seconds from alighting at the stop to boarding another trip there; Infinity when not allowed. */
  changeSeconds(stop: number): number;
  /** Seconds to walk straight from from to to, or null when not walkable. */
  direct(from: LngLat, to: LngLat): number | null;
}

export interface ReferenceAnswer {
  /** UTC epoch seconds at the destination. */
  arrival: number;
  /** rides − 1, 0 when the journey has no ride. */
  transfers: number;
  rides: number;
}

const DAY = 86_400;
/** How far past departAt the search looks (and how far back at least for multi-day trips). */
const HORIZON = 2 * DAY;

/** Rows of stop_times of each trip, ordered by stop_sequence: the trip's stops in order. */
interface TripIndex {
  /** rows of trip t are tripRows[tripStart[t] .. tripStart[t + 1]). */
  tripStart: Int32Array;
  tripRows: Int32Array;
  /** Position of each stop_times row inside its trip's list. */
  positionOf: Int32Array;
  /** Stop of each stop_times row (StopTimeColumns only groups rows by stop). */
  stopOf: Int32Array;
}

const tripIndexes = new WeakMap<TransitData, TripIndex>();

/** Built once per TransitData (a few seconds on 5 M stop_times), then reused. */
export function tripIndexOf(data: TransitData): TripIndex {
  const cached = tripIndexes.get(data);
  if (cached) return cached;
  const { stopTimes } = data;
  const rows = stopTimes.trip.length;
  const tripCount = data.trips.ids.length;
  const stopOf = new Int32Array(rows);
  for (let stop = 0; stop + 1 < stopTimes.stopStart.length; stop++) {
    for (let row = stopTimes.stopStart[stop]!; row < stopTimes.stopStart[stop + 1]!; row++) stopOf[row] = stop;
  }
  const tripStart = new Int32Array(tripCount + 1);
  for (let row = 0; row < rows; row++) tripStart[stopTimes.trip[row]! + 1]!++;
  for (let t = 0; t < tripCount; t++) tripStart[t + 1]! += tripStart[t]!;
  const fill = tripStart.slice(0, tripCount);
  const tripRows = new Int32Array(rows);
  for (let row = 0; row < rows; row++) tripRows[fill[stopTimes.trip[row]!]!++] = row;
  const positionOf = new Int32Array(rows);
  for (let t = 0; t < tripCount; t++) {
    const list = Array.from(tripRows.subarray(tripStart[t]!, tripStart[t + 1]!));
    list.sort((a, b) => stopTimes.sequence[a]! - stopTimes.sequence[b]!);
    list.forEach((row, i) => {
      tripRows[tripStart[t]! + i] = row;
      positionOf[row] = i;
    });
  }
  const index = { tripStart, tripRows, positionOf, stopOf };
  tripIndexes.set(data, index);
  return index;
}

type State =
  /** At a stop from instant `time`, after `rides` rides. */
  | { kind: 'stop'; time: number; rides: number; stop: number }
  /** Waiting at `stop` (reached with `rides` rides) for the departure in stop_times row `row` of service date index `date`. */
  | { kind: 'wait'; time: number; rides: number; stop: number; date: number; row: number }
  /** On trip `trip` of service date index `date` as it reaches position `position` (rides counts this trip). */
  | { kind: 'ride'; time: number; rides: number; trip: number; date: number; position: number };

/** Binary min-heap on (time, rides). */
class Heap {
  private readonly items: State[] = [];
  get size(): number {
    return this.items.length;
  }
  private less(a: State, b: State): boolean {
    return a.time < b.time || (a.time === b.time && a.rides < b.rides);
  }
  push(item: State): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }
  pop(): State {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(items[l]!, items[m]!)) m = l;
        if (r < items.length && this.less(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
}

export function referenceEarliestArrival(
  data: TransitData,
  feedId: string,
  request: ReferenceRequest,
  walking: ReferenceWalking,
): ReferenceAnswer | null {
  const feedIndex = data.feeds.findIndex((f) => f.feedId === feedId);
  if (feedIndex < 0) throw new Error(`no feed ${feedId} in release ${data.releaseId}`);
  const feed = data.feeds[feedIndex]!;
  const { stopTimes, trips, calendar } = data;
  const index = tripIndexOf(data);
  const inFeed = (stop: number) => data.stopFeed[stop] === feedIndex;
  const maxRides = request.maxTransfers === undefined ? Number.POSITIVE_INFINITY : request.maxTransfers + 1;
  const horizonEnd = request.departAt + HORIZON;

  // Service dates whose trips can have events in [departAt, horizonEnd].
  const dates: { day: number; base: number }[] = [];
  const earliestBase = request.departAt - Math.max(HORIZON, feed.maxSecs);
  for (let d = 0; d < feed.serviceDates.length; d++) {
    const base = feed.baseEpochs[d]!;
    if (base >= earliestBase && base <= horizonEnd) dates.push({ day: feed.serviceDates[d]!, base });
  }

  let best = null as ReferenceAnswer | null;
  const offer = (arrival: number, rides: number) => {
    if (!best || arrival < best.arrival || (arrival === best.arrival && rides < best.rides)) {
      best = { arrival, rides, transfers: Math.max(0, rides - 1) };
    }
  };
  const direct = walking.direct(request.from, request.to);
  if (direct !== null) offer(request.departAt + direct, 0);

  const egress = new Map<number, number>();
  for (const { stop, seconds } of walking.egressStops(request.to)) {
    if (inFeed(stop) && seconds < (egress.get(stop) ?? Number.POSITIVE_INFINITY)) egress.set(stop, seconds);
  }

  const heap = new Heap();
  for (const { stop, seconds } of walking.accessStops(request.from)) {
    if (inFeed(stop)) heap.push({ kind: 'stop', time: request.departAt + seconds, rides: 0, stop });
  }

  /**
   * Fewest rides of any label popped so far at a stop (popped labels are never later than the
   * current one), kept apart for walk-only labels: a label with no ride may not egress, so it
   * must not block a later one that arrived by a ride.
   */
  const stopRides = new Map<number, number>();
  const walkedTo = new Set<number>();
  /** Fewest rides of any label popped so far at a ride node "trip:date:position". */
  const rideRides = new Map<string, number>();
  const arrivalAt = (row: number, base: number) => base + (stopTimes.arrival[row]! >= 0 ? stopTimes.arrival[row]! : stopTimes.departure[row]!);

  while (heap.size > 0) {
    const state = heap.pop();
    if (best && state.time > best.arrival) break;
    if (state.time > horizonEnd) break;

    if (state.kind === 'stop') {
      if (state.rides === 0) {
        if (walkedTo.has(state.stop)) continue;
        walkedTo.add(state.stop);
      } else {
        if ((stopRides.get(state.stop) ?? Number.POSITIVE_INFINITY) <= state.rides) continue;
        stopRides.set(state.stop, state.rides);
      }
      const egressSeconds = egress.get(state.stop);
      if (egressSeconds !== undefined && state.rides >= 1) offer(state.time + egressSeconds, state.rides);
      if (state.rides >= maxRides) continue;
      // Waiting arcs: the first departure at or after state.time on each service date; the wait
      // state then steps through the later ones one at a time.
      const from = stopTimes.stopStart[state.stop]!;
      const to = stopTimes.stopStart[state.stop + 1]!;
      for (let d = 0; d < dates.length; d++) {
        const base = dates[d]!.base;
        // First row of the stop (rows sorted by departure) with base + departure ≥ state.time.
        let row = from;
        let hi = to;
        while (row < hi) {
          const mid = (row + hi) >>> 1;
          if (base + stopTimes.departure[mid]! < state.time) row = mid + 1;
          else hi = mid;
        }
        if (row < to) heap.push({ kind: 'wait', time: base + stopTimes.departure[row]!, rides: state.rides, stop: state.stop, date: d, row });
      }
    } else if (state.kind === 'wait') {
      const { day, base } = dates[state.date]!;
      const trip = stopTimes.trip[state.row]!;
      // Board unless the service does not run that date or the trip takes no one on here.
      if (calendar.runs(trips.service[trip]!, day) && (stopTimes.boarding[state.row]! & NO_PICKUP) === 0) {
        const position = index.positionOf[state.row]!;
        const count = index.tripStart[trip + 1]! - index.tripStart[trip]!;
        if (position + 1 < count) {
          const nextRow = index.tripRows[index.tripStart[trip]! + position + 1]!;
          // Math.max: a feed whose next arrival precedes this departure must not send the search back in time.
          heap.push({ kind: 'ride', time: Math.max(state.time, arrivalAt(nextRow, base)), rides: state.rides + 1, trip, date: state.date, position: position + 1 });
        }
      }
      const next = state.row + 1;
      if (next < stopTimes.stopStart[state.stop + 1]!) {
        heap.push({ ...state, time: base + stopTimes.departure[next]!, row: next });
      }
    } else {
      const key = `${state.trip}:${state.date}:${state.position}`;
      if ((rideRides.get(key) ?? Number.POSITIVE_INFINITY) <= state.rides) continue;
      rideRides.set(key, state.rides);
      const { base } = dates[state.date]!;
      const row = index.tripRows[index.tripStart[state.trip]! + state.position]!;
      const stop = index.stopOf[row]!;
      // Get off here, unless the trip lets no one off here: walk to the destination, or board
      // again after the stop's change time (or perhaps walk one footpath) ...
      if ((stopTimes.boarding[row]! & NO_DROP_OFF) === 0) {
        const egressSeconds = egress.get(stop);
        if (egressSeconds !== undefined) offer(state.time + egressSeconds, state.rides);
        const change = walking.changeSeconds(stop);
        if (change < Number.POSITIVE_INFINITY) heap.push({ kind: 'stop', time: state.time + change, rides: state.rides, stop });
        for (const walk of walking.footpaths(stop)) {
          if (inFeed(walk.stop) && walk.stop !== stop) heap.push({ kind: 'stop', time: state.time + walk.seconds, rides: state.rides, stop: walk.stop });
        }
      }
      // ... or stay on to the next stop of the trip.
      const count = index.tripStart[state.trip + 1]! - index.tripStart[state.trip]!;
      if (state.position + 1 < count) {
        const nextRow = index.tripRows[index.tripStart[state.trip]! + state.position + 1]!;
        heap.push({ ...state, time: Math.max(state.time, arrivalAt(nextRow, base)), position: state.position + 1 });
      }
    }
  }
  return best;
}

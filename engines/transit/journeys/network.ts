/**
 * RAPTOR's view of one feed of an opened transit release, built once on first use and cached
 * per TransitData: route patterns (trips of a route and service calling at the same stop
 * sequence with the same pickup and drop-off rules, split further so that no trip of a pattern overtakes another; one calendar check
 * then tells whether a whole pattern runs on a date), their trips' times, stop → patterns, and
 * straight-line footpaths (each stop's measured on first use).
 *
 * Stops are numbered inside the network (only the feed's stops some pattern calls at), so a
 * search allocates labels for the routable feed, not for every stop of the release.
 */
import type { FeedData, TransitData } from '../data.ts';
import { buildFootpaths, straightWalks, type Footpaths } from './footpaths.ts';

export interface Pattern {
  route: number;
  /** The service (as in data.trips.service) of every trip of the pattern. */
  service: number;
  /** Network stops in calling order. */
  stops: Int32Array;
  /** Trip indexes (release-wide), sorted by departure at the first stop. */
  trips: Int32Array;
  /** Seconds relative to the service day, [trip * stops.length + position]. */
  arrivals: Int32Array;
  departures: Int32Array;
  /** stop_headsign as an index into data.stopTimes.headsigns (−1: none), like arrivals; null when no call has one. */
  headsigns: Int32Array | null;
  /** NO_PICKUP / NO_DROP_OFF bits (data.ts), like arrivals; null when every call allows both. */
  boarding: Uint8Array | null;
}

export interface TransitNetwork {
  feedIndex: number;
  feed: FeedData;
  patterns: Pattern[];
  /** Network stop → release-wide stop index. */
  stops: Int32Array;
  /** Release-wide stop index → network stop, −1 where no pattern calls. */
  networkStop: Int32Array;
  /** For each network stop: [pattern, position] pairs flattened. */
  stopPatterns: Int32Array[];
  /** Footpaths measured straight-line (along the streets: walking.ts, per roads release). */
  footpaths: Footpaths;
  /** Largest time (seconds after the service day's base) of any trip of the feed. */
  maxSecs: number;
}

const networks = new WeakMap<TransitData, Map<string, TransitNetwork | null>>();

/** The feed's RAPTOR structures, or null when the release has no such feed. */
export function transitNetwork(data: TransitData, feedId: string): TransitNetwork | null {
  let byFeed = networks.get(data);
  if (!byFeed) {
    byFeed = new Map();
    networks.set(data, byFeed);
  }
  if (!byFeed.has(feedId)) byFeed.set(feedId, buildNetwork(data, feedId));
  return byFeed.get(feedId)!;
}

interface Call {
  sequence: number;
  stop: number;
  arrival: number;
  departure: number;
  headsign: number;
  boarding: number;
}

function buildNetwork(data: TransitData, feedId: string): TransitNetwork | null {
  const feedIndex = data.feeds.findIndex((f) => f.feedId === feedId);
  if (feedIndex < 0) return null;
  const { stopTimes } = data;
  const calls = new Map<number, Call[]>();
  let maxSecs = 0;
  for (let stop = 0; stop < data.stops.length; stop++) {
    if (data.stopFeed[stop] !== feedIndex) continue;
    for (let row = stopTimes.stopStart[stop]!; row < stopTimes.stopStart[stop + 1]!; row++) {
      const trip = stopTimes.trip[row]!;
      const departure = stopTimes.departure[row]!;
      const given = stopTimes.arrival[row]!;
      const arrival = given >= 0 && given <= departure ? given : departure;
      maxSecs = Math.max(maxSecs, departure);
      let list = calls.get(trip);
      if (!list) calls.set(trip, (list = []));
      list.push({ sequence: stopTimes.sequence[row]!, stop, arrival, departure, headsign: stopTimes.headsign[row]!, boarding: stopTimes.boarding[row]! });
    }
  }

  // Trips grouped by route, service and stop sequence.
  const groups = new Map<string, { route: number; service: number; stops: number[]; trips: { trip: number; calls: Call[] }[] }>();
  for (const [trip, list] of calls) {
    if (list.length < 2) continue;
    list.sort((a, b) => a.sequence - b.sequence);
    const route = data.trips.route[trip]!;
    const service = data.trips.service[trip]!;
    const stops = list.map((c) => c.stop);
    // Pickup and drop-off rules are part of the key: the scan follows one trip of a pattern at a time.
    const key = `${route}|${service}|${stops.join(',')}|${list.map((c) => c.boarding).join('')}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { route, service, stops, trips: [] }));
    group.trips.push({ trip, calls: list });
  }

  const networkStop = new Int32Array(data.stops.length).fill(-1);
  const stops: number[] = [];
  const patterns: Pattern[] = [];
  for (const group of [...groups.values()].sort((a, b) => a.route - b.route || a.service - b.service || a.stops.join(',').localeCompare(b.stops.join(',')))) {
    group.trips.sort((a, b) => a.calls[0]!.departure - b.calls[0]!.departure || a.trip - b.trip);
    const local = group.stops.map((stop) => {
      if (networkStop[stop] === -1) networkStop[stop] = stops.push(stop) - 1;
      return networkStop[stop]!;
    });
    // Split so that every sub-pattern is FIFO: a trip never departs or arrives before the one before it.
    const lanes: { trip: number; calls: Call[] }[][] = [];
    for (const trip of group.trips) {
      const lane = lanes.find((l) => noOvertaking(l[l.length - 1]!.calls, trip.calls));
      if (lane) lane.push(trip);
      else lanes.push([trip]);
    }
    for (const lane of lanes) patterns.push(toPattern(group.route, group.service, local, lane));
  }

  const pairs: number[][] = stops.map(() => []);
  patterns.forEach((pattern, p) => pattern.stops.forEach((stop, position) => pairs[stop]!.push(p, position)));
  const networkStops = Int32Array.from(stops);
  return {
    feedIndex,
    feed: data.feeds[feedIndex]!,
    patterns,
    stops: networkStops,
    networkStop,
    stopPatterns: pairs.map((list) => Int32Array.from(list)),
    footpaths: buildFootpaths(data, networkStops, networkStop, straightWalks(data)),
    maxSecs,
  };
}

function noOvertaking(before: Call[], after: Call[]): boolean {
  return before.every((c, i) => c.arrival <= after[i]!.arrival && c.departure <= after[i]!.departure);
}

function toPattern(route: number, service: number, stops: number[], trips: { trip: number; calls: Call[] }[]): Pattern {
  const n = stops.length;
  const arrivals = new Int32Array(trips.length * n);
  const departures = new Int32Array(trips.length * n);
  const headsigns = new Int32Array(trips.length * n);
  const boarding = new Uint8Array(trips.length * n);
  let anyHeadsign = false;
  let anyRestriction = false;
  trips.forEach(({ calls }, t) => calls.forEach((c, i) => {
    arrivals[t * n + i] = c.arrival;
    departures[t * n + i] = c.departure;
    headsigns[t * n + i] = c.headsign;
    boarding[t * n + i] = c.boarding;
    if (c.headsign >= 0) anyHeadsign = true;
    if (c.boarding !== 0) anyRestriction = true;
  }));
  return {
    route,
    service,
    stops: Int32Array.from(stops),
    trips: Int32Array.from(trips.map((t) => t.trip)),
    arrivals,
    departures,
    headsigns: anyHeadsign ? headsigns : null,
    boarding: anyRestriction ? boarding : null,
  };
}

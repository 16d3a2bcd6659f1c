/**
 * RAPTOR's view of one feed of an opened transit release, built once on first use and cached
 * per TransitData: route patterns (trips of a route calling at the same stop sequence, split
 * further so that no trip of a pattern overtakes another), their trips' times, and stop → patterns.
 */
import type { FeedData, TransitData } from '../data.ts';

export interface Pattern {
  route: number;
  /** Stop indexes (release-wide) in calling order. */
  stops: Int32Array;
  /** Trip indexes (release-wide), sorted by departure at the first stop. */
  trips: Int32Array;
  /** Seconds relative to the service day, [trip * stops.length + position]. */
  arrivals: Int32Array;
  departures: Int32Array;
}

export interface TransitNetwork {
  feedIndex: number;
  feed: FeedData;
  patterns: Pattern[];
  /** For each release-wide stop: [pattern, position] pairs flattened (empty outside the feed). */
  stopPatterns: Int32Array[];
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
      list.push({ sequence: stopTimes.sequence[row]!, stop, arrival, departure });
    }
  }

  // Trips grouped by route and stop sequence.
  const groups = new Map<string, { route: number; stops: number[]; trips: { trip: number; calls: Call[] }[] }>();
  for (const [trip, list] of calls) {
    if (list.length < 2) continue;
    list.sort((a, b) => a.sequence - b.sequence);
    const route = data.trips.route[trip]!;
    const stops = list.map((c) => c.stop);
    const key = `${route}|${stops.join(',')}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { route, stops, trips: [] }));
    group.trips.push({ trip, calls: list });
  }

  const patterns: Pattern[] = [];
  for (const group of [...groups.values()].sort((a, b) => a.route - b.route || a.stops.join(',').localeCompare(b.stops.join(',')))) {
    group.trips.sort((a, b) => a.calls[0]!.departure - b.calls[0]!.departure || a.trip - b.trip);
    // Split so that every sub-pattern is FIFO: a trip never departs or arrives before the one before it.
    const lanes: { trip: number; calls: Call[] }[][] = [];
    for (const trip of group.trips) {
      const lane = lanes.find((l) => noOvertaking(l[l.length - 1]!.calls, trip.calls));
      if (lane) lane.push(trip);
      else lanes.push([trip]);
    }
    for (const lane of lanes) patterns.push(toPattern(group.route, group.stops, lane));
  }

  const pairs: number[][] = data.stops.map(() => []);
  patterns.forEach((pattern, p) => pattern.stops.forEach((stop, position) => pairs[stop]!.push(p, position)));
  return {
    feedIndex,
    feed: data.feeds[feedIndex]!,
    patterns,
    stopPatterns: pairs.map((list) => Int32Array.from(list)),
    maxSecs,
  };
}

function noOvertaking(before: Call[], after: Call[]): boolean {
  return before.every((c, i) => c.arrival <= after[i]!.arrival && c.departure <= after[i]!.departure);
}

function toPattern(route: number, stops: number[], trips: { trip: number; calls: Call[] }[]): Pattern {
  const n = stops.length;
  const arrivals = new Int32Array(trips.length * n);
  const departures = new Int32Array(trips.length * n);
  trips.forEach(({ calls }, t) => calls.forEach((c, i) => {
    arrivals[t * n + i] = c.arrival;
    departures[t * n + i] = c.departure;
  }));
  return { route, stops: Int32Array.from(stops), trips: Int32Array.from(trips.map((t) => t.trip)), arrivals, departures };
}

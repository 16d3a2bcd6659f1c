import type { Departure } from '../../schemas/transit-api.ts';
import type { TransitData } from './data.ts';

export interface DeparturesRequest {
  stop: number;
  /** UTC epoch seconds; departures in [at, at + windowSeconds) are returned. */
  at: number;
  windowSeconds: number;
  limit: number;
}

interface Candidate {
  stop: number;
  row: number;
  instant: number;
}

/** A run of one stop's stop_times for one service date, read in departure order. */
interface Cursor {
  stop: number;
  date: number;
  base: number;
  row: number;
  to: number;
}

/**
 * Scheduled departures at a stop (a station: at its child platforms). A departure's instant is
 * base_epoch(service date) + departure_secs, so every service date whose base epoch lies in
 * [at − max_secs, at + window) can contribute: that takes in trips of earlier service days still
 * running past midnight (25:10:00, VIA's 110:29:00), and DST days come out right because the
 * base epoch already carries the date's offset.
 *
 * Each (date, stop) pair is a run sorted by departure; the runs are merged in instant order and
 * the merge stops once `limit` departures are taken and the next instant is later (ties at the
 * cut are all kept, then ordered by stop_sequence and trip id), so a busy stop costs about
 * `limit` steps rather than its whole window.
 */
export function findDepartures(data: TransitData, request: DeparturesRequest): Departure[] {
  const { stopTimes, trips, calendar } = data;
  const feed = data.feeds[data.stopFeed[request.stop]!]!;
  const end = request.at + request.windowSeconds;
  const cursors: Cursor[] = [];
  const firstDate = lowerBound(feed.baseEpochs, request.at - feed.maxSecs);
  for (let d = firstDate; d < feed.baseEpochs.length && feed.baseEpochs[d]! < end; d++) {
    const base = feed.baseEpochs[d]!;
    for (const stop of data.stopMembers[request.stop]!) {
      const from = stopTimes.stopStart[stop]!;
      const to = stopTimes.stopStart[stop + 1]!;
      const row = lowerBoundIn(stopTimes.departure, from, to, request.at - base);
      if (row < to) cursors.push({ stop, date: feed.serviceDates[d]!, base, row, to });
    }
  }

  const taken: Candidate[] = [];
  for (;;) {
    let next: Cursor | null = null;
    let nextInstant = end;
    for (const cursor of cursors) {
      if (cursor.row >= cursor.to) continue;
      const instant = cursor.base + stopTimes.departure[cursor.row]!;
      if (instant < nextInstant) {
        next = cursor;
        nextInstant = instant;
      }
    }
    if (!next) break;
    if (taken.length >= request.limit && nextInstant > taken[taken.length - 1]!.instant) break;
    const row = next.row++;
    if (calendar.runs(trips.service[stopTimes.trip[row]!]!, next.date)) taken.push({ stop: next.stop, row, instant: nextInstant });
  }

  taken.sort((a, b) =>
    a.instant - b.instant ||
    stopTimes.sequence[a.row]! - stopTimes.sequence[b.row]! ||
    stopTimes.trip[a.row]! - stopTimes.trip[b.row]! ||
    a.row - b.row);
  return taken.slice(0, request.limit).map((c) => toDeparture(data, c));
}

function toDeparture(data: TransitData, { stop, row, instant: departureInstant }: Candidate): Departure {
  const { stopTimes, trips } = data;
  const trip = stopTimes.trip[row]!;
  const route = trips.route[trip]!;
  const arrivalSecs = stopTimes.arrival[row]!;
  const headsign = stopTimes.headsign[row]!;
  return {
    stop_id: data.stops[stop]!.id,
    route_id: route >= 0 ? data.routes[route]!.id : '',
    trip_id: trips.ids[trip]!,
    headsign: headsign >= 0 ? stopTimes.headsigns[headsign]! : trips.headsign[trip] ?? '',
    // GTFS: a stop time with only one of the two times has arrival = departure.
    arrival: isoInstant(arrivalSecs >= 0 ? departureInstant - stopTimes.departure[row]! + arrivalSecs : departureInstant),
    departure: isoInstant(departureInstant),
    stop_sequence: stopTimes.sequence[row]!,
    schedule_type: 'scheduled',
  };
}

/** 2026-03-08T07:00:00Z: whole seconds, UTC. */
export function isoInstant(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 19) + 'Z';
}

function lowerBound(values: Float64Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBoundIn(values: Int32Array, from: number, to: number, target: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

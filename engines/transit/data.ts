import type { Agency, TransitRoute, Stop } from '../../schemas/transit-api.ts';
import type { ServiceCalendar } from './service-calendar.ts';
import type { StopGrid } from './stop-grid.ts';

/** One feed of the release, with what its meta and its departure queries need. */
export interface FeedData {
  feedId: string;
  source: string;
  licence: string | null;
  attribution: string | null;
  sourceUpdatedAt: string | null;
  sourceVersion: string | null;
  contentHash: string;
  timezone: string;
  /** Largest departure_secs of the feed: a query at T only looks at service dates with base_epoch ≥ T − maxSecs. */
  maxSecs: number;
  /** Every service date of the feed (days since 1970-01-01), ascending, beside its base_epoch (UTC seconds of noon − 12 h, local). */
  serviceDates: Int32Array;
  baseEpochs: Float64Array;
}

/** `StopTimeColumns.boarding` bit: no pickup at this stop time (pickup_type 1). */
export const NO_PICKUP = 1;
/** `StopTimeColumns.boarding` bit: no drop-off at this stop time (drop_off_type 1). */
export const NO_DROP_OFF = 2;

/**
 * stop_times as parallel typed arrays, grouped by stop and sorted by departure inside each group
 * (ties in no particular order: queries order them). Rows without a departure time are left out.
 */
export interface StopTimeColumns {
  /** rows of stop i are [stopStart[i], stopStart[i + 1]). */
  stopStart: Int32Array;
  trip: Int32Array;
  departure: Int32Array;
  /** −1 when the feed leaves arrival empty. */
  arrival: Int32Array;
  sequence: Int32Array;
  /** index into headsigns, −1 when no stop_headsign. */
  headsign: Int32Array;
  headsigns: string[];
  /** Per row: bit 1 (NO_PICKUP) when pickup_type is 1 (no pickup), bit 2 (NO_DROP_OFF) when drop_off_type is 1; 0 otherwise. */
  boarding: Uint8Array;
}

export interface TripColumns {
  /** Trip ids in id order, so comparing indexes compares ids. */
  ids: string[];
  route: Int32Array;
  /** Index into the release-wide list of (feed, service_id) pairs. */
  service: Int32Array;
  headsign: (string | null)[];
}

/** transfers.txt stop-to-stop rules as parallel arrays, sorted by from stop then to stop. */
export interface TransferColumns {
  from: Int32Array;
  to: Int32Array;
  /** 0 recommended, 1 timed, 2 min_transfer_time applies, 3 not possible. */
  type: Int8Array;
  /** −1 when no min_transfer_time */
  minSeconds: Int32Array;
}

/** A release opened for serving: everything answered from memory, DuckDB closed after load. */
export interface TransitData {
  releaseId: string;
  createdAt: string;
  contentHash: string;
  feeds: FeedData[];
  agencies: Agency[];
  stops: Stop[];
  stopIndex: Map<string, number>;
  stopFeed: Int32Array;
  /** For each stop, the stops whose departures it answers with: itself, plus child platforms for a station. */
  stopMembers: Int32Array[];
  routes: TransitRoute[];
  routeIndex: Map<string, number>;
  routeFeed: Int32Array;
  trips: TripColumns;
  stopTimes: StopTimeColumns;
  /** transfers.txt stop-to-stop rules, sorted by from stop: stop indexes as in `stops`. Empty for a schema-1 release. */
  transfers: TransferColumns;
  calendar: ServiceCalendar;
  grid: StopGrid;
}

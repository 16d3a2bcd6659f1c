import {
  FEED_VERSION, PUBLISHER_NAME, PUBLISHER_URL, SERVICE_END, SERVICE_START, gtfsTime,
  type SampleFeed, type SamplePattern,
} from './sample-feed.ts';

type Cell = string | number | undefined;

/** The GTFS files of one sample feed: file name → CSV text (UTF-8, LF line ends, no BOM). */
export function renderFeed(feed: SampleFeed): Map<string, string> {
  const files = new Map<string, string>();
  files.set('agency.txt', csv(
    ['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang', 'agency_phone'],
    feed.agencies.map((a) => [a.id, a.name, a.url, feed.timezone, feed.lang, a.phone]),
  ));
  files.set('stops.txt', csv(
    ['stop_id', 'stop_code', 'stop_name', 'stop_lat', 'stop_lon', 'location_type', 'parent_station', 'platform_code', 'wheelchair_boarding'],
    feed.stops.map((s) => [s.id, s.code, s.name, s.lat.toFixed(5), s.lon.toFixed(5), s.locationType, s.parent, s.platformCode, s.wheelchair]),
  ));
  files.set('routes.txt', csv(
    ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type', 'route_color', 'route_text_color'],
    feed.routes.map((r) => [r.id, r.agencyId, r.shortName, r.longName, r.type, r.color, r.textColor]),
  ));
  const trips = feed.patterns.flatMap((pattern) => expandTrips(pattern));
  assertUnique(trips.map((t) => t.tripId), `${feed.id}: trip_id`);
  files.set('trips.txt', csv(
    ['route_id', 'service_id', 'trip_id', 'trip_headsign', 'trip_short_name', 'direction_id'],
    trips.map((t) => [t.pattern.routeId, t.pattern.serviceId, t.tripId, t.pattern.headsign, t.shortName, t.pattern.directionId]),
  ));
  const step = feed.sequenceStep ?? 1;
  files.set('stop_times.txt', csv(
    ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence', 'pickup_type', 'drop_off_type'],
    trips.flatMap((t) => t.pattern.stops.map(([stopId, arrive, depart], i, all) => [
      t.tripId,
      gtfsTime(t.start + arrive),
      gtfsTime(t.start + (depart ?? arrive)),
      stopId,
      (i + 1) * step,
      // no boarding at the last stop, no alighting at the first
      i === all.length - 1 ? 1 : undefined,
      i === 0 ? 1 : undefined,
    ])),
  ));
  files.set('calendar.txt', csv(
    ['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'],
    feed.services.map((s) => [s.id, ...s.days.split(''), s.start ?? SERVICE_START, s.end ?? SERVICE_END]),
  ));
  if (feed.exceptions && feed.exceptions.length > 0) {
    files.set('calendar_dates.txt', csv(
      ['service_id', 'date', 'exception_type'],
      feed.exceptions.map((e) => [e.serviceId, e.date, e.type]),
    ));
  }
  files.set('feed_info.txt', csv(
    ['feed_publisher_name', 'feed_publisher_url', 'feed_lang', 'feed_start_date', 'feed_end_date', 'feed_version'],
    [[PUBLISHER_NAME, PUBLISHER_URL, feed.lang, SERVICE_START, SERVICE_END, FEED_VERSION]],
  ));
  return files;
}

interface ExpandedTrip {
  pattern: SamplePattern;
  tripId: string;
  start: number;
  shortName: string | undefined;
}

function expandTrips(pattern: SamplePattern): ExpandedTrip[] {
  return pattern.starts.map((start, index) => ({
    pattern,
    // the start time in the id keeps ids stable when a trip is added elsewhere in the list
    tripId: `${pattern.routeId}-${pattern.serviceId}-${pattern.directionId}-${gtfsTime(start).slice(0, 5).replace(':', '')}`,
    start,
    shortName: pattern.firstTrainNumber === undefined ? undefined : String(pattern.firstTrainNumber + 2 * index),
  }));
}

function assertUnique(values: string[], label: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new Error(`${label} ${value} is generated twice`);
    seen.add(value);
  }
}

function csv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

function csvCell(value: Cell): string {
  if (value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

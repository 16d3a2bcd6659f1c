import type { DuckDBConnection } from '@duckdb/node-api';
import { queryOne, queryRows } from './duckdb.ts';
import type { FeedFiles } from './feed-files.ts';
import { REQUIRED_FILES } from './gtfs-files.ts';
import { refuse } from './refusal.ts';
import { countRows } from './stage.ts';

/** H+:MM:SS, e.g. 9:55:00, 25:10:00 or VIA Rail's 110:29:00 (at most 9999 h, so seconds fit an INTEGER). */
export const GTFS_TIME_PATTERN = '^[0-9]{1,4}:[0-5][0-9]:[0-5][0-9]$';
const DATE_PATTERN = '^[0-9]{8}$';
const KNOWN_ZONE = `(SELECT name FROM pg_timezone_names())`;

export interface ValidatedFeed {
  /** agency_timezone shared by every agency: the zone GTFS times are read in. */
  timezone: string;
  agencyCount: number;
  /** Defects tolerated (and repaired) rather than refused, shown in the coverage entry. */
  warnings: string[];
}

/** Refuses a feed whose required files are missing or whose frequencies.txt has rows (cheap, before loading). */
export function checkRequiredFiles(files: FeedFiles): void {
  const missing: string[] = REQUIRED_FILES.map((t) => `${t}.txt`).filter((name) => !files.has(name));
  if (!files.has('calendar.txt') && !files.has('calendar_dates.txt')) missing.push('calendar.txt or calendar_dates.txt');
  if (missing.length > 0) refuse(`missing required file${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
}

/**
 * Checks the raw tables of one feed and refuses it with a readable reason naming the file and an
 * example offending value. Every check is one SQL query (the first offending row, if any).
 */
export async function validateFeed(db: DuckDBConnection): Promise<ValidatedFeed> {
  await checkFrequencies(db);
  const timezone = await checkAgencies(db);
  const agencyCount = await countRows(db, 'agency');
  await checkStops(db);
  await checkRoutes(db, agencyCount);
  await checkCalendars(db);
  await checkTrips(db);
  await checkStopTimes(db);
  const warnings = [await danglingParentWarning(db)].filter((w): w is string => w !== null);
  return { timezone, agencyCount, warnings };
}

/** Frequency-based trips are refused; a header-only frequencies.txt is fine. */
export async function checkFrequencies(db: DuckDBConnection): Promise<void> {
  const frequencies = await countRows(db, 'frequencies');
  if (frequencies > 0) refuse(`frequencies.txt has ${frequencies} row${frequencies > 1 ? 's' : ''}: frequency-based trips are not supported`);
}

/** Refuses when the query returns a row; the reason is built from that row. */
async function refuseIf<T extends Record<string, unknown>>(db: DuckDBConnection, sql: string, reason: (row: T) => string): Promise<void> {
  const row = await queryOne<T>(db, `${sql} LIMIT 1`);
  if (row) refuse(reason(row));
}

const q = (value: unknown) => JSON.stringify(value ?? '');

async function checkAgencies(db: DuckDBConnection): Promise<string> {
  if ((await countRows(db, 'agency')) === 0) refuse('agency.txt has no agency');
  await refuseIf<{ n: number }>(db, `SELECT row_number() OVER () AS n, * FROM raw_agency QUALIFY agency_name IS NULL`, (r) => `agency.txt row ${r.n} has no agency_name`);
  await refuseIf<{ agency_timezone: string }>(db, `SELECT agency_timezone FROM raw_agency WHERE agency_timezone IS NULL OR agency_timezone NOT IN ${KNOWN_ZONE}`,
    (r) => (r.agency_timezone ? `agency.txt has unknown agency_timezone ${q(r.agency_timezone)}` : 'agency.txt has an agency without agency_timezone'));
  const zones = await queryRows<{ tz: string }>(db, `SELECT DISTINCT agency_timezone AS tz FROM raw_agency ORDER BY 1`);
  if (zones.length > 1) refuse(`agency.txt: agencies have different timezones (${zones.map((z) => z.tz).join(', ')}); one feed must use one agency_timezone`);
  const several = (await countRows(db, 'agency')) > 1;
  if (several) {
    await refuseIf<{ agency_name: string }>(db, `SELECT agency_name FROM raw_agency WHERE agency_id IS NULL`, (r) => `agency.txt has several agencies but ${q(r.agency_name)} has no agency_id`);
    await refuseIf<{ agency_id: string }>(db, `SELECT agency_id FROM raw_agency GROUP BY agency_id HAVING count(*) > 1`, (r) => `agency.txt has agency_id ${q(r.agency_id)} more than once`);
  }
  return zones[0]!.tz;
}

async function checkStops(db: DuckDBConnection): Promise<void> {
  await refuseIf(db, `SELECT stop_name FROM raw_stops WHERE stop_id IS NULL`, (r) => `stops.txt has a stop without stop_id (stop_name ${q(r.stop_name)})`);
  await refuseIf<{ stop_id: string }>(db, `SELECT stop_id FROM raw_stops GROUP BY stop_id HAVING count(*) > 1`, (r) => `stops.txt has stop_id ${q(r.stop_id)} more than once`);
  await refuseIf<{ stop_id: string; location_type: string }>(db,
    `SELECT stop_id, location_type FROM raw_stops WHERE location_type IS NOT NULL AND coalesce(TRY_CAST(location_type AS INTEGER) NOT BETWEEN 0 AND 4, true)`,
    (r) => `stops.txt: stop ${q(r.stop_id)} has invalid location_type ${q(r.location_type)}`);
  await refuseIf<{ stop_id: string; stop_lat: string; stop_lon: string }>(db,
    `SELECT stop_id, stop_lat, stop_lon FROM raw_stops
     WHERE (stop_lat IS NOT NULL AND coalesce(TRY_CAST(stop_lat AS DOUBLE) NOT BETWEEN -90 AND 90, true))
        OR (stop_lon IS NOT NULL AND coalesce(TRY_CAST(stop_lon AS DOUBLE) NOT BETWEEN -180 AND 180, true))
        OR ((stop_lat IS NULL OR stop_lon IS NULL) AND coalesce(TRY_CAST(location_type AS INTEGER), 0) <= 2)`,
    (r) => `stops.txt: stop ${q(r.stop_id)} has invalid or missing coordinates (stop_lat ${q(r.stop_lat)}, stop_lon ${q(r.stop_lon)})`);
  await refuseIf<{ stop_id: string; stop_timezone: string }>(db,
    `SELECT stop_id, stop_timezone FROM raw_stops WHERE stop_timezone IS NOT NULL AND stop_timezone NOT IN ${KNOWN_ZONE}`,
    (r) => `stops.txt: stop ${q(r.stop_id)} has unknown stop_timezone ${q(r.stop_timezone)}`);
}

/** Parent stations missing from stops.txt are common in real feeds (Berlin's): the link is dropped, not the feed. */
async function danglingParentWarning(db: DuckDBConnection): Promise<string | null> {
  const row = await queryOne<{ n: number; example: string; parent: string }>(db,
    `SELECT count(*)::INTEGER AS n, min(s.stop_id) AS example, min(s.parent_station) AS parent
     FROM raw_stops s ANTI JOIN raw_stops p ON p.stop_id = s.parent_station WHERE s.parent_station IS NOT NULL`);
  if (!row || row.n === 0) return null;
  return `stops.txt: ${row.n} stop(s) name a parent_station that is not in stops.txt (e.g. ${q(row.parent)}); those links were dropped`;
}

async function checkRoutes(db: DuckDBConnection, agencyCount: number): Promise<void> {
  await refuseIf(db, `SELECT route_short_name, route_long_name FROM raw_routes WHERE route_id IS NULL`,
    (r) => `routes.txt has a route without route_id (${q(r.route_short_name ?? r.route_long_name)})`);
  await refuseIf<{ route_id: string }>(db, `SELECT route_id FROM raw_routes GROUP BY route_id HAVING count(*) > 1`, (r) => `routes.txt has route_id ${q(r.route_id)} more than once`);
  await refuseIf<{ route_id: string; route_type: string }>(db, `SELECT route_id, route_type FROM raw_routes WHERE TRY_CAST(route_type AS INTEGER) IS NULL`,
    (r) => `routes.txt: route ${q(r.route_id)} has invalid route_type ${q(r.route_type)}`);
  if (agencyCount > 1) {
    await refuseIf<{ route_id: string; agency_id: string | null }>(db,
      `SELECT r.route_id, r.agency_id FROM raw_routes r ANTI JOIN raw_agency a ON a.agency_id = r.agency_id`,
      (r) => (r.agency_id === null
        ? `routes.txt: route ${q(r.route_id)} has no agency_id although agency.txt has several agencies`
        : `routes.txt: route ${q(r.route_id)} has agency_id ${q(r.agency_id)}, which is not in agency.txt`));
  }
}

async function checkCalendars(db: DuckDBConnection): Promise<void> {
  await refuseIf<{ service_id: string; start_date: string; end_date: string }>(db,
    `SELECT service_id, start_date, end_date FROM raw_calendar
     WHERE service_id IS NULL OR coalesce(NOT regexp_full_match(start_date, '${DATE_PATTERN}') OR NOT regexp_full_match(end_date, '${DATE_PATTERN}')
        OR TRY_STRPTIME(start_date, '%Y%m%d') IS NULL OR TRY_STRPTIME(end_date, '%Y%m%d') IS NULL, true)`,
    (r) => `calendar.txt: service ${q(r.service_id)} has invalid start_date/end_date ${q(r.start_date)}/${q(r.end_date)} (expected YYYYMMDD)`);
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  await refuseIf<{ service_id: string; day: string; value: string }>(db,
    `SELECT service_id, day, value FROM (SELECT service_id, unnest([${days.map((d) => `'${d}'`).join(', ')}]) AS day, unnest([${days.join(', ')}]) AS value FROM raw_calendar)
     WHERE coalesce(value NOT IN ('0', '1'), true)`,
    (r) => `calendar.txt: service ${q(r.service_id)} has ${r.day} ${q(r.value)} (expected 0 or 1)`);
  await refuseIf<{ service_id: string; date: string; exception_type: string }>(db,
    `SELECT service_id, date, exception_type FROM raw_calendar_dates
     WHERE service_id IS NULL OR coalesce(NOT regexp_full_match(date, '${DATE_PATTERN}') OR TRY_STRPTIME(date, '%Y%m%d') IS NULL, true)
        OR coalesce(exception_type NOT IN ('1', '2'), true)`,
    (r) => `calendar_dates.txt: service ${q(r.service_id)} has an invalid row (date ${q(r.date)}, exception_type ${q(r.exception_type)})`);
}

async function checkTrips(db: DuckDBConnection): Promise<void> {
  await refuseIf(db, `SELECT route_id FROM raw_trips WHERE trip_id IS NULL`, (r) => `trips.txt has a trip without trip_id (route_id ${q(r.route_id)})`);
  await refuseIf<{ trip_id: string }>(db, `SELECT trip_id FROM raw_trips GROUP BY trip_id HAVING count(*) > 1`, (r) => `trips.txt has trip_id ${q(r.trip_id)} more than once`);
  await refuseIf<{ trip_id: string; route_id: string | null }>(db,
    `SELECT t.trip_id, t.route_id FROM raw_trips t ANTI JOIN raw_routes r ON r.route_id = t.route_id`,
    (r) => `trips.txt: trip ${q(r.trip_id)} has route_id ${q(r.route_id)}, which is not in routes.txt`);
  await refuseIf<{ trip_id: string; service_id: string | null }>(db,
    `SELECT t.trip_id, t.service_id FROM raw_trips t
     ANTI JOIN (SELECT service_id FROM raw_calendar UNION SELECT service_id FROM raw_calendar_dates) s ON s.service_id = t.service_id`,
    (r) => `trips.txt: trip ${q(r.trip_id)} has service_id ${q(r.service_id)}, which is in neither calendar.txt nor calendar_dates.txt`);
}

async function checkStopTimes(db: DuckDBConnection): Promise<void> {
  await refuseIf<{ trip_id: string | null; stop_id: string | null; stop_sequence: string | null }>(db,
    `SELECT trip_id, stop_id, stop_sequence FROM raw_stop_times
     WHERE trip_id IS NULL OR stop_id IS NULL OR TRY_CAST(stop_sequence AS INTEGER) IS NULL OR TRY_CAST(stop_sequence AS INTEGER) < 0`,
    (r) => `stop_times.txt has a row with missing or invalid trip_id/stop_id/stop_sequence (trip_id ${q(r.trip_id)}, stop_id ${q(r.stop_id)}, stop_sequence ${q(r.stop_sequence)})`);
  await refuseIf<{ trip_id: string; stop_sequence: string; field: string; value: string }>(db,
    `SELECT trip_id, stop_sequence, field, value FROM (
       SELECT trip_id, stop_sequence, 'arrival_time' AS field, arrival_time AS value FROM raw_stop_times
       UNION ALL SELECT trip_id, stop_sequence, 'departure_time', departure_time FROM raw_stop_times)
     WHERE value IS NOT NULL AND NOT regexp_full_match(value, '${GTFS_TIME_PATTERN}')`,
    (r) => `stop_times.txt: trip ${q(r.trip_id)} stop_sequence ${r.stop_sequence} has unparseable ${r.field} ${q(r.value)} (expected H:MM:SS)`);
  await refuseIf<{ trip_id: string }>(db,
    `SELECT st.trip_id FROM raw_stop_times st ANTI JOIN raw_trips t ON t.trip_id = st.trip_id`,
    (r) => `stop_times.txt references trip_id ${q(r.trip_id)}, which is not in trips.txt`);
  await refuseIf<{ stop_id: string; trip_id: string }>(db,
    `SELECT st.stop_id, st.trip_id FROM raw_stop_times st ANTI JOIN raw_stops s ON s.stop_id = st.stop_id`,
    (r) => `stop_times.txt: trip ${q(r.trip_id)} references stop_id ${q(r.stop_id)}, which is not in stops.txt`);
  await refuseIf<{ stop_id: string; trip_id: string; location_type: string }>(db,
    `SELECT st.stop_id, st.trip_id, s.location_type FROM raw_stop_times st JOIN raw_stops s ON s.stop_id = st.stop_id
     WHERE coalesce(TRY_CAST(s.location_type AS INTEGER), 0) <> 0`,
    (r) => `stop_times.txt: trip ${q(r.trip_id)} stops at ${q(r.stop_id)}, which is a station/entrance/node (location_type ${r.location_type}), not a stop or platform`);
}

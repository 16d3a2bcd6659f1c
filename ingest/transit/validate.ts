import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from '../../lib/duckdb-rows.ts';
import { CALENDAR_CAPPED_SQL, MAX_CALENDAR_YEARS } from './calendar-span.ts';
import { REQUIRED_FILES } from './gtfs-files.ts';
import { refuse } from './refusal.ts';
import { KNOWN_ZONES_TABLE } from './session.ts';
import { countRows } from './stage.ts';

/** H+:MM:SS, e.g. 9:55:00, 25:10:00 or VIA Rail's 110:29:00 (at most 9999 h, so seconds fit an INTEGER). */
export const GTFS_TIME_PATTERN = '^[0-9]{1,4}:[0-5][0-9]:[0-5][0-9]$';
const DATE_PATTERN = '^[0-9]{8}$';
const KNOWN_ZONE = `(SELECT name FROM ${KNOWN_ZONES_TABLE})`;
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export interface FeedCounts {
  agencies: number;
  stops: number;
  routes: number;
  trips: number;
  stop_times: number;
}

export interface ValidatedFeed {
  /** agency_timezone shared by every agency: the zone GTFS times are read in. */
  timezone: string;
  agencyCount: number;
  counts: FeedCounts;
  /** feed_info.feed_version (the greatest, if several rows). */
  feedVersion: string | null;
  /** Defects tolerated (and repaired) rather than refused, shown in the coverage entry. */
  warnings: string[];
}

/** Refuses a feed whose required files are missing, from the lower-cased file names alone (before reading them). */
export function checkRequiredFiles(files: ReadonlySet<string>): void {
  const missing: string[] = REQUIRED_FILES.map((t) => `${t}.txt`).filter((name) => !files.has(name));
  if (!files.has('calendar.txt') && !files.has('calendar_dates.txt')) missing.push('calendar.txt or calendar_dates.txt');
  if (missing.length > 0) refuse(`missing required file${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
}

/** Frequency-based trips are refused; a header-only frequencies.txt is fine. */
export async function checkFrequencies(db: DuckDBConnection): Promise<void> {
  const frequencies = await countRows(db, 'frequencies');
  if (frequencies > 0) refuse(`frequencies.txt has ${frequencies} row${frequencies > 1 ? 's' : ''}: frequency-based trips are not supported`);
}

/*
 * transfers.txt: the release keeps stop-to-stop rules only. A row naming a route or trip, or of
 * an in-seat type (4, 5), is not one and is simply not used; of the others, a row with a stop
 * not in stops.txt, a transfer_type other than empty/0–3, or a min_transfer_time that is not a
 * non-negative integer is left out with a warning (counted, never refused). Raw values are
 * already trimmed, empty → NULL.
 */
const TRANSFER_TYPE_SQL = `coalesce(transfer_type, '0')`;
/** A transfers.txt row that is a stop-to-stop rule (the rest are not used). */
export const STOP_TO_STOP_TRANSFER_SQL = `(from_route_id IS NULL AND to_route_id IS NULL AND from_trip_id IS NULL AND to_trip_id IS NULL
  AND ${TRANSFER_TYPE_SQL} NOT IN ('4', '5'))`;
/** Per invalid reason, the condition on a stop-to-stop row (`stops` names the feed's raw_stops table); first match is the reason. */
const transferDefects = (stops: string) => ({
  stop: `coalesce(from_stop_id NOT IN (SELECT stop_id FROM ${stops}) OR to_stop_id NOT IN (SELECT stop_id FROM ${stops}), true)`,
  type: `${TRANSFER_TYPE_SQL} NOT IN ('0', '1', '2', '3')`,
  // at most 9 digits, so it fits an INTEGER
  time: `(min_transfer_time IS NOT NULL AND NOT regexp_full_match(min_transfer_time, '[0-9]{1,9}'))`,
});
/** A stop-to-stop transfers.txt row the release keeps (before duplicates are resolved). */
export function validTransferSql(stops: string): string {
  const defects = transferDefects(stops);
  return `(${STOP_TO_STOP_TRANSFER_SQL} AND NOT (${defects.stop}) AND NOT ${defects.type} AND NOT ${defects.time})`;
}
/** transfer_type as an INTEGER (empty → 0) of a valid row. */
export const TRANSFER_TYPE_VALUE_SQL = `TRY_CAST(${TRANSFER_TYPE_SQL} AS INTEGER)`;

/*
 * stop_times.txt pickup_type / drop_off_type: empty is 0 (regular); a value other than 0–3 is read
 * as 0 too, counted in a warning (never refused). Raw values are already trimmed, empty → NULL.
 */
const BOARDING_TYPES = `('0', '1', '2', '3')`;
/** pickup_type or drop_off_type (`column`) as a TINYINT 0–3: empty or invalid → 0. */
export function boardingTypeSql(column: string): string {
  return `CASE WHEN ${column} IN ${BOARDING_TYPES} THEN ${column}::TINYINT ELSE 0::TINYINT END`;
}
/** A raw_stop_times row whose pickup_type or drop_off_type is given but not 0–3. */
const BAD_BOARDING_SQL = `(pickup_type NOT IN ${BOARDING_TYPES} OR drop_off_type NOT IN ${BOARDING_TYPES})`;

type Row = Record<string, unknown>;

/** One rule: the feed is refused when `sql` returns a row; the reason is built from that row. */
interface Check {
  sql: string;
  reason(row: Row): string;
}

const q = (value: unknown) => JSON.stringify(value ?? '');

/** Rules that only apply when agency.txt has several agencies. */
const SEVERAL_AGENCIES = '(SELECT count(*) FROM raw_agency) > 1';

/** Every rule, in the order a feed is judged: when several fail, the first one listed is the reason given. */
const CHECKS: Check[] = [
  // agency.txt
  { sql: `SELECT true AS no_agency WHERE NOT EXISTS (SELECT 1 FROM raw_agency)`, reason: () => 'agency.txt has no agency' },
  { sql: `SELECT n FROM (SELECT row_number() OVER () AS n, agency_name FROM raw_agency) WHERE agency_name IS NULL`, reason: (r) => `agency.txt row ${r.n} has no agency_name` },
  {
    sql: `SELECT agency_timezone FROM raw_agency WHERE agency_timezone IS NULL OR agency_timezone NOT IN ${KNOWN_ZONE}`,
    reason: (r) => (r.agency_timezone ? `agency.txt has unknown agency_timezone ${q(r.agency_timezone)}` : 'agency.txt has an agency without agency_timezone'),
  },
  {
    sql: `SELECT string_agg(tz, ', ' ORDER BY tz) AS zones FROM (SELECT DISTINCT agency_timezone AS tz FROM raw_agency) HAVING count(*) > 1`,
    reason: (r) => `agency.txt: agencies have different timezones (${r.zones}); one feed must use one agency_timezone`,
  },
  { sql: `SELECT agency_name FROM raw_agency WHERE agency_id IS NULL AND ${SEVERAL_AGENCIES}`, reason: (r) => `agency.txt has several agencies but ${q(r.agency_name)} has no agency_id` },
  { sql: `SELECT agency_id FROM raw_agency WHERE ${SEVERAL_AGENCIES} GROUP BY agency_id HAVING count(*) > 1`, reason: (r) => `agency.txt has agency_id ${q(r.agency_id)} more than once` },
  // stops.txt
  { sql: `SELECT stop_name FROM raw_stops WHERE stop_id IS NULL`, reason: (r) => `stops.txt has a stop without stop_id (stop_name ${q(r.stop_name)})` },
  { sql: `SELECT stop_id FROM raw_stops GROUP BY stop_id HAVING count(*) > 1`, reason: (r) => `stops.txt has stop_id ${q(r.stop_id)} more than once` },
  {
    sql: `SELECT stop_id, location_type FROM raw_stops WHERE location_type IS NOT NULL AND coalesce(TRY_CAST(location_type AS INTEGER) NOT BETWEEN 0 AND 4, true)`,
    reason: (r) => `stops.txt: stop ${q(r.stop_id)} has invalid location_type ${q(r.location_type)}`,
  },
  {
    sql: `SELECT stop_id, stop_lat, stop_lon FROM raw_stops
     WHERE (stop_lat IS NOT NULL AND coalesce(TRY_CAST(stop_lat AS DOUBLE) NOT BETWEEN -90 AND 90, true))
        OR (stop_lon IS NOT NULL AND coalesce(TRY_CAST(stop_lon AS DOUBLE) NOT BETWEEN -180 AND 180, true))
        OR ((stop_lat IS NULL OR stop_lon IS NULL) AND coalesce(TRY_CAST(location_type AS INTEGER), 0) <= 2)`,
    reason: (r) => `stops.txt: stop ${q(r.stop_id)} has invalid or missing coordinates (stop_lat ${q(r.stop_lat)}, stop_lon ${q(r.stop_lon)})`,
  },
  {
    sql: `SELECT stop_id, stop_timezone FROM raw_stops WHERE stop_timezone IS NOT NULL AND stop_timezone NOT IN ${KNOWN_ZONE}`,
    reason: (r) => `stops.txt: stop ${q(r.stop_id)} has unknown stop_timezone ${q(r.stop_timezone)}`,
  },
  // routes.txt
  { sql: `SELECT route_short_name, route_long_name FROM raw_routes WHERE route_id IS NULL`, reason: (r) => `routes.txt has a route without route_id (${q(r.route_short_name ?? r.route_long_name)})` },
  { sql: `SELECT route_id FROM raw_routes GROUP BY route_id HAVING count(*) > 1`, reason: (r) => `routes.txt has route_id ${q(r.route_id)} more than once` },
  { sql: `SELECT route_id, route_type FROM raw_routes WHERE TRY_CAST(route_type AS INTEGER) IS NULL`, reason: (r) => `routes.txt: route ${q(r.route_id)} has invalid route_type ${q(r.route_type)}` },
  {
    sql: `SELECT r.route_id, r.agency_id FROM raw_routes r ANTI JOIN raw_agency a ON a.agency_id = r.agency_id WHERE ${SEVERAL_AGENCIES}`,
    reason: (r) => (r.agency_id === null
      ? `routes.txt: route ${q(r.route_id)} has no agency_id although agency.txt has several agencies`
      : `routes.txt: route ${q(r.route_id)} has agency_id ${q(r.agency_id)}, which is not in agency.txt`),
  },
  // calendar.txt, calendar_dates.txt
  {
    sql: `SELECT service_id, start_date, end_date FROM raw_calendar
     WHERE service_id IS NULL OR coalesce(NOT regexp_full_match(start_date, '${DATE_PATTERN}') OR NOT regexp_full_match(end_date, '${DATE_PATTERN}')
        OR TRY_STRPTIME(start_date, '%Y%m%d') IS NULL OR TRY_STRPTIME(end_date, '%Y%m%d') IS NULL, true)`,
    reason: (r) => `calendar.txt: service ${q(r.service_id)} has invalid start_date/end_date ${q(r.start_date)}/${q(r.end_date)} (expected YYYYMMDD)`,
  },
  {
    sql: `SELECT service_id, day, value FROM (SELECT service_id, unnest([${DAYS.map((d) => `'${d}'`).join(', ')}]) AS day, unnest([${DAYS.join(', ')}]) AS value FROM raw_calendar)
     WHERE coalesce(value NOT IN ('0', '1'), true)`,
    reason: (r) => `calendar.txt: service ${q(r.service_id)} has ${r.day} ${q(r.value)} (expected 0 or 1)`,
  },
  {
    sql: `SELECT service_id, date, exception_type FROM raw_calendar_dates
     WHERE service_id IS NULL OR coalesce(NOT regexp_full_match(date, '${DATE_PATTERN}') OR TRY_STRPTIME(date, '%Y%m%d') IS NULL, true)
        OR coalesce(exception_type NOT IN ('1', '2'), true)`,
    reason: (r) => `calendar_dates.txt: service ${q(r.service_id)} has an invalid row (date ${q(r.date)}, exception_type ${q(r.exception_type)})`,
  },
  // trips.txt
  { sql: `SELECT route_id FROM raw_trips WHERE trip_id IS NULL`, reason: (r) => `trips.txt has a trip without trip_id (route_id ${q(r.route_id)})` },
  { sql: `SELECT trip_id FROM raw_trips GROUP BY trip_id HAVING count(*) > 1`, reason: (r) => `trips.txt has trip_id ${q(r.trip_id)} more than once` },
  {
    sql: `SELECT t.trip_id, t.route_id FROM raw_trips t ANTI JOIN raw_routes r ON r.route_id = t.route_id`,
    reason: (r) => `trips.txt: trip ${q(r.trip_id)} has route_id ${q(r.route_id)}, which is not in routes.txt`,
  },
  {
    sql: `SELECT t.trip_id, t.service_id FROM raw_trips t
     ANTI JOIN (SELECT service_id FROM raw_calendar UNION SELECT service_id FROM raw_calendar_dates) s ON s.service_id = t.service_id`,
    reason: (r) => `trips.txt: trip ${q(r.trip_id)} has service_id ${q(r.service_id)}, which is in neither calendar.txt nor calendar_dates.txt`,
  },
  // stop_times.txt
  {
    sql: `SELECT trip_id, stop_id, stop_sequence FROM raw_stop_times
     WHERE trip_id IS NULL OR stop_id IS NULL OR TRY_CAST(stop_sequence AS INTEGER) IS NULL OR TRY_CAST(stop_sequence AS INTEGER) < 0`,
    reason: (r) => `stop_times.txt has a row with missing or invalid trip_id/stop_id/stop_sequence (trip_id ${q(r.trip_id)}, stop_id ${q(r.stop_id)}, stop_sequence ${q(r.stop_sequence)})`,
  },
  {
    sql: `SELECT trip_id, stop_sequence, field, value FROM (
       SELECT trip_id, stop_sequence, 'arrival_time' AS field, arrival_time AS value FROM raw_stop_times
       UNION ALL SELECT trip_id, stop_sequence, 'departure_time', departure_time FROM raw_stop_times)
     WHERE value IS NOT NULL AND NOT regexp_full_match(value, '${GTFS_TIME_PATTERN}')`,
    reason: (r) => `stop_times.txt: trip ${q(r.trip_id)} stop_sequence ${r.stop_sequence} has unparseable ${r.field} ${q(r.value)} (expected H:MM:SS)`,
  },
  {
    sql: `SELECT st.trip_id FROM raw_stop_times st ANTI JOIN raw_trips t ON t.trip_id = st.trip_id`,
    reason: (r) => `stop_times.txt references trip_id ${q(r.trip_id)}, which is not in trips.txt`,
  },
  {
    sql: `SELECT st.stop_id, st.trip_id FROM raw_stop_times st ANTI JOIN raw_stops s ON s.stop_id = st.stop_id`,
    reason: (r) => `stop_times.txt: trip ${q(r.trip_id)} references stop_id ${q(r.stop_id)}, which is not in stops.txt`,
  },
  {
    sql: `SELECT st.stop_id, st.trip_id, s.location_type FROM raw_stop_times st JOIN raw_stops s ON s.stop_id = st.stop_id
     WHERE coalesce(TRY_CAST(s.location_type AS INTEGER), 0) <> 0`,
    reason: (r) => `stop_times.txt: trip ${q(r.trip_id)} stops at ${q(r.stop_id)}, which is a station/entrance/node (location_type ${r.location_type}), not a stop or platform`,
  },
];

/**
 * A group of rules as one query (one round trip instead of one per rule): each rule contributes
 * its first offending row, if any, as JSON, tagged with the rule's index in CHECKS.
 */
function checksSql(rules: number[]): string {
  return rules.map((i) => `SELECT ${i} AS rule, to_json(r)::VARCHAR AS row FROM (${CHECKS[i]!.sql} LIMIT 1) r`).join('\nUNION ALL\n');
}

const ALL_RULES = CHECKS.map((_, i) => i);
/** The rules reading stop_times (most of the work) run beside the others when there are two connections. */
const STOP_TIMES_RULES = checksSql(ALL_RULES.filter((i) => CHECKS[i]!.sql.includes('raw_stop_times')));
const OTHER_RULES = checksSql(ALL_RULES.filter((i) => !CHECKS[i]!.sql.includes('raw_stop_times')));

interface Facts {
  timezone: string;
  agencies: number;
  stops: number;
  routes: number;
  trips: number;
  stop_times: number;
  feed_version: string | null;
  dangling: number;
  dangling_parent: string | null;
  capped: number;
  capped_service: string | null;
  capped_end: string | null;
  transfers_bad_stop: number;
  transfers_bad_type: number;
  transfers_bad_time: number;
  boarding_bad: number;
}

const TRANSFER_DEFECTS = transferDefects('raw_stops');

/** What the build and the coverage need to know of a valid feed, in one query. */
const FACTS_SQL = `SELECT
  (SELECT min(agency_timezone) FROM raw_agency) AS timezone,
  (SELECT count(*) FROM raw_agency)::INTEGER AS agencies,
  (SELECT count(*) FROM raw_stops)::INTEGER AS stops,
  (SELECT count(*) FROM raw_routes)::INTEGER AS routes,
  (SELECT count(*) FROM raw_trips)::INTEGER AS trips,
  st.n AS stop_times,
  (SELECT max(feed_version) FROM raw_feed_info) AS feed_version,
  d.n AS dangling, d.parent AS dangling_parent,
  c.n AS capped, c.service_id AS capped_service, c.end_date AS capped_end,
  x.bad_stop AS transfers_bad_stop, x.bad_type AS transfers_bad_type, x.bad_time AS transfers_bad_time,
  st.bad_boarding AS boarding_bad
FROM (SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE ${BAD_BOARDING_SQL})::INTEGER AS bad_boarding FROM raw_stop_times) st,
     (SELECT count(*)::INTEGER AS n, min(s.parent_station) AS parent
      FROM raw_stops s ANTI JOIN raw_stops p ON p.stop_id = s.parent_station WHERE s.parent_station IS NOT NULL) d,
     (SELECT count(*)::INTEGER AS n, min(service_id) AS service_id, arg_min(end_date, service_id) AS end_date
      FROM raw_calendar WHERE ${CALENDAR_CAPPED_SQL}) c,
     (SELECT count(*) FILTER (WHERE bad = 'stop')::INTEGER AS bad_stop, count(*) FILTER (WHERE bad = 'type')::INTEGER AS bad_type,
             count(*) FILTER (WHERE bad = 'time')::INTEGER AS bad_time
      FROM (SELECT CASE WHEN ${TRANSFER_DEFECTS.stop} THEN 'stop' WHEN ${TRANSFER_DEFECTS.type} THEN 'type' WHEN ${TRANSFER_DEFECTS.time} THEN 'time' END AS bad
            FROM raw_transfers WHERE ${STOP_TO_STOP_TRANSFER_SQL})) x`;

/**
 * Checks the raw tables of one feed and refuses it with a readable reason naming the file and an
 * example offending value (the first failing rule of CHECKS). `connections` all use the feed's
 * database; with two, the stop_times rules and the facts run on the first while the other rules
 * run on the second (two round trips in all, side by side).
 */
export async function validateFeed(connections: DuckDBConnection[]): Promise<ValidatedFeed> {
  const stopTimesConnection = connections[0]!;
  const otherConnection = connections[1] ?? stopTimesConnection;
  type Failure = { rule: number; row: string };
  // the facts ride along as rule -1 with the stop_times rules, which are otherwise the shorter batch
  const [stopTimesRows, otherFailures] = await Promise.all([
    queryRows<Failure>(stopTimesConnection, `${STOP_TIMES_RULES}\nUNION ALL\nSELECT -1 AS rule, to_json(f)::VARCHAR AS row FROM (${FACTS_SQL}) f`),
    queryRows<Failure>(otherConnection, OTHER_RULES),
  ]);
  const facts = JSON.parse(stopTimesRows.find((r) => r.rule === -1)!.row) as Facts;
  const stopTimesFailures = stopTimesRows.filter((r) => r.rule !== -1);
  const failures = [...stopTimesFailures, ...otherFailures];
  if (failures.length > 0) {
    const first = failures.reduce((a, b) => (b.rule < a.rule ? b : a));
    refuse(CHECKS[first.rule]!.reason(JSON.parse(first.row) as Row));
  }
  const { timezone, agencies, stops, routes, trips, stop_times, feed_version, dangling, dangling_parent, capped, capped_service, capped_end } = facts;
  const { transfers_bad_stop: badStop, transfers_bad_type: badType, transfers_bad_time: badTime } = facts;
  const { boarding_bad: badBoarding } = facts;
  const warnings: string[] = [];
  // Parent stations missing from stops.txt are common in real feeds (Berlin's): the link is dropped, not the feed.
  if (dangling > 0) warnings.push(`stops.txt: ${dangling} stop(s) name a parent_station that is not in stops.txt (e.g. ${q(dangling_parent)}); those links were dropped`);
  if (capped > 0) {
    warnings.push(`calendar.txt: ${capped} service(s) run more than ${MAX_CALENDAR_YEARS} years (e.g. ${q(capped_service)} until ${capped_end}); only the first ${MAX_CALENDAR_YEARS} years from their start_date are served`);
  }
  if (badStop + badType + badTime > 0) {
    const parts = [
      [badStop, 'a stop that is not in stops.txt'],
      [badType, 'an invalid transfer_type'],
      [badTime, 'an invalid min_transfer_time'],
    ].filter(([n]) => (n as number) > 0).map(([n, what]) => `${n} with ${what}`);
    warnings.push(`transfers.txt: ${badStop + badType + badTime} row(s) left out (${parts.join(', ')})`);
  }
  if (badBoarding > 0) {
    warnings.push(`stop_times.txt: ${badBoarding} row(s) have a pickup_type or drop_off_type other than 0–3; read as 0 (regular)`);
  }
  return {
    timezone,
    agencyCount: agencies,
    counts: { agencies, stops, routes, trips, stop_times },
    feedVersion: feed_version,
    warnings,
  };
}

import path from 'node:path';
import { TRANSIT_DATABASE_FILE, TRANSIT_TABLES_DDL } from '../../schemas/transit-release.ts';
import { queryRows } from '../../lib/duckdb-rows.ts';
import { CALENDAR_LAST_DAY_SQL } from './calendar-span.ts';
import { ident, lit } from '../../lib/duckdb.ts';
import type { PreparedFeed } from './prepare-feed.ts';
import type { BuildSession } from './session.ts';
import { TRANSFER_TYPE_VALUE_SQL, boardingTypeSql, validTransferSql } from './validate.ts';

export interface FeedServiceRange {
  first_service_date: string | null;
  last_service_date: string | null;
}

export interface TransitBuildResult {
  totals: { agencies: number; stops: number; routes: number; trips: number; stop_times: number; service_days: number; transfers: number };
  serviceRanges: Map<string, FeedServiceRange>;
}

/**
 * Seconds after "noon minus 12 h" of a validated H+:MM:SS value (NULL stays NULL). DuckDB reads
 * such a value as an INTERVAL of that many hours (never wrapped into days), and parsing it that
 * way is several times cheaper than splitting the string.
 */
function secondsOf(column: string): string {
  return `epoch(${column}::INTERVAL)::INTEGER`;
}

/** The per-feed SELECTs whose UNION ALL fills each table, in the column order of TRANSIT_TABLES_DDL. */
function feedSelects(feed: PreparedFeed, alias: string): Record<string, string> {
  const id = feed.spec.id;
  const svc = (type: string) => lit(`svc:transit:${type}:${id}:`);
  const feedLit = lit(id);
  const onlyAgency = `(SELECT CASE WHEN agency_id IS NULL THEN ${lit(`svc:transit:agency:${id}`)} ELSE ${svc('agency')} || agency_id END FROM ${alias}.raw_agency LIMIT 1)`;
  return {
    agencies: `SELECT CASE WHEN agency_id IS NULL THEN ${lit(`svc:transit:agency:${id}`)} ELSE ${svc('agency')} || agency_id END,
        ${feedLit}, agency_id, agency_name, agency_url, agency_timezone, agency_lang, agency_phone
      FROM ${alias}.raw_agency`,
    stops: `SELECT ${svc('stop')} || s.stop_id, ${feedLit}, s.stop_id, s.stop_code, s.stop_name,
        TRY_CAST(s.stop_lat AS DOUBLE), TRY_CAST(s.stop_lon AS DOUBLE), coalesce(TRY_CAST(s.location_type AS INTEGER), 0),
        CASE WHEN p.stop_id IS NOT NULL THEN ${svc('stop')} || p.stop_id END,
        coalesce(s.stop_timezone, p.stop_timezone, ${lit(feed.timezone)}), TRY_CAST(s.wheelchair_boarding AS INTEGER)
      FROM ${alias}.raw_stops s LEFT JOIN ${alias}.raw_stops p ON p.stop_id = s.parent_station`,
    routes: `SELECT ${svc('route')} || route_id, ${feedLit}, route_id,
        ${feed.agencyCount > 1 ? `${svc('agency')} || agency_id` : onlyAgency},
        route_short_name, route_long_name, route_desc, route_type::INTEGER, route_url, route_color, route_text_color
      FROM ${alias}.raw_routes`,
    trips: `SELECT ${svc('trip')} || trip_id, ${feedLit}, trip_id, ${svc('route')} || route_id, service_id,
        trip_headsign, trip_short_name, TRY_CAST(direction_id AS INTEGER)
      FROM ${alias}.raw_trips`,
    service_days: serviceDaysSelect(feed, alias),
    transfers: transfersSelect(feed, alias),
  };
}

/**
 * transfers.txt's valid stop-to-stop rules (see validate.ts), one per (from, to) stop pair: of
 * duplicates, type 3 (not possible) wins, then the largest min_transfer_time (none counts as
 * smallest), then the larger type.
 */
function transfersSelect(feed: PreparedFeed, alias: string): string {
  const svcStop = lit(`svc:transit:stop:${feed.spec.id}:`);
  return `(SELECT ${svcStop} || from_stop_id, ${svcStop} || to_stop_id, transfer_type, min_transfer_secs
    FROM (SELECT from_stop_id, to_stop_id, ${TRANSFER_TYPE_VALUE_SQL} AS transfer_type, TRY_CAST(min_transfer_time AS INTEGER) AS min_transfer_secs
          FROM ${alias}.raw_transfers WHERE ${validTransferSql(`${alias}.raw_stops`)})
    QUALIFY row_number() OVER (PARTITION BY from_stop_id, to_stop_id
                               ORDER BY transfer_type = 3 DESC, min_transfer_secs DESC NULLS LAST, transfer_type DESC) = 1)`;
}

/**
 * One feed's stop_times sorted by its raw stop_id: every svc stop id of a feed shares one prefix,
 * so this is the order of the svc ids, and sorting the short raw ids is cheaper.
 */
function stopTimesSelect(feed: PreparedFeed, alias: string): string {
  const svc = (type: string) => lit(`svc:transit:${type}:${feed.spec.id}:`);
  return `SELECT ${svc('stop')} || stop_id, ${svc('trip')} || trip_id, arrival_secs, departure_secs, stop_sequence, stop_headsign,
      pickup_type, drop_off_type
    FROM (SELECT stop_id, trip_id,
            coalesce(${secondsOf('arrival_time')}, ${secondsOf('departure_time')}) AS arrival_secs,
            coalesce(${secondsOf('departure_time')}, ${secondsOf('arrival_time')}) AS departure_secs,
            stop_sequence::INTEGER AS stop_sequence, stop_headsign,
            ${boardingTypeSql('pickup_type')} AS pickup_type, ${boardingTypeSql('drop_off_type')} AS drop_off_type
          FROM ${alias}.raw_stop_times)
    ORDER BY stop_id, departure_secs`;
}

/**
 * Every date a service runs: calendar weekdays within [start_date, end_date] (at most
 * MAX_CALENDAR_YEARS of them, see calendar-span.ts), plus calendar_dates
 * additions (type 1), minus removals (type 2). base_epoch is computed once per distinct date with
 * ICU: the instant of local noon on that date, minus 12 h.
 */
function serviceDaysSelect(feed: PreparedFeed, alias: string): string {
  return `(WITH calendar_days AS (
      SELECT service_id, d::DATE AS service_date, [monday, tuesday, wednesday, thursday, friday, saturday, sunday] AS flags
      FROM (SELECT *, unnest(generate_series(strptime(start_date, '%Y%m%d'), ${CALENDAR_LAST_DAY_SQL}, INTERVAL 1 DAY)) AS d
            FROM ${alias}.raw_calendar)
    ), running AS (
      (SELECT service_id, service_date FROM calendar_days WHERE flags[isodow(service_date)] = '1'
       UNION
       SELECT service_id, strptime(date, '%Y%m%d')::DATE FROM ${alias}.raw_calendar_dates WHERE exception_type = '1')
      EXCEPT
      SELECT service_id, strptime(date, '%Y%m%d')::DATE FROM ${alias}.raw_calendar_dates WHERE exception_type = '2'
    ), bases AS (
      SELECT service_date, (epoch(timezone(${lit(feed.timezone)}, service_date + INTERVAL 12 HOUR))::BIGINT - 43200) AS base_epoch
      FROM (SELECT DISTINCT service_date FROM running)
    )
    SELECT ${lit(feed.spec.id)}, r.service_id, r.service_date, b.base_epoch FROM running r JOIN bases b USING (service_date))`;
}

const SORT_KEYS: Record<string, string> = {
  agencies: '1',
  stops: '1',
  routes: '1',
  trips: '1',
  service_days: '1, 2, 3',
  transfers: '1, 2',
};

/** Name of transit.duckdb while it is attached to the session (feed databases are feed<N>). */
const OUTPUT = 'release_output';

/**
 * Writes stagingDir/transit.duckdb: attaches it to the session and fills the tables of
 * schemas/transit-release.ts from every prepared feed's raw tables, each written sorted by its
 * lookup key, then checkpoints and detaches it (the session stays open; its owner closes it).
 */
export async function buildTransitDatabase(
  session: BuildSession,
  stagingDir: string,
  feeds: PreparedFeed[],
  onStep: (done: number, total: number, message: string) => void = () => {},
): Promise<TransitBuildResult> {
  const c = session.connection;
  await c.run(`ATTACH ${lit(path.join(stagingDir, TRANSIT_DATABASE_FILE))} AS ${OUTPUT}`);
  try {
    await c.run(`USE ${OUTPUT}`);
    // sorted writes need insertion order kept
    await c.run(`SET preserve_insertion_order = true`);
    // Everything is written in one transaction whose commit checkpoints straight into the file
    // (threshold 0) instead of logging every row to the WAL first and copying it again at CHECKPOINT.
    await c.run(`SET checkpoint_threshold = '0b'`);
    await c.run('BEGIN TRANSACTION');
    await c.run(TRANSIT_TABLES_DDL);
    const aliases = feeds.map((feed) => ident(feed.database));

    await c.run(`INSERT INTO feeds VALUES ${feeds.map((f) => `(${[f.spec.id, f.spec.source, f.spec.licence, f.spec.attribution, f.sourceUpdatedAt, f.sourceVersion, f.sha256, f.timezone].map((v) => (v === null ? 'NULL' : lit(v))).join(', ')})`).join(', ')}`);

    const selects = feeds.map((feed, i) => feedSelects(feed, aliases[i]!));
    const tables = Object.keys(SORT_KEYS);
    const written: Record<string, number> = {};
    for (const [step, table] of tables.entries()) {
      onStep(step, tables.length + 2, `writing ${table}`);
      const union = selects.map((s) => s[table]).join('\nUNION ALL\n');
      written[table] = (await c.run(`INSERT INTO ${table} SELECT * FROM (${union}) ORDER BY ${SORT_KEYS[table]}`)).rowsChanged;
    }
    // Feed ids never contain ':', so each feed's svc stop ids form one contiguous block in
    // sorted order: appending the feeds' sorted rows block by block keeps the table sorted.
    onStep(tables.length, tables.length + 2, 'writing stop_times');
    const byStopPrefix = feeds.map((feed, i) => ({ feed, alias: aliases[i]!, prefix: `svc:transit:stop:${feed.spec.id}:` }))
      .sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
    written.stop_times = 0;
    for (const { feed, alias } of byStopPrefix) written.stop_times += (await c.run(`INSERT INTO stop_times ${stopTimesSelect(feed, alias)}`)).rowsChanged;

    onStep(tables.length + 1, tables.length + 2, 'writing feed_stats');
    // max_secs from each feed's raw stop_times (the same rows and seconds as its rows of
    // stop_times: greatest ignores a NULL time), rather than joining 5 M stop_times to trips
    const maxSecs = feeds.map((feed, i) => `SELECT ${lit(feed.spec.id)} AS feed_id,
        max(greatest(${secondsOf('arrival_time')}, ${secondsOf('departure_time')})) AS max_secs FROM ${aliases[i]}.raw_stop_times`).join('\nUNION ALL\n');
    const ranges = await queryRows<FeedServiceRange & { feed_id: string }>(c, `INSERT INTO feed_stats
      SELECT f.feed_id, coalesce(m.max_secs, 0), d.first_day, d.last_day
      FROM feeds f
      LEFT JOIN (${maxSecs}) m USING (feed_id)
      LEFT JOIN (SELECT feed_id, min(service_date) AS first_day, max(service_date) AS last_day FROM service_days GROUP BY feed_id) d USING (feed_id)
      ORDER BY 1
      RETURNING feed_id, strftime(first_service_date, '%Y-%m-%d') AS first_service_date, strftime(last_service_date, '%Y-%m-%d') AS last_service_date`);
    const totals = {
      agencies: written.agencies!, stops: written.stops!, routes: written.routes!, trips: written.trips!,
      stop_times: written.stop_times, service_days: written.service_days!, transfers: written.transfers!,
    };

    await c.run('COMMIT');
    // a no-op when the commit checkpointed; makes sure the file is complete if it could not
    await c.run(`CHECKPOINT ${OUTPUT}`);
    return { totals, serviceRanges: new Map(ranges.map(({ feed_id, ...range }) => [feed_id, range])) };
  } catch (err) {
    await c.run('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await c.run('RESET checkpoint_threshold');
    await c.run('USE memory');
    await c.run(`DETACH ${OUTPUT}`);
  }
}

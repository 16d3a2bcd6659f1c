import type { DuckDBConnection } from '@duckdb/node-api';
import { NO_DROP_OFF, NO_PICKUP, type StopTimeColumns, type TripColumns } from './data.ts';
import { queryRows } from '../../lib/duckdb-rows.ts';
import { streamColumns } from './duckdb-read.ts';
import { ServiceCalendar } from './service-calendar.ts';

/* The stop and trip indexes below are row numbers in id order: loadStops and loadTrips list
   records in that same order, so an index here is a position there. */
export const STOP_INDEX = `(SELECT id, (row_number() OVER (ORDER BY id) - 1)::INTEGER AS idx FROM stops)`;
const TRIP_INDEX = `(SELECT id, (row_number() OVER (ORDER BY id) - 1)::INTEGER AS idx FROM trips)`;
const ROUTE_INDEX = `(SELECT id, (row_number() OVER (ORDER BY id) - 1)::INTEGER AS idx FROM routes)`;
const SERVICE_INDEX = `(SELECT feed_id, service_id, (row_number() OVER (ORDER BY feed_id, service_id) - 1)::INTEGER AS idx
  FROM (SELECT DISTINCT feed_id, service_id FROM trips UNION SELECT DISTINCT feed_id, service_id FROM service_days))`;

export async function loadTrips(connection: DuckDBConnection): Promise<TripColumns> {
  const [{ n }] = (await queryRows<{ n: number }>(connection, `SELECT count(*)::INTEGER AS n FROM trips`)) as [{ n: number }];
  const trips: TripColumns = { ids: new Array<string>(n), route: new Int32Array(n), service: new Int32Array(n), headsign: new Array<string | null>(n) };
  await streamColumns(connection, `
    SELECT t.id, coalesce(r.idx, -1)::INTEGER AS route, s.idx AS service, t.headsign
    FROM trips t
    LEFT JOIN ${ROUTE_INDEX} r ON r.id = t.route_id
    JOIN ${SERVICE_INDEX} s ON s.feed_id = t.feed_id AND s.service_id = t.service_id
    ORDER BY t.id`,
  (cols, rowCount, offset) => {
    const [id, route, service, headsign] = cols as [(r: number) => string, (r: number) => number, (r: number) => number, (r: number) => string | null];
    for (let row = 0; row < rowCount; row++) {
      trips.ids[offset + row] = id(row);
      trips.route[offset + row] = route(row);
      trips.service[offset + row] = service(row);
      trips.headsign[offset + row] = headsign(row);
    }
  });
  return trips;
}

/** Which service runs on which date (service indexes as in loadTrips). */
export async function loadServiceCalendar(connection: DuckDBConnection): Promise<ServiceCalendar> {
  const ranges = await queryRows<{ idx: number; first: number | null; last: number | null }>(connection, `
    SELECT s.idx, min(d.service_date - DATE '1970-01-01')::INTEGER AS first, max(d.service_date - DATE '1970-01-01')::INTEGER AS last
    FROM ${SERVICE_INDEX} s LEFT JOIN service_days d USING (feed_id, service_id)
    GROUP BY s.idx ORDER BY s.idx`);
  const calendar = ServiceCalendar.allocate(ranges.map((r) => (r.first === null || r.last === null ? null : [r.first, r.last])));
  await streamColumns(connection, `
    SELECT s.idx, (d.service_date - DATE '1970-01-01')::INTEGER AS day
    FROM service_days d JOIN ${SERVICE_INDEX} s USING (feed_id, service_id)`,
  (columns, rowCount) => {
    const [service, day] = columns as [(row: number) => number, (row: number) => number];
    for (let row = 0; row < rowCount; row++) calendar.set(service(row), day(row));
  });
  return calendar;
}

/**
 * stop_times' boarding bits (see StopTimeColumns.boarding) as SQL over `st`. A release written
 * before `pickup_type` / `drop_off_type` existed has neither: every stop time is then 0 (regular).
 * Types 2 and 3 (phone the agency, ask the driver) are possible, so 0 too.
 */
async function boardingSql(connection: DuckDBConnection): Promise<string> {
  const present = new Set((await queryRows<{ name: string }>(connection, `
    SELECT column_name AS name FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = 'stop_times'
      AND column_name IN ('pickup_type', 'drop_off_type')`)).map((r) => r.name));
  const bits = [
    ...(present.has('pickup_type') ? [`CASE WHEN st.pickup_type = 1 THEN ${NO_PICKUP} ELSE 0 END`] : []),
    ...(present.has('drop_off_type') ? [`CASE WHEN st.drop_off_type = 1 THEN ${NO_DROP_OFF} ELSE 0 END`] : []),
  ];
  return bits.length > 0 ? `(${bits.join(' + ')})::UTINYINT` : `0::UTINYINT`;
}

export async function loadStopTimes(connection: DuckDBConnection, stopCount: number): Promise<StopTimeColumns> {
  const boarding = await boardingSql(connection);
  const [{ n }] = (await queryRows<{ n: number }>(connection, `
    SELECT count(*)::INTEGER AS n FROM stop_times WHERE departure_secs IS NOT NULL`)) as [{ n: number }];
  const columns: StopTimeColumns = {
    stopStart: new Int32Array(stopCount + 1),
    trip: new Int32Array(n),
    departure: new Int32Array(n),
    arrival: new Int32Array(n),
    sequence: new Int32Array(n),
    headsign: new Int32Array(n),
    headsigns: [],
    boarding: new Uint8Array(n),
  };
  const headsignIndex = new Map<string, number>();
  const stopOf = new Int32Array(n);
  // Ordered by stop and departure only: ties are ordered per query, and a longer sort key costs
  // about a second more on 5 M rows.
  const rows = await streamColumns(connection, `
    SELECT s.idx AS stop, t.idx AS trip, st.departure_secs, coalesce(st.arrival_secs, -1) AS arrival_secs,
           st.stop_sequence, st.stop_headsign, ${boarding} AS boarding
    FROM stop_times st
    JOIN ${STOP_INDEX} s ON s.id = st.stop_id
    JOIN ${TRIP_INDEX} t ON t.id = st.trip_id
    WHERE st.departure_secs IS NOT NULL
    ORDER BY s.idx, st.departure_secs`,
  (cols, rowCount, offset) => {
    const [stop, trip, departure, arrival, sequence] = cols as ((row: number) => number)[] as [
      (r: number) => number, (r: number) => number, (r: number) => number, (r: number) => number, (r: number) => number,
    ];
    const headsign = cols[5] as (row: number) => string | null;
    const boardingOf = cols[6] as (row: number) => number;
    for (let row = 0; row < rowCount; row++) {
      const i = offset + row;
      stopOf[i] = stop(row);
      columns.trip[i] = trip(row);
      columns.departure[i] = departure(row);
      columns.arrival[i] = arrival(row);
      columns.sequence[i] = sequence(row);
      columns.boarding[i] = boardingOf(row);
      const text = headsign(row);
      if (text === null) {
        columns.headsign[i] = -1;
        continue;
      }
      let index = headsignIndex.get(text);
      if (index === undefined) {
        index = columns.headsigns.length;
        columns.headsigns.push(text);
        headsignIndex.set(text, index);
      }
      columns.headsign[i] = index;
    }
  });
  // stop_times whose stop or trip is missing fall out of the joins above; keep only what was read.
  if (rows < n) {
    for (const key of ['trip', 'departure', 'arrival', 'sequence', 'headsign'] as const) columns[key] = columns[key].subarray(0, rows);
    columns.boarding = columns.boarding.subarray(0, rows);
  }
  let row = 0;
  for (let stop = 0; stop < stopCount; stop++) {
    columns.stopStart[stop] = row;
    while (row < rows && stopOf[row] === stop) row++;
  }
  columns.stopStart[stopCount] = rows;
  return columns;
}

import type { DuckDBConnection } from '@duckdb/node-api';
import { appendOptionalVarchar } from '../../../lib/duckdb.ts';
import { queryRows } from '../../../lib/duckdb-rows.ts';
import { cleanDisplay } from '../../../engines/geocoding/text/fold.ts';
import type { AdminLocator } from './admin-locator.ts';
import type { BuildLocality } from './places.ts';

/**
 * addr_raw + the `<column>_map` tables → `addr`: normalized keys, region code, locality index
 * (into the build's locality list), one row per distinct address point after merging
 * duplicates across sources (lower `rank` survives: ODA, then OpenAddresses, then OSM).
 * In addr_final an unknown locality is -1 and an unknown region '' so the keys join.
 */
export async function resolveAddresses(
  connection: DuckDBConnection,
  locator: AdminLocator,
  localities: BuildLocality[],
  sourceRank: number[],
): Promise<{ merged: number; unlocated: number; derivedLocalities: number }> {
  await connection.run(`CREATE TABLE source_rank (src UTINYINT, rank INTEGER)`);
  if (sourceRank.length) {
    await connection.run(`INSERT INTO source_rank VALUES ${sourceRank.map((rank, src) => `(${src}, ${rank})`).join(', ')}`);
  }
  await connection.run(`CREATE TABLE addr AS
    SELECT a.src, a.source_id, a.lng, a.lat, n.number_key, n.number_display, n.number_value,
           s.street_key, s.street_display, u.unit_key, u.unit_display, p.postcode_canonical AS postcode,
           r.region_code, a.city, CAST(NULL AS INTEGER) AS loc
    FROM addr_raw a
    JOIN street_map s ON s.raw = a.street
    JOIN number_map n ON n.raw = a.number
    LEFT JOIN unit_map u ON u.raw = a.unit
    LEFT JOIN postcode_map p ON p.raw = a.postcode
    LEFT JOIN region_map r ON r.raw = a.region
    WHERE s.street_key IS NOT NULL AND n.number_key IS NOT NULL`);
  await connection.run('DROP TABLE addr_raw');

  await fillPerPoint(connection, 'region_code', 'VARCHAR', 'region_code IS NULL', (lng, lat) => locator.regionOf(lng, lat));

  const derivedFrom = localities.length;
  const cities = await queryRows<{ city: string; region_code: string | null; lng: number; lat: number }>(
    connection,
    'SELECT city, region_code, avg(lng) AS lng, avg(lat) AS lat FROM addr WHERE city IS NOT NULL GROUP BY ALL',
  );
  await connection.run('CREATE TABLE city_map (city VARCHAR, region_code VARCHAR, loc INTEGER)');
  const appender = await connection.createAppender('city_map');
  const derived = new Map<string, number>();
  for (const { city, region_code: region, lng, lat } of cities) {
    let loc = locator.localityByName(city, region, { lng, lat });
    if (loc === null) {
      // A city the address data names but the localities input lacks becomes a locality of its own.
      const key = `${city.toLowerCase()}|${region ?? ''}`;
      loc = derived.get(key) ?? null;
      if (loc === null) {
        loc = localities.length;
        derived.set(key, loc);
        localities.push({ source: 'derived', sourceId: key, name: cleanDisplay(city), names: {}, lng: 0, lat: 0, population: 0, region });
      }
    }
    appender.appendVarchar(city);
    appendOptionalVarchar(appender, region);
    appender.appendInteger(loc);
    appender.endRow();
  }
  appender.closeSync();
  await connection.run(`UPDATE addr SET loc = m.loc FROM city_map m
    WHERE addr.city = m.city AND addr.region_code IS NOT DISTINCT FROM m.region_code`);
  await fillPerPoint(connection, 'loc', 'INTEGER', 'loc IS NULL', (lng, lat, region) => locator.localityAt(lng, lat, region));

  // Derived localities sit at the mean of their address points.
  if (localities.length > derivedFrom) {
    const centres = await queryRows<{ loc: number; lng: number; lat: number; n: bigint | number }>(
      connection,
      `SELECT loc, avg(lng) AS lng, avg(lat) AS lat, count(*) AS n FROM addr WHERE loc >= ${derivedFrom} GROUP BY loc`,
    );
    for (const c of centres) Object.assign(localities[c.loc]!, { lng: c.lng, lat: c.lat, population: 0, addressCount: Number(c.n) });
  }

  const before = Number((await queryRows<{ n: bigint }>(connection, 'SELECT count(*) AS n FROM addr'))[0]!.n);
  await connection.run(`CREATE TABLE addr_final AS
    SELECT * EXCLUDE (rn, rank, loc, region_code, city),
      coalesce(loc, -1) AS loc, coalesce(region_code, '') AS region_code FROM (
      SELECT a.*, r.rank, row_number() OVER (
        PARTITION BY a.street_key, a.loc, a.region_code, a.number_key, coalesce(a.unit_key, '')
        ORDER BY r.rank, a.source_id) AS rn
      FROM addr a JOIN source_rank r USING (src))
    WHERE rn = 1`);
  await connection.run('DROP TABLE addr');
  const after = Number((await queryRows<{ n: bigint }>(connection, 'SELECT count(*) AS n FROM addr_final'))[0]!.n);
  const unlocated = Number((await queryRows<{ n: bigint }>(connection, 'SELECT count(*) AS n FROM addr_final WHERE loc = -1'))[0]!.n);
  return { merged: before - after, unlocated, derivedLocalities: localities.length - derivedFrom };
}

/**
 * Sets `column` of the rows matching `where` from a function of each point (and its region),
 * in one pass over those rows only.
 */
async function fillPerPoint(
  connection: DuckDBConnection,
  column: string,
  type: 'VARCHAR' | 'INTEGER',
  where: string,
  value: (lng: number, lat: number, region: string | null) => string | number | null,
): Promise<void> {
  const reader = await connection.runAndReadAll(`SELECT rowid, lng, lat, region_code FROM addr WHERE ${where}`);
  if (!reader.currentRowCount) return;
  const [ids, lngs, lats, regions] = reader.getColumnsJS() as [bigint[], number[], number[], (string | null)[]];
  await connection.run(`CREATE OR REPLACE TABLE point_fix (rid BIGINT, value ${type})`);
  const appender = await connection.createAppender('point_fix');
  for (let i = 0; i < ids.length; i++) {
    const v = value(lngs[i]!, lats[i]!, regions[i] ?? null);
    if (v === null) continue;
    appender.appendBigInt(ids[i]!);
    if (type === 'INTEGER') appender.appendInteger(v as number);
    else appender.appendVarchar(v as string);
    appender.endRow();
  }
  appender.closeSync();
  await connection.run(`UPDATE addr SET ${column} = f.value FROM point_fix f WHERE addr.rowid = f.rid`);
}

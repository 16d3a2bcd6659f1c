import type { DuckDBConnection } from '@duckdb/node-api';
import { appendOptionalVarchar } from '../../../lib/duckdb.ts';
import type { Corpus } from '../../../engines/geocoding/corpus.ts';

/**
 * Leaves the release database with what an operator inspects: `places` (regions, localities,
 * streets, POIs) and `addresses` (with their street's id), and nothing of the build's scratch
 * tables.
 */
export async function writeReleaseTables(connection: DuckDBConnection, corpus: Corpus): Promise<void> {
  await connection.run(`CREATE TABLE places (
    idx UINTEGER, id VARCHAR, layer VARCHAR, name VARCHAR, names JSON, lng DOUBLE, lat DOUBLE, prominence DOUBLE,
    region VARCHAR, city VARCHAR, category VARCHAR, housenumber VARCHAR, street VARCHAR, postcode VARCHAR,
    source VARCHAR, source_id VARCHAR)`);
  const appender = await connection.createAppender('places');
  corpus.places.forEach((p, i) => {
    appender.appendUInteger(i);
    appender.appendVarchar(p.id);
    appender.appendVarchar(p.layer);
    appender.appendVarchar(p.name);
    appender.appendVarchar(JSON.stringify(p.names));
    appender.appendDouble(p.lng);
    appender.appendDouble(p.lat);
    appender.appendDouble(p.prominence);
    appendOptionalVarchar(appender, p.region);
    appendOptionalVarchar(appender, p.city);
    appendOptionalVarchar(appender, p.category);
    appendOptionalVarchar(appender, p.housenumber);
    appendOptionalVarchar(appender, p.street);
    appendOptionalVarchar(appender, p.postcode);
    appender.appendVarchar(p.source);
    appender.appendVarchar(p.sourceId);
    appender.endRow();
  });
  appender.closeSync();
  await connection.run(`CREATE TABLE addresses AS
    SELECT s.idx + ${corpus.places.findIndex((p) => p.layer === 'street')} AS street_idx, a.number_display AS housenumber, a.unit_display AS unit, nullif(a.postcode, '') AS postcode,
           a.lng, a.lat, a.src, a.source_id
    FROM addr_final a JOIN street_idx s USING (street_key, loc, region_code)
    ORDER BY s.idx, a.number_value, a.number_key, a.unit_key NULLS FIRST`);
  await connection.run(`CREATE TABLE sources AS SELECT * FROM (VALUES ${corpus.sources.map((s, i) => `(${i}, '${s}')`).join(', ')}) t(src, source)`);
  for (const table of ['addr_final', 'street_idx', 'city_map', 'point_fix', 'source_rank', 'street_map', 'number_map', 'unit_map', 'postcode_map', 'region_map']) {
    await connection.run(`DROP TABLE IF EXISTS ${table}`);
  }
}

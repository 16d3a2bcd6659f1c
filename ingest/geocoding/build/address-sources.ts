import type { DuckDBConnection } from '@duckdb/node-api';
import { appendOptionalVarchar, lit } from '../../../lib/duckdb.ts';
import { queryRows } from '../../../lib/duckdb-rows.ts';
import { InvalidInputError } from '../../errors.ts';
import type { OsmExtract } from '../osm/extract.ts';

/**
 * Every address point of every input, as read: one row per point in `addr_raw`, text untouched
 * except trimming. `src` indexes the build's source list; bad rows are counted and dropped later.
 */
export const ADDR_RAW_TABLE = `CREATE TABLE addr_raw (
  src UTINYINT NOT NULL, source_id VARCHAR, lng DOUBLE, lat DOUBLE,
  number VARCHAR, street VARCHAR, unit VARCHAR, city VARCHAR, region VARCHAR, postcode VARCHAR)`;

/** Column name (lower-case) → SQL expression over the CSV's columns for each addr_raw column. */
type ColumnPlan = Record<'source_id' | 'lng' | 'lat' | 'number' | 'street' | 'unit' | 'city' | 'region' | 'postcode', string>;

const text = (column: string) => `nullif(trim(${column}), '')`;

/** A column's trimmed text, or NULL when the file has no such column. */
const optionalColumn = (columns: Set<string>, column: string) => (columns.has(column) ? text(`"${column}"`) : 'NULL');

async function csvColumns(connection: DuckDBConnection, file: string, label: string): Promise<Set<string>> {
  try {
    const rows = await queryRows<{ column_name: string }>(
      connection,
      `DESCRIBE SELECT * FROM read_csv(${lit(file)}, header = true, all_varchar = true, sample_size = 20480)`,
    );
    return new Set(rows.map((r) => r.column_name.toLowerCase()));
  } catch (err) {
    throw new InvalidInputError(`${label} ${file} is not a readable CSV file: ${(err as Error).message.split('\n')[0]}`);
  }
}

function requireColumns(columns: Set<string>, required: string[], label: string, file: string, format: string): void {
  const missing = required.filter((c) => !columns.has(c));
  if (missing.length) {
    throw new InvalidInputError(`${label} ${file} lacks the column(s) ${missing.join(', ')} of the ${format} format`);
  }
}

/** OpenAddresses: `LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID` (case-insensitive; UNIT..ID optional). */
function openAddressesPlan(columns: Set<string>, file: string): ColumnPlan {
  requireColumns(columns, ['lon', 'lat', 'number', 'street'], 'addresses-oa', file, 'OpenAddresses (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID)');
  const optional = (c: string) => optionalColumn(columns, c);
  const id = columns.has('id') ? text('"id"') : 'NULL';
  return {
    source_id: `coalesce(${id}, substr(md5(concat_ws('|', "lon", "lat", "number", "street", ${optional('unit')})), 1, 16))`,
    lng: 'TRY_CAST("lon" AS DOUBLE)',
    lat: 'TRY_CAST("lat" AS DOUBLE)',
    number: text('"number"'),
    street: text('"street"'),
    unit: optional('unit'),
    city: columns.has('city') ? `coalesce(${text('"city"')}, ${optional('district')})` : optional('district'),
    region: optional('region'),
    postcode: optional('postcode'),
  };
}

/**
 * Statistics Canada's Open Database of Addresses: latitude, longitude, id/source_id, street_no,
 * street (or str_name + str_type + str_dir), unit, city (or csdname), postal_code, pruid.
 */
function odaPlan(columns: Set<string>, file: string): ColumnPlan {
  requireColumns(columns, ['latitude', 'longitude', 'street_no'], 'addresses-oda', file, 'Open Database of Addresses');
  if (!columns.has('street') && !columns.has('str_name')) {
    throw new InvalidInputError(`addresses-oda ${file} lacks a street column (street, or str_name with str_type and str_dir)`);
  }
  const optional = (c: string) => optionalColumn(columns, c);
  const composed = `nullif(concat_ws(' ', ${optional('str_name')}, ${optional('str_type')}, ${optional('str_dir')}), '')`;
  const street = columns.has('street') ? (columns.has('str_name') ? `coalesce(${text('"street"')}, ${composed})` : text('"street"')) : composed;
  return {
    source_id: `coalesce(${optional('id')}, ${optional('source_id')}, substr(md5(concat_ws('|', "latitude", "longitude", "street_no", ${street}, ${optional('unit')})), 1, 16))`,
    lng: 'TRY_CAST("longitude" AS DOUBLE)',
    lat: 'TRY_CAST("latitude" AS DOUBLE)',
    number: text('"street_no"'),
    street,
    unit: optional('unit'),
    city: `coalesce(${optional('city')}, ${optional('csdname')})`,
    region: optional('pruid'),
    postcode: optional('postal_code'),
  };
}

/** Loads one address CSV into addr_raw; returns the number of rows read. */
export async function loadAddressCsv(
  connection: DuckDBConnection,
  format: 'addresses-oa' | 'addresses-oda',
  file: string,
  src: number,
): Promise<number> {
  const columns = await csvColumns(connection, file, format);
  const plan = format === 'addresses-oa' ? openAddressesPlan(columns, file) : odaPlan(columns, file);
  const select = (Object.keys(plan) as (keyof ColumnPlan)[]).map((k) => `${plan[k]} AS ${k}`).join(', ');
  try {
    const reader = await connection.runAndReadAll(
      `INSERT INTO addr_raw SELECT ${src}, ${select} FROM read_csv(${lit(file)}, header = true, all_varchar = true, sample_size = 20480)`,
    );
    return reader.rowsChanged;
  } catch (err) {
    throw new InvalidInputError(`${format} ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** Appends the address points of an OSM extract to addr_raw. */
export async function loadOsmAddresses(connection: DuckDBConnection, addresses: OsmExtract['addresses'], src: number): Promise<number> {
  const appender = await connection.createAppender('addr_raw');
  for (const a of addresses) {
    appender.appendUTinyInt(src);
    appender.appendVarchar(a.sourceId);
    appender.appendDouble(a.lng);
    appender.appendDouble(a.lat);
    appender.appendVarchar(a.housenumber);
    appender.appendVarchar(a.street);
    appendOptionalVarchar(appender, a.unit);
    appendOptionalVarchar(appender, a.city);
    appendOptionalVarchar(appender, a.province);
    appendOptionalVarchar(appender, a.postcode);
    appender.endRow();
  }
  appender.closeSync();
  return addresses.length;
}

/** Drops rows that cannot be an address point; returns how many went, by reason. */
export async function dropInvalidAddresses(connection: DuckDBConnection): Promise<Record<string, number>> {
  const reasons: Record<string, string> = {
    bad_coordinates: 'lng IS NULL OR lat IS NULL OR NOT isfinite(lng) OR NOT isfinite(lat) OR lng NOT BETWEEN -180 AND 180 OR lat NOT BETWEEN -90 AND 90 OR (lng = 0 AND lat = 0)',
    no_number: 'number IS NULL',
    no_street: 'street IS NULL',
  };
  const dropped: Record<string, number> = {};
  for (const [reason, where] of Object.entries(reasons)) {
    const reader = await connection.runAndReadAll(`DELETE FROM addr_raw WHERE ${where}`);
    dropped[reason] = Number(reader.rowsChanged);
  }
  return dropped;
}

import type { DuckDBConnection } from '@duckdb/node-api';
import { canonicalTokens } from '../../../engines/geocoding/text/street-terms.ts';
import { civicKey, cleanDisplay, tokenize } from '../../../engines/geocoding/text/fold.ts';
import { parsePostcode } from '../../../engines/geocoding/text/postcode.ts';
import { PROVINCES, resolveRegion } from '../../../engines/geocoding/text/provinces.ts';

/**
 * Normalizes each distinct text value of addr_raw once (street names, numbers, units, postal
 * codes and region spellings repeat millions of times nationally) into a lookup table the SQL
 * joins: `<column>_map(raw, …)`.
 */
interface KeyTable {
  column: 'street' | 'number' | 'unit' | 'postcode' | 'region';
  /** Output columns after `raw`, with DuckDB types. */
  outputs: Array<[string, 'VARCHAR' | 'DOUBLE']>;
  derive(raw: string): Array<string | number | null>;
}

/** Leading digits of a civic number (sort key and the number a query's number is compared with). */
export function civicValue(number: string): number {
  const digits = /^\d+/.exec(number);
  return digits ? Number(digits[0]) : Number.MAX_SAFE_INTEGER;
}

export function streetKey(street: string): string {
  return canonicalTokens(tokenize(street)).join(' ');
}

const bySgc = new Map(PROVINCES.map((p) => [p.sgc, p.code]));

export function regionCodeOf(text: string): string | null {
  return resolveRegion(text) ?? bySgc.get(text.trim()) ?? null;
}

const KEY_TABLES: KeyTable[] = [
  {
    column: 'street',
    outputs: [['street_key', 'VARCHAR'], ['street_display', 'VARCHAR']],
    derive: (raw) => [streetKey(raw) || null, cleanDisplay(raw)],
  },
  {
    column: 'number',
    outputs: [['number_key', 'VARCHAR'], ['number_display', 'VARCHAR'], ['number_value', 'DOUBLE']],
    derive: (raw) => [civicKey(raw) || null, cleanDisplay(raw), civicValue(civicKey(raw))],
  },
  {
    column: 'unit',
    outputs: [['unit_key', 'VARCHAR'], ['unit_display', 'VARCHAR']],
    derive: (raw) => [civicKey(raw) || null, cleanDisplay(raw)],
  },
  { column: 'postcode', outputs: [['postcode_canonical', 'VARCHAR']], derive: (raw) => [parsePostcode(raw)] },
  { column: 'region', outputs: [['region_code', 'VARCHAR']], derive: (raw) => [regionCodeOf(raw)] },
];

async function fillKeyTable(connection: DuckDBConnection, table: KeyTable): Promise<number> {
  const name = `${table.column}_map`;
  await connection.run(`CREATE OR REPLACE TABLE ${name} (raw VARCHAR PRIMARY KEY, ${table.outputs.map(([c, t]) => `${c} ${t}`).join(', ')})`);
  const reader = await connection.runAndReadAll(`SELECT DISTINCT ${table.column} FROM addr_raw WHERE ${table.column} IS NOT NULL`);
  const raws = reader.getColumnsJS()[0] as string[] | undefined ?? [];
  const appender = await connection.createAppender(name);
  for (const raw of raws) {
    appender.appendVarchar(raw);
    table.derive(raw).forEach((value, k) => {
      if (value === null) appender.appendNull();
      else if (table.outputs[k]![1] === 'DOUBLE') appender.appendDouble(value as number);
      else appender.appendVarchar(value as string);
    });
    appender.endRow();
  }
  appender.closeSync();
  return raws.length;
}

/** Builds every `<column>_map` table; returns distinct counts per column. */
export async function normalizeAddressText(connection: DuckDBConnection): Promise<Record<string, number>> {
  const distinct: Record<string, number> = {};
  for (const table of KEY_TABLES) distinct[table.column] = await fillKeyTable(connection, table);
  return distinct;
}

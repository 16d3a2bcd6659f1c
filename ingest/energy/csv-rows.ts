import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { lit } from '../../lib/duckdb.ts';
import { queryRows } from '../../lib/duckdb-rows.ts';
import { readCsvHeader } from '../transit/csv-header.ts';
import { InvalidInputError } from '../errors.ts';

/** Header name → key: lower case, every run of other characters one '_' ("Surf Nad83 Lat" → surf_nad83_lat). */
export const headerKey = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** Checks an input path as a job payload gives it: absolute, an existing file. */
export async function checkInputPath(label: string, file: string): Promise<void> {
  if (!path.isAbsolute(file)) throw new InvalidInputError(`${label} file ${JSON.stringify(file)} is not an absolute path`);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new InvalidInputError(`${label} file ${file} does not exist or is not a file`);
}

/** A CSV's header as keys (headerKey), for telling its form. */
export async function csvHeaderKeys(file: string): Promise<string[]> {
  return (await readCsvHeader(file)).map(headerKey);
}

/** Which header key holds each field: the first of its spellings the file has. */
export type ColumnPlan<F extends string> = Record<F, string | null>;

export function planColumns<F extends string>(keys: readonly string[], spellings: Record<F, readonly string[]>): ColumnPlan<F> {
  const plan = {} as ColumnPlan<F>;
  for (const field of Object.keys(spellings) as F[]) plan[field] = spellings[field].find((s) => keys.includes(s)) ?? null;
  return plan;
}

/**
 * Every data row of a CSV, in file order, as trimmed text per field (null when empty or when the
 * file has no such column). DuckDB reads it with explicit all-VARCHAR columns from the header;
 * `row` is the 1-based data row (the header not counted).
 */
export async function readCsvRows<F extends string>(
  connection: DuckDBConnection,
  file: string,
  plan: ColumnPlan<F>,
  label: string,
): Promise<{ row: number; values: Record<F, string | null> }[]> {
  const header = await readCsvHeader(file);
  const keys = header.map(headerKey);
  const columns = `{${header.map((name, i) => `${lit(`c${i}`)}: 'VARCHAR'`).join(', ')}}`;
  const fields = Object.keys(plan) as F[];
  const select = fields.map((field) => {
    const index = plan[field] === null ? -1 : keys.indexOf(plan[field]!);
    return `${index < 0 ? 'NULL' : `nullif(trim("c${index}"), '')`} AS "${field}"`;
  });
  try {
    // file order: DuckDB keeps it only with preserve_insertion_order, which builds turn off
    await connection.run('SET preserve_insertion_order = true');
    const rows = await queryRows<Record<F, string | null>>(connection, `
      SELECT ${select.join(', ')}
      FROM read_csv(${lit(file)}, columns = ${columns}, header = true, auto_detect = false,
                    delim = ',', quote = '"', escape = '"', null_padding = true)`);
    return rows.map((values, i) => ({ row: i + 1, values }));
  } catch (err) {
    throw new InvalidInputError(`${label} file ${file} cannot be read as CSV: ${(err as Error).message.split('\n')[0]}`);
  }
}

import type { DuckDBConnection } from '@duckdb/node-api';

/** Rows of a small query as plain objects (strings, numbers, bigints, null). */
export async function queryRows<T = Record<string, unknown>>(connection: DuckDBConnection, sql: string): Promise<T[]> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowObjectsJS() as T[];
}

/** The first row of a query, if any. */
export async function queryOne<T = Record<string, unknown>>(connection: DuckDBConnection, sql: string): Promise<T | undefined> {
  return (await queryRows<T>(connection, sql))[0];
}

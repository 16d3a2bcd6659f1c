import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** DuckDB settings that keep a 5-million-row build under ~1.5 GB of resident memory. */
export interface DuckDbLimits {
  memoryLimit: string;
  threads: number;
  tempDirectory: string;
}

export interface DuckDb {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  close(): void;
}

export async function openDuckDb(file: string, limits: DuckDbLimits): Promise<DuckDb> {
  const instance = await DuckDBInstance.create(file, {
    memory_limit: limits.memoryLimit,
    threads: String(limits.threads),
    preserve_insertion_order: 'false',
    temp_directory: limits.tempDirectory,
  });
  const connection = await instance.connect();
  return {
    instance,
    connection,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** SQL string literal. */
export function lit(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** SQL quoted identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export async function queryRows<T = Record<string, unknown>>(connection: DuckDBConnection, sql: string): Promise<T[]> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowObjectsJS() as T[];
}

export async function queryOne<T = Record<string, unknown>>(connection: DuckDBConnection, sql: string): Promise<T | undefined> {
  return (await queryRows<T>(connection, sql))[0];
}

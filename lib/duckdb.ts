import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';

/** DuckDB memory, thread and spill settings of a build instance. */
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
  let connection: DuckDBConnection;
  try {
    connection = await instance.connect();
  } catch (err) {
    instance.closeSync();
    throw err;
  }
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

/** Appends a text value, or NULL for a missing or empty one. */
export function appendOptionalVarchar(appender: DuckDBAppender, value: string | null | undefined): void {
  if (value) appender.appendVarchar(value);
  else appender.appendNull();
}

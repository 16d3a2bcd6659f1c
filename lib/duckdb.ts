import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';

/** DuckDB memory, thread and spill settings of an instance. */
export interface DuckDbLimits {
  memoryLimit: string;
  /** Default: one per core. */
  threads?: number;
  /** Where a sort or join that outgrows memory spills: never inside a release directory. */
  tempDirectory: string;
  /** Open a published file READ_ONLY (many readers side by side, rows in the order written). */
  readOnly?: boolean;
}

export interface DuckDb {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  close(): void;
}

export async function openDuckDb(file: string, limits: DuckDbLimits): Promise<DuckDb> {
  const instance = await DuckDBInstance.create(file, {
    memory_limit: limits.memoryLimit,
    temp_directory: limits.tempDirectory,
    ...(limits.threads === undefined ? {} : { threads: String(limits.threads) }),
    // Builds sort what they write; reads keep the order written (tables are sorted by lookup key).
    ...(limits.readOnly ? { access_mode: 'READ_ONLY' } : { preserve_insertion_order: 'false' }),
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

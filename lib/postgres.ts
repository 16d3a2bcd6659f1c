import pg from 'pg';

const INT8_OID = 20;

// int8 (bigint, count(*)) as JS numbers: every count here stays far below 2^53. Per pool, so
// importing this module changes nothing for other pg users in the process.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export type Pool = pg.Pool;

export function createPool(databaseUrl: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 5000, types });
  // A client losing its connection must not crash the process: idle, the pool replaces it; checked
  // out, its query is rejected and the caller answers that (pg emits 'error' on the client too).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
}

/** The same server with another database (the maintenance db to create ours, a test db, ...). */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/**
 * Runs fn in one transaction: committed when it returns, rolled back when it throws. Given the
 * pool, a client is taken for the call and released after; given a client, it is used as it is.
 * `begin` may set the isolation level or READ ONLY.
 */
export async function inTransaction<T>(on: pg.Pool | pg.ClientBase, fn: (client: pg.ClientBase) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = on instanceof pg.Pool ? await on.connect() : on;
  try {
    await client.query(begin);
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  } finally {
    if (on instanceof pg.Pool) (client as pg.PoolClient).release();
  }
}

import type { PoolClient } from 'pg';

/** Runs `fn` in one transaction on `client`: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(client: PoolClient, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

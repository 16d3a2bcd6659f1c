import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { databaseName, inTransaction, withDatabase } from './postgres.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any fixed 64-bit number: all canmap processes agree on it, so only one migrates at a time.
const MIGRATION_LOCK = 4_242_017_001;

export interface MigrationResult {
  database: string;
  created: boolean;
  applied: string[];
  current: string | null;
}

async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseName(databaseUrl);
  const admin = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres') });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    } catch (err) {
      // Created meanwhile by another process: 42P04, or 23505 when both raced on the catalog row.
      if (!['42P04', '23505'].includes((err as { code?: string }).code ?? '')) throw err;
      return false;
    }
    return true;
  } finally {
    await admin.end();
  }
}

/** Applies the numbered SQL files of lib/migrations not yet applied, each in its own transaction. */
export async function migrate(databaseUrl: string): Promise<MigrationResult> {
  const created = await ensureDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      await inTransaction(client, async () => {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      }).catch((err: unknown) => {
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      });
      applied.push(file);
    }
    return { database: databaseName(databaseUrl), created, applied, current: files.at(-1) ?? null };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

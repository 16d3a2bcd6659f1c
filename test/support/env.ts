import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../lib/config.ts';
import { migrate } from '../../lib/migrate.ts';
import { withDatabase } from '../../lib/postgres.ts';

export interface TestEnv {
  config: Config;
  /** Environment variables that give a child process (CLI, worker, API) this same isolated setup. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A database, Redis prefix and releases directory of its own, so test files run side by side
 * and beside a demo without touching each other's state.
 */
export async function createTestEnv(label: string, overrides: Record<string, string> = {}): Promise<TestEnv> {
  const id = `${label.replace(/\W/g, '_').toLowerCase()}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = withDatabase(SERVER_URL, `canmap_test_${id}`);
  await migrate(databaseUrl);
  const releasesDir = await mkdtemp(path.join(os.tmpdir(), `canmap-releases-${id}-`));
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: `canmap-test-${id}`,
    RELEASES_DIR: releasesDir,
    METER_JOURNAL_DIR: path.join(releasesDir, '.meter-journal'),
    BYOD_DIR: path.join(releasesDir, '.byod'),
    PORT: '0',
    ADMIN_PORT: '0',
    WORKER_ADMIN_PORT: '0',
    BASE_URL: 'http://api.canmap.test',
    LOG_LEVEL: 'silent',
    // Hashing whole releases in the background would only slow tests down; tests that want it opt in.
    RELEASE_REVERIFY_INTERVAL_SECONDS: '0',
    // Suites and benchmarks send far over 1,000 requests a minute with one key; the limiter still
    // runs on every request. test/access/rate-limit.test.ts sets the spec's value.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    ...overrides,
  };
  const config = loadConfig(env);
  return {
    config,
    env,
    async cleanup() {
      await rm(releasesDir, { recursive: true, force: true });
      const redis = new Redis(REDIS_URL);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.redisPrefix}*`, 'COUNT', 1000);
          if (keys.length) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
      const admin = new pg.Client({ connectionString: SERVER_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(`canmap_test_${id}`)} WITH (FORCE)`);
      await admin.end();
    },
  };
}

import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { Settings } from '../../schemas/config.ts';
import { migrate } from '../../lib/migrate.ts';
import { createTestEnv } from '../support/env.ts';
import { readdir } from 'node:fs/promises';
import pg from 'pg';
import { databaseName, withDatabase } from '../../lib/postgres.ts';
import { repoPath } from '../support/paths.ts';

async function dropDatabase(url: string) {
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(databaseName(url))} WITH (FORCE)`);
  await admin.end();
}

describe('config', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/canmap',
      redisUrl: 'redis://127.0.0.1:6379',
      port: 8080,
      baseUrl: 'http://localhost:8080',
    });
    expect(config.releasesDir.endsWith('/data/releases')).toBe(true);
    expect(config).toMatchObject({ bodyIdleTimeoutMs: 30_000, bodyTimeoutMs: 300_000, shutdownGraceMs: 10_000 });
  });

  it('converts each variable into its Config field as declared once in schemas/config.ts', () => {
    const config = loadConfig({
      KEY_CACHE_TTL_SECONDS: '12', MATRIX_MAX_KM: '3', MAX_DOWNLOAD_MB: '2', BYOD_DIR: 'x/y',
      DASHBOARD_URL: 'https://dash.example/', VALHALLA_URL: 'http://v:8002//', MATRIX_ENABLED: '1',
      TRANSIT_ROUTING_FEED: 'stm', BASE_URL: 'https://api.example', RATE_LIMIT_PER_MINUTE: '7',
      BASEMAP_BUILD_MEMORY_MB: '512', BASEMAP_BUILD_TEMP_DIR: 'scratch/basemap', TILE_CACHE_MB: '0',
    });
    expect(config).toMatchObject({
      keyCacheTtlMs: 12_000, matrixMaxMetres: 3_000, maxDownloadBytes: 2 * 1024 * 1024, byodDir: path.resolve('x/y'),
      dashboardUrl: 'https://dash.example', valhallaUrl: 'http://v:8002', matrixEnabled: true,
      transitRoutingFeed: 'stm', baseUrl: 'https://api.example', rateLimitPerMinute: 7,
      basemapBuildMemoryMb: 512, basemapBuildTempDir: path.resolve('scratch/basemap'), tileCacheMb: 0,
    });
    expect(loadConfig({}).transitRoutingFeed).toBeNull();
    expect(loadConfig({})).toMatchObject({ basemapBuildMemoryMb: 1024, basemapBuildTempDir: null, tileCacheMb: 256 });
    expect(loadConfig({}).matrixEnabled).toBe(false);
    expect(Object.keys(loadConfig({})).length).toBe(Object.keys(Settings).length);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['DATABASE_URL', 'mysql://x'],
    ['BASE_URL', 'https://api.example/path'],
    ['KEY_CACHE_TTL_SECONDS', '600'],
    ['LOG_LEVEL', 'chatty'],
    ['BODY_IDLE_TIMEOUT_SECONDS', '0'],
    ['BODY_TIMEOUT_SECONDS', '0'],
    ['SHUTDOWN_GRACE_SECONDS', '-1'],
    ['BASEMAP_BUILD_MEMORY_MB', '100'],
    ['BASEMAP_BUILD_MEMORY_MB', '2GB'],
    ['TILE_CACHE_MB', '-1'],
    ['TILE_CACHE_MB', '256MB'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrowError(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrowError(new RegExp(`^invalid configuration: ${name} `));
  });
});

describe('migrate', () => {
  it('is idempotent and safe when two processes migrate at once', async () => {
    const env = await createTestEnv('migrate');
    const freshUrl = withDatabase(env.config.databaseUrl, `${databaseName(env.config.databaseUrl)}_fresh`);
    try {
      const again = await migrate(env.config.databaseUrl);
      expect(again.applied).toEqual([]);
      const racing = await Promise.all([migrate(freshUrl), migrate(freshUrl)]);
      const migrations = (await readdir(repoPath('lib/migrations'))).filter((f) => f.endsWith('.sql'));
      expect(racing.map((r) => r.applied.length).sort()).toEqual([0, migrations.length]);
      const client = new pg.Client({ connectionString: env.config.databaseUrl });
      await client.connect();
      const { rows } = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
      await client.end();
      expect(rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['accounts', 'api_keys', 'releases', 'enabled_releases', 'release_history', 'schema_migrations']),
      );
    } finally {
      await dropDatabase(freshUrl);
      await env.cleanup();
    }
  });
});

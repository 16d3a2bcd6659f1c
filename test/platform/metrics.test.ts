import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdmin } from '../../api/admin/index.ts';
import { metricsSource } from '../../api/metrics/cluster-metrics.ts';
import { HealthProbe } from '../../api/admin/health-probe.ts';
import { buildApp } from '../../api/app.ts';
import { createApiMetrics, type ApiMetrics } from '../../api/metrics/index.ts';
import { startServer, type RunningServer } from '../../api/server.ts';
import { createMeterJournal, type MeterJournal } from '../../io/access/meter-journal.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createApiRedis, createRedis } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { ApiStack } from '../support/api-stack.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';
import { publishTextRelease } from '../support/release-probe.ts';
import { sampleValue, samplesOf, scrape, type Sample } from '../support/prometheus-text.ts';

const DURATION = 'canmap_http_request_duration_seconds';
const QUEUE = 'ingest-transit';

describe('GET /metrics on the admin port of `canmap serve`', () => {
  let stack: ApiStack;
  let release: RegisteredRelease;
  let server: RunningServer;

  beforeAll(async () => {
    stack = await ApiStack.create('metrics');
    release = await stack.build(repoPath('samples/catalog/demo.catalog.json'));
    await stack.enable(release);
    // As `canmap serve` starts it, with one queue to count.
    server = stack.server = await startServer(stack.env.config, { logger: false, queueNames: [QUEUE] });
    await stack.waitForRelease(release.id);
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('answers in the Prometheus text format without a key, with the process metrics under canmap_', async () => {
    const { samples } = await scrape(server.adminUrl);
    expect(sampleValue(samples, 'canmap_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samplesOf(samples, 'canmap_nodejs_eventloop_lag_seconds').length).toBe(1);
    // The API port does not serve it.
    expect((await stack.get('/metrics')).status).toBe(404);
  });

  it('counts a request under its route pattern, never its id, and an unserved path as unmatched', async () => {
    const before = (await scrape(server.adminUrl)).samples;
    const labels = { method: 'GET', route: '/transit/stops/:id/departures', status_code: '503' };
    const countBefore = sampleValue(before, `${DURATION}_count`, labels) ?? 0;
    expect((await stack.get('/transit/stops/SECRET-STOP-4711/departures')).status).toBe(503); // no transit release
    expect((await stack.get('/no-such-path/SECRET-PATH-0815?near=-123.1,49.2')).status).toBe(404);

    const { samples, text } = await scrape(server.adminUrl);
    expect(sampleValue(samples, `${DURATION}_count`, labels)).toBe(countBefore + 1);
    expect(sampleValue(samples, `${DURATION}_bucket`, { ...labels, le: '+Inf' })).toBe(countBefore + 1);
    expect(sampleValue(samples, `${DURATION}_count`, { method: 'GET', route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    const labelValues = samples.flatMap((s: Sample) => Object.values(s.labels));
    for (const leak of ['SECRET-STOP-4711', 'SECRET-PATH-0815', '-123.1', stack.key]) {
      expect(labelValues.some((v) => v.includes(leak))).toBe(false);
      expect(text).not.toContain(leak);
    }
    // Every route label is a pattern or 'unmatched'.
    for (const s of samplesOf(samples, `${DURATION}_count`)) expect(s.labels.route === 'unmatched' || s.labels.route!.startsWith('/')).toBe(true);
  });

  it('shows the served release, each kind\'s readiness, Postgres and Redis up', async () => {
    const { samples } = await scrape(server.adminUrl);
    expect(samplesOf(samples, 'canmap_release_info')).toEqual([{ name: 'canmap_release_info', labels: { kind: 'catalog', release_id: release.id }, value: 1 }]);
    expect(sampleValue(samples, 'canmap_release_ready', { kind: 'catalog' })).toBe(1);
    expect(sampleValue(samples, 'canmap_release_enabled', { kind: 'catalog' })).toBe(1);
    expect(sampleValue(samples, 'canmap_release_enabled', { kind: 'transit' })).toBe(0);
    expect(sampleValue(samples, 'canmap_release_ready', { kind: 'transit' })).toBeUndefined(); // nothing enabled: no alarm
    for (const dependency of ['postgres', 'redis']) {
      expect(sampleValue(samples, 'canmap_dependency_up', { dependency })).toBe(1);
      expect(sampleValue(samples, 'canmap_dependency_round_trip_seconds', { dependency })).toBeGreaterThan(0);
    }
    expect(sampleValue(samples, 'canmap_rate_limit_fail_open_total')).toBe(0);
  });

  it('shows the tile cache: the catalog\'s archives held whole, within TILE_CACHE_MB', async () => {
    const dir = path.join(release.path, 'archives');
    const sizes = await Promise.all((await readdir(dir)).map(async (f) => (await stat(path.join(dir, f))).size));
    expect(sizes.length).toBeGreaterThan(1);
    const { samples } = await scrape(server.adminUrl);
    expect(sampleValue(samples, 'canmap_tile_cache_bytes', { part: 'resident' })).toBe(sizes.reduce((a, b) => a + b, 0));
    expect(sampleValue(samples, 'canmap_tile_cache_bytes', { part: 'kept' })).toBe(0);
    expect(sampleValue(samples, 'canmap_tile_cache_budget_bytes')).toBe(stack.env.config.tileCacheMb * 2 ** 20);
    expect(sampleValue(samples, 'canmap_tile_cache_lookups_total', { result: 'hit' })).toBe(0);
  });

  it('counts the jobs of each queue per state', async () => {
    const connection = createRedis(stack.env.config.redisUrl);
    const queue = new Queue(QUEUE, { connection, prefix: stack.env.config.redisPrefix });
    try {
      await queue.add('one', {}, { jobId: 'metrics-waiting' });
      await queue.add('two', {}, { jobId: 'metrics-delayed', delay: 3_600_000 });
      const { samples } = await scrape(server.adminUrl);
      expect(sampleValue(samples, 'canmap_queue_jobs_collect_failed')).toBe(0);
      expect(sampleValue(samples, 'canmap_queue_jobs', { queue: QUEUE, state: 'waiting' })).toBe(1);
      expect(sampleValue(samples, 'canmap_queue_jobs', { queue: QUEUE, state: 'delayed' })).toBe(1);
      expect(sampleValue(samples, 'canmap_queue_jobs', { queue: QUEUE, state: 'failed' })).toBe(0);
      expect(samplesOf(samples, 'canmap_queue_jobs').map((s) => s.labels.state).sort()).toEqual(['active', 'completed', 'delayed', 'failed', 'paused', 'waiting']);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });

  it('says so when an enabled release cannot be served: ready 0, no release_info for its kind', async () => {
    // A transit release holding no transit database: it verifies, but cannot be opened.
    const broken = await publishTextRelease({ pool: stack.pool, releasesDir: stack.env.config.releasesDir }, 'transit', 'not a database');
    await enableRelease(stack.pool, broken.id, 'test');
    let samples = (await scrape(server.adminUrl)).samples;
    for (let i = 0; i < 300 && sampleValue(samples, 'canmap_release_ready', { kind: 'transit' }) === undefined; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      samples = (await scrape(server.adminUrl)).samples;
    }
    expect(sampleValue(samples, 'canmap_release_enabled', { kind: 'transit' })).toBe(1);
    expect(sampleValue(samples, 'canmap_release_ready', { kind: 'transit' })).toBe(0);
    expect(samplesOf(samples, 'canmap_release_info').map((s) => s.labels.kind)).toEqual(['catalog']);
  }, 60_000);
});

describe('GET /metrics while Redis does not answer', () => {
  let env: TestEnv;
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    // Nothing listens on port 1: the API's Redis is unreachable from the start.
    env = await createTestEnv('metrics_no_redis', { REDIS_URL: 'redis://127.0.0.1:1' });
    const pool = createPool(env.config.databaseUrl, 1);
    key = (await createKey(pool, {})).key;
    await pool.end();
    server = await startServer(env.config, { logger: false, queueNames: [QUEUE] });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await env?.cleanup();
  });

  it('counts the requests let through unlimited, answers at once and says the job counts failed', async () => {
    const before = sampleValue((await scrape(server.adminUrl)).samples, 'canmap_rate_limit_fail_open_total');
    expect(before).toBe(0);
    for (let i = 0; i < 3; i += 1) {
      const res = await server.app.inject({ method: 'GET', url: '/no-such-path', headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode).toBe(404);
    }
    const began = Date.now();
    const { samples } = await scrape(server.adminUrl);
    expect(Date.now() - began).toBeLessThan(5000); // generous: the job counts give up after 1 s
    expect(sampleValue(samples, 'canmap_rate_limit_fail_open_total')).toBe(3);
    expect(sampleValue(samples, 'canmap_queue_jobs_collect_failed')).toBe(1);
    expect(samplesOf(samples, 'canmap_queue_jobs')).toEqual([]);
    expect(sampleValue(samples, 'canmap_dependency_up', { dependency: 'redis' })).toBe(0);
    expect(sampleValue(samples, 'canmap_dependency_round_trip_seconds', { dependency: 'redis' })).toBeUndefined();
    expect(sampleValue(samples, 'canmap_dependency_up', { dependency: 'postgres' })).toBe(1);
  });
});

describe('meter journal backlog and flush lag', () => {
  let env: TestEnv;
  let pool: Pool;
  let journalPool: Pool;
  let journal: MeterJournal;
  let metrics: ApiMetrics;
  let app: FastifyInstance;
  let admin: FastifyInstance;
  let adminUrl: string;
  let key: string;
  let health: HealthProbe;
  let redis: ReturnType<typeof createApiRedis>;

  beforeAll(async () => {
    env = await createTestEnv('metrics_meter');
    pool = createPool(env.config.databaseUrl, 2);
    journalPool = createPool(env.config.databaseUrl, 2);
    redis = createApiRedis(env.config.redisUrl);
    const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
    health = new HealthProbe({ pool, redis });
    // Flushed only when the test says so.
    journal = createMeterJournal({ dir: env.config.meterJournalDir, pool: journalPool, flushEveryMs: 3_600_000 });
    metrics = createApiMetrics({ releases, health, redis, redisPrefix: env.config.redisPrefix, queueNames: [] });
    app = await buildApp({ config: env.config, pool, releases, logger: false, meterJournal: journal, metrics });
    admin = buildAdmin({ releases, health, metrics: metricsSource(metrics.registry) });
    adminUrl = await admin.listen({ host: '127.0.0.1', port: 0 });
    key = (await createKey(pool, {})).key;
  });
  afterAll(async () => {
    await app?.close();
    await admin?.close();
    await metrics?.close();
    health?.stop();
    redis?.disconnect();
    await journalPool?.end();
    await pool?.end();
    await env?.cleanup();
  });

  it('goes up after a metered answer and back to 0 after a flush; the lag restarts at the flush', async () => {
    await journal.flush();
    const start = (await scrape(adminUrl)).samples;
    expect(sampleValue(start, 'canmap_meter_journal_backlog_bytes')).toBe(0);
    expect(sampleValue(start, 'canmap_meter_journal_flush_lag_seconds')).toBeGreaterThanOrEqual(0);

    const res = await app.inject({ method: 'GET', url: '/no-such-path', headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(404); // a 404 after authentication is metered
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = (await scrape(adminUrl)).samples;
    expect(sampleValue(after, 'canmap_meter_journal_backlog_bytes')).toBeGreaterThan(0);
    const lagBefore = sampleValue(after, 'canmap_meter_journal_flush_lag_seconds')!;
    expect(lagBefore).toBeGreaterThan(0.04);

    await journal.flush();
    const flushed = (await scrape(adminUrl)).samples;
    expect(sampleValue(flushed, 'canmap_meter_journal_backlog_bytes')).toBe(0);
    expect(sampleValue(flushed, 'canmap_meter_journal_flush_lag_seconds')).toBeLessThan(lagBefore);
    const { rows } = await pool.query<{ calls: string }>('SELECT sum(calls) AS calls FROM usage_daily');
    expect(Number(rows[0]!.calls)).toBe(1);
  });
});

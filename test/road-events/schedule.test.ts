import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scheduledJobs } from '../../jobs/schedules/index.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { loadConfig, type Config } from '../../lib/config.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { drivebc, FakePublisher, fixture } from '../support/road-events-upstream.ts';

let t: TestEnv;
let pool: Pool;
let upstream: FakePublisher;
let running: RunningWorkers | undefined;
let second: RunningWorkers | undefined;
const logs: string[] = [];

function config(overrides: Record<string, string>): Config {
  return loadConfig({
    ...t.env,
    OPEN511_URL: upstream.url('/bc/events'),
    ALBERTA_511_URL: upstream.url('/ab/event'),
    ONTARIO_511_URL: upstream.url('/on/event'),
    ROAD_EVENTS_TIMEOUT_SECONDS: '1',
    ...overrides,
  });
}

const startOne = (overrides: Record<string, string>) =>
  startWorkers(config(overrides), { kinds: [], schedules: scheduledJobs, log: (level, line) => logs.push(`${level} ${line}`) });

async function start(overrides: Record<string, string>) {
  running = await startOne(overrides);
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const count = async (table: string) => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

beforeAll(async () => {
  upstream = await FakePublisher.start();
  t = await createTestEnv('road_events_schedule');
  pool = createPool(t.config.databaseUrl, 2);
  upstream.script('/bc/events', { body: drivebc('four') });
  upstream.script('/ab/event', { body: fixture('alberta-511-events.json') });
  upstream.script('/on/event', { body: fixture('ontario-511-events.json') });
});

afterEach(async () => {
  await running?.close();
  await second?.close();
  running = second = undefined;
});

afterAll(async () => {
  await running?.close();
  await second?.close();
  await upstream?.close();
  await pool?.end();
  await t?.cleanup();
});

describe('scheduled polls in the worker', () => {
  it('the worker polls road events and snapshots closures on their schedules', async () => {
    await start({ ROAD_EVENTS_POLL_SECONDS: '1', CLOSURES_POLL_SECONDS: '2' });
    expect(logs.find((l) => l.includes('ready:'))).toMatch(/ready: schedule-road-events, schedule-closures/);
    await until('three road-event polls', async () => (await pool.query(`SELECT 1 FROM road_feed_status WHERE feed = 'events:CA-BC' AND last_success_at IS NOT NULL`)).rowCount === 1 &&
      logs.filter((l) => l.startsWith('info road-events: CA-BC 4 events')).length >= 3);
    await until('two closure snapshots', () => logs.filter((l) => l.startsWith('info closures: CA-AB 2 closures, CA-ON 2 closures')).length >= 2);
    expect(await count('road_events')).toBe(4);
    expect(await count('road_closures')).toBe(4);
    expect(logs.filter((l) => l.startsWith('info road-events:'))[0]).toBe('info road-events: CA-BC 4 events (+4 ~0 -0) from 1 page(s), 0 closures');
    // The worker records its interval, which the API's freshness thresholds scale with.
    const { rows } = await pool.query(`SELECT feed, poll_interval_ms FROM road_feed_status ORDER BY feed`);
    expect(rows).toEqual([
      { feed: 'closures:CA-AB', poll_interval_ms: 2000 }, { feed: 'closures:CA-BC', poll_interval_ms: 1000 },
      { feed: 'closures:CA-ON', poll_interval_ms: 2000 }, { feed: 'events:CA-BC', poll_interval_ms: 1000 },
    ]);
  });

  it('one poll at a time across two workers on the same queues, even when a poll takes longer than the interval', async () => {
    upstream.script('/bc/events', { delayMs: 1_500, body: drivebc('four_updated') });
    upstream.maxInFlight = 0;
    const before = logs.length;
    const settings = { ROAD_EVENTS_POLL_SECONDS: '1', CLOSURES_POLL_SECONDS: '0', ROAD_EVENTS_TIMEOUT_SECONDS: '3' };
    [running, second] = await Promise.all([startOne(settings), startOne(settings)]);
    expect(logs).toContain('info closures: not scheduled (interval 0)');
    await until('three slow polls', () => logs.slice(before).filter((l) => l.startsWith('info road-events: CA-BC 4 events')).length >= 3, 20_000);
    expect(logs.slice(before).filter((l) => l.includes('failed'))).toEqual([]);
    // Runs did overlap (the two workers took jobs while a poll was running), and the poll lock let one through.
    expect(logs.slice(before)).toContain('info road-events: CA-BC skipped: another poll of CA-BC is running');
    expect(upstream.maxInFlight).toBe(1);
  });

  it('a Redis wipe loses nothing: the scheduler is put back and the snapshot is in Postgres', async () => {
    upstream.script('/bc/events', { body: drivebc('four') });
    await start({ ROAD_EVENTS_POLL_SECONDS: '1', CLOSURES_POLL_SECONDS: '0' });
    await until('a poll', () => upstream.requestsTo('/bc/events').length > 0 && logs.some((l) => l.startsWith('info road-events:')));
    const redis = new Redis(t.config.redisUrl);
    try {
      const keys = await redis.keys(`${t.config.redisPrefix}:schedule-road-events:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    expect(await count('road_events')).toBe(4);
    await until('the scheduler back', () => logs.some((l) => l === 'warn road-events: job scheduler was missing from Redis; scheduled again'));
    const after = upstream.requestsTo('/bc/events').length;
    await until('polls again', () => upstream.requestsTo('/bc/events').length >= after + 2);
  });

  it('stopping the worker abandons a poll in progress at once and stores nothing of it', async () => {
    upstream.script('/bc/events', { delayMs: 10_000, body: drivebc('five') });
    await start({ ROAD_EVENTS_POLL_SECONDS: '1', CLOSURES_POLL_SECONDS: '0' });
    await until('a request in flight', () => upstream.inFlight > 0);
    const started = performance.now();
    await running!.close();
    running = undefined;
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(await count('road_events')).toBe(4);
    expect(logs).toContain('warn road-events: run failed: CA-BC failed: worker stopping');
    // Our own stop is not recorded as an upstream failure (the API would call the feed unreachable).
    const { rows } = await pool.query(`SELECT last_error, last_attempt_at FROM road_feed_status WHERE feed = 'events:CA-BC'`);
    expect(rows[0].last_error).toBeNull();
    expect(Date.now() - rows[0].last_attempt_at.getTime()).toBeLessThan(5_000);
  });
});

import { tcpRelay } from '../support/tcp-relay.ts';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AppDeps } from '../../api/app.ts';
import { errors } from '../../lib/errors.ts';
import { appendFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createMeterJournal } from '../../io/access/meter-journal.ts';
import { encodeEvent } from '../../engines/access/meter-journal-format.ts';
import { flushJournalFile } from '../../io/access/meter-journal-file.ts';
import { createMetering, familyOf, pathOf, type MeterEvent } from '../../engines/access/metering.ts';
import { hostTag } from '../../lib/process-owner.ts';
import { monthUsage, usageByDay } from '../../io/access/usage.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: pg.Pool;
const cleanups: (() => Promise<unknown>)[] = [];
/** Apps not closed yet: their journals are flushed before usage is read. */
const openApps = new Set<FastifyInstance>();

async function newApp(deps: Partial<AppDeps> = {}): Promise<FastifyInstance> {
  const config = deps.config ?? env.config;
  const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 60_000 });
  const app = await buildApp({ config, pool, releases, logger: false, ...deps });
  app.get('/test/ok', async () => ({ ok: true }));
  app.get('/test/empty', async (_request, reply) => reply.code(204).send());
  app.get('/test/bad', async () => { throw errors.badRequest('x must be a number'); });
  openApps.add(app);
  app.addHook('onClose', async () => { openApps.delete(app); });
  cleanups.push(() => app.close());
  return app;
}

const newKey = async (input: Parameters<typeof createKey>[1] = {}) => createKey(pool, input);
const get = (app: FastifyInstance, key: string, url = '/test/ok', headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { authorization: `Bearer ${key}`, ...headers } });

/** Counts in Postgres what every open app has answered (their journals flush every 200 ms by themselves). */
async function flushAll(): Promise<void> {
  await Promise.all([...openApps].map((app) => app.meterJournal?.flush()));
}

/** usage_daily rows of one key, as `[dev:]family` → calls, once every open app's journal is flushed. */
async function usageOf(keyId: string): Promise<Record<string, number>> {
  await flushAll();
  return countedUsageOf(keyId);
}

/** usage_daily rows of one key as they stand. */
async function countedUsageOf(keyId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ family: string; dev: boolean; calls: number }>(
    'SELECT family, dev, calls FROM usage_daily WHERE key_id = $1', [keyId]);
  const out: Record<string, number> = {};
  for (const r of rows) out[`${r.dev ? 'dev:' : ''}${r.family}`] = (out[`${r.dev ? 'dev:' : ''}${r.family}`] ?? 0) + r.calls;
  return out;
}

/** The test Postgres behind a relay that can be cut and restored; its URL points at the relay. */
async function postgresRelay(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const target = new URL(env.config.databaseUrl);
  const relay = await tcpRelay(target.hostname, Number(target.port || 5432));
  cleanups.push(() => relay.close());
  const url = new URL(env.config.databaseUrl);
  url.host = `127.0.0.1:${relay.port}`;
  return { url: url.toString(), cut: relay.cut, restore: relay.restore };
}

beforeAll(async () => {
  env = await createTestEnv('metering');
  pool = createPool(env.config.databaseUrl);
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await pool?.end();
  await env?.cleanup();
});

describe('what counts as a call', () => {
  it('every answer after authentication counts, whatever its status: 200, 204, 400, the 404 of an unserved path, 503', async () => {
    const app = await newApp();
    const { id, key } = await newKey();
    const statuses = [];
    for (const url of ['/test/ok', '/test/empty', '/test/bad', '/no/such/path', '/transit/agencies', `/test/ok?key=${key}`]) {
      statuses.push(url.includes('key=') ? (await app.inject({ url })).statusCode : (await get(app, key, url)).statusCode);
    }
    expect(statuses).toEqual([200, 204, 400, 404, 503, 200]);
    expect(await usageOf(id)).toEqual({ other: 5, transit: 1 });
    // Paths Fastify cannot route (bad percent-encoding, over-long id) are 404s after authentication too.
    expect((await get(app, key, '/places/%zz')).statusCode).toBe(404);
    expect((await get(app, key, `/places/${'x'.repeat(2000)}`)).statusCode).toBe(404);
    expect(await usageOf(id)).toEqual({ other: 5, transit: 1, places: 2 });
  });

  it('door rejections do not count: 401, 403 origin_not_allowed, 429 rate_limited', async () => {
    const redis = createApiRedis(env.config.redisUrl);
    cleanups.push(async () => redis.disconnect());
    expect(await redisReady(redis, 5000)).toBe(true);
    const app = await newApp({ config: { ...env.config, rateLimitPerMinute: 2 }, redis });
    const restricted = await newKey({ origins: ['https://maps.example.ca'] });
    const limited = await newKey();
    expect((await app.inject({ url: '/test/ok' })).statusCode).toBe(401);
    expect((await get(app, 'cmk_not_a_key')).statusCode).toBe(401);
    expect((await get(app, restricted.key, '/test/ok', { origin: 'https://evil.example' })).json()).toMatchObject({ code: 'origin_not_allowed' });
    expect((await get(app, restricted.key, '/test/ok', { origin: 'https://maps.example.ca' })).statusCode).toBe(200);
    const limitedStatuses = [];
    for (let i = 0; i < 4; i += 1) limitedStatuses.push((await get(app, limited.key)).statusCode);
    expect(limitedStatuses).toEqual([200, 200, 429, 429]);
    expect(await usageOf(restricted.id)).toEqual({ other: 1 });
    expect(await usageOf(limited.id)).toEqual({ other: 2 });
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM usage_daily WHERE key_id NOT LIKE $1', ['key_%']);
    expect(rows[0].n).toBe(0);
  });

  it('feedback, glyph and sprite routes are never metered; a batch counts its non-blank queries', async () => {
    const app = await newApp();
    const { id, key } = await newKey();
    const post = (url: string, body: unknown) => app.inject({ method: 'POST', url, payload: body as object, headers: { authorization: `Bearer ${key}` } });
    expect((await post('/feedback', { nonsense: true })).statusCode).toBe(400);
    expect((await post('/places/svc:place:x/feedback', {})).statusCode).toBeGreaterThanOrEqual(400);
    expect((await get(app, key, '/glyphs/2/Noto%20Sans%20Regular/0-255.pbf')).statusCode).toBe(404);
    expect((await get(app, key, '/sprite/2/basic.json')).statusCode).toBe(404);
    expect(await usageOf(id)).toEqual({});
    // Land descriptions answer without any release: founder keys pass the legal-land check.
    const batch = await post('/geocode/batch', { queries: ['NW-25-24-1-W5', '  ', '093F10', '', '04-11-082-04W6'] });
    expect(batch.statusCode).toBe(200);
    expect(batch.headers['x-billable-queries']).toBe('3');
    expect(await usageOf(id)).toEqual({ geocode: 3 });
    expect((await post('/geocode/batch', { queries: 'not an array' })).statusCode).toBe(400);
    expect(await usageOf(id)).toEqual({ geocode: 4 });
  });

  it('dev-origin traffic is counted apart, under dev', async () => {
    const app = await newApp();
    const { id, key } = await newKey();
    for (const headers of <Record<string, string>[]>[{ origin: 'http://localhost:5173' }, { referer: 'https://preview.app.pages.dev/map' }, { origin: 'https://maps.example.ca' }, {}, { origin: 'https://localhost.example.com' }]) {
      expect((await get(app, key, '/transit/agencies', headers)).statusCode).toBe(503);
    }
    expect(await usageOf(id)).toEqual({ 'dev:transit': 2, transit: 3 });
  });

  it('families: first path segment, from the one table', async () => {
    const { familyOf, unmetered, callsOf } = createMetering();
    expect(['/geocode/search', '/places/abc', '/transit/stops', '/coverage.json', '/incidents', '/closures', '/road-conditions', '/openapi.json', '/nope', '/', '/geocoder'].map(familyOf))
      .toEqual(['geocode', 'places', 'transit', 'transit', 'road-events', 'road-events', 'road-events', 'discovery', 'other', 'other', 'other']);
    expect(unmetered('GET', '/places/abc/feedback')).toBe(false);
    expect(unmetered('POST', '/places/abc/feedback')).toBe(true);
    expect(unmetered('POST', '/places//feedback')).toBe(false);
    expect(unmetered('GET', '/glyphs')).toBe(false);
    expect(unmetered('GET', '/glyphs/2/a/0-255.pbf')).toBe(true);
    expect(callsOf({ method: 'POST', path: '/geocode/batch', statusCode: 200, billableQueries: '0' })).toBe(0);
    expect(callsOf({ method: 'GET', path: '/x', statusCode: 403 })).toBe(0);

    const app = await newApp();
    const { id, key } = await newKey();
    for (const url of ['/incidents', '/closures', '/road-conditions', '/coverage.json', '/places/search?q=x', '/geocode/search?q=x']) await get(app, key, url);
    expect(await usageOf(id)).toEqual({ 'road-events': 3, transit: 1, places: 1, geocode: 1 });
  });

  it('the family of a percent-encoded path is that of the route the router decodes it to', async () => {
    expect(['/%6Fptimize', '/v1/projects/p%3AoptimizeTours', '/%69ncidents', '/geocode%2Fsearch', '/%zz'].map((u) => familyOf(pathOf(u))))
      .toEqual(['optimization', 'optimization', 'road-events', 'other', 'other']);
    const app = await newApp();
    const { id, key } = await newKey();
    await get(app, key, '/%69ncidents');
    await get(app, key, '/transit/%61gencies', { origin: 'http://localhost:5173' });
    expect(await usageOf(id)).toEqual({ 'road-events': 1, 'dev:transit': 1 });
  });

  it('counts each call on the UTC day of app.now(); months are sums of days', async () => {
    let now = Date.UTC(2026, 0, 31, 23, 59, 59, 999);
    const app = await newApp({ now: () => now });
    const { id, key, accountId } = await newKey({ accountId: 'acme-days', plan: 'indie' });
    await get(app, key);
    await get(app, key, '/test/ok', { origin: 'http://localhost' });
    now += 1;
    await get(app, key);
    await get(app, key, '/incidents');
    await flushAll();
    const jan = await monthUsage(pool, { accountId: accountId!, month: '2026-01' });
    expect(jan).toMatchObject({ from: '2026-01-01', to: '2026-01-31', totals: { billable: 1, dev: 1, premium: 0 } });
    expect(jan.rows).toEqual([{ day: '2026-01-31', family: 'other', calls: 1, devCalls: 1, premiumCalls: 0 }]);
    const feb = await monthUsage(pool, { keyId: id, month: '2026-02' });
    expect(feb.totals).toEqual({ billable: 2, dev: 0, premium: 0 });
    expect(feb.rows).toEqual([{ day: '2026-02-01', family: 'other', calls: 1, devCalls: 0, premiumCalls: 0 }, { day: '2026-02-01', family: 'road-events', calls: 1, devCalls: 0, premiumCalls: 0 }]);
    expect((await usageByDay(pool, { accountId: accountId!, from: '2026-01-31', to: '2026-02-01' })).totals).toEqual({ billable: 3, dev: 1, premium: 0 });
  });
});

describe('exactness', () => {
  it('2,000 concurrent requests over 20 keys and two app instances: usage equals the counted answers per key', async () => {
    const apps = [await newApp(), await newApp()];
    const keys = await Promise.all(Array.from({ length: 20 }, () => newKey()));
    const urls = ['/test/ok', '/test/empty', '/test/bad', '/no/such', '/glyphs/2/a/0-255.pbf'];
    const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => {
      const k = keys[i % 20]!;
      const url = urls[(i * 7) % urls.length]!;
      return get(apps[i % 2]!, i % 13 === 0 ? 'cmk_bad' : k.key, url).then((r) => ({ keyId: k.id, status: r.statusCode, url }));
    }));
    const expected = new Map<string, number>();
    for (const a of answers) {
      if (a.status === 401 || a.url.startsWith('/glyphs/')) continue;
      expected.set(a.keyId, (expected.get(a.keyId) ?? 0) + 1);
    }
    await flushAll();
    const { rows } = await pool.query<{ key_id: string; calls: number }>(
      'SELECT key_id, sum(calls)::int8 AS calls FROM usage_daily WHERE key_id = ANY($1) GROUP BY key_id', [keys.map((k) => k.id)]);
    expect(new Map(rows.map((r) => [r.key_id, r.calls]))).toEqual(expected);
    expect([...expected.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(1400);
    // Every journal file of the two apps is counted to its last byte.
    const dir = env.config.meterJournalDir;
    const files = await readdir(dir);
    const { rows: journals } = await pool.query<{ id: string; flushed_bytes: string }>('SELECT id, flushed_bytes FROM meter_journals WHERE id = ANY($1)', [files]);
    expect(journals.length).toBe(files.length);
    for (const j of journals) expect(Number(j.flushed_bytes)).toBe((await stat(path.join(dir, j.id))).size);
  });

  it('a journal counts once: flushed by three flushers at once and again after; a line still being written waits; malformed lines are skipped', async () => {
    const { id } = await newKey();
    const dir = path.join(env.config.releasesDir, 'journal-once');
    await mkdir(dir, { recursive: true });
    const name = `${hostTag()}~4194999~feedbeef~000000.meter`;
    const event = (calls: number, dev = false): MeterEvent => ({ day: '2026-03-10', keyId: id, accountId: null, family: 'geocode', dev, calls, premium: 0 });
    const line = encodeEvent(event(2));
    await writeFile(path.join(dir, name), `${line}${encodeEvent(event(1, true))}not\ta\tline\n${line.slice(0, 9)}`);
    const results = await Promise.all([1, 2, 3].map(() => flushJournalFile(pool, dir, name)));
    expect(results.map((r) => r.events).sort()).toEqual([0, 0, 2]);
    expect(results.reduce((n, r) => n + r.malformed, 0)).toBe(1);
    // Every complete line's bytes counted once (what the metrics' journal backlog subtracts).
    expect(results.reduce((n, r) => n + r.bytes, 0)).toBe(Buffer.byteLength(`${line}${encodeEvent(event(1, true))}not\ta\tline\n`));
    expect(await usageOf(id)).toEqual({ geocode: 2, 'dev:geocode': 1 });
    expect(await flushJournalFile(pool, dir, name)).toEqual({ events: 0, bytes: 0, malformed: 0, drained: true });
    await appendFile(path.join(dir, name), line.slice(9));
    expect((await flushJournalFile(pool, dir, name)).events).toBe(1);
    expect(await usageOf(id)).toEqual({ geocode: 4, 'dev:geocode': 1 });
    await rm(path.join(dir, name));
    expect(await flushJournalFile(pool, dir, name)).toEqual({ events: 0, bytes: 0, malformed: 0, drained: true });
  });

  it("a dead process's journal on this host is adopted, counted and deleted; another host's and a live process's are left alone", async () => {
    const { id } = await newKey();
    const dir = path.join(env.config.releasesDir, 'journal-adopt');
    await mkdir(dir, { recursive: true });
    const event: MeterEvent = { day: '2026-03-11', keyId: id, accountId: null, family: 'transit', dev: false, calls: 1, premium: 0 };
    const dead = `${hostTag()}~4194998~0badf00d~000003.meter`;
    const foreign = `elsewhere.example~4194998~0badf00d~000000.meter`;
    const live = `${hostTag()}~${process.ppid}~0badf00d~000000.meter`;
    for (const name of [dead, foreign, live]) await writeFile(path.join(dir, name), encodeEvent(event).repeat(5));
    const journal = createMeterJournal({ dir, pool, flushEveryMs: 60_000 });
    await journal.flush();
    expect(await usageOf(id)).toEqual({ transit: 5 });
    expect((await readdir(dir)).sort()).toEqual([foreign, live].sort());
    const { rows } = await pool.query('SELECT finished FROM meter_journals WHERE id = $1', [dead]);
    expect(rows).toEqual([{ finished: true }]);
    await journal.close();
  });
});

describe('when Postgres or the journal fails', () => {
  it('Postgres down: answers are not held, and are counted once Postgres is back', async () => {
    const relay = await postgresRelay();
    const meterPool = createPool(relay.url, 2);
    cleanups.push(() => meterPool.end());
    const journal = createMeterJournal({ dir: env.config.meterJournalDir, pool: meterPool, flushEveryMs: 50 });
    const app = await newApp({ meterJournal: journal });
    const { id, key } = await newKey();
    await relay.cut();
    // Answered while Postgres is still cut off: an answer held for the meter would never arrive before restore().
    const answers = await Promise.all([get(app, key), get(app, key, '/test/bad'), get(app, key, '/no/such')]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 400, 404]);
    await expect(journal.flush()).rejects.toThrow();
    expect(await countedUsageOf(id)).toEqual({});
    await relay.restore();
    await journal.flush();
    expect(await countedUsageOf(id)).toEqual({ other: 3 });
  });

  it('a journal that cannot be written: 503 service_unavailable, retryable, Retry-After 5, nothing counted; back when it can', async () => {
    const dir = path.join(env.config.releasesDir, 'journal-gone');
    const journal = createMeterJournal({ dir, pool, flushEveryMs: 60_000 });
    const app = await newApp({ meterJournal: journal });
    const { id, key } = await newKey();
    await rm(dir, { recursive: true });
    const answers = await Promise.all([get(app, key), get(app, key, '/test/bad'), get(app, key, '/no/such')]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.json()).toEqual({ error: 'usage metering temporarily unavailable', code: 'service_unavailable', retryable: true });
    }
    await mkdir(dir);
    expect((await get(app, key)).statusCode).toBe(200);
    expect(await usageOf(id)).toEqual({ other: 1 });
  });

  it('app.close() counts what the journal holds, and deletes its files', async () => {
    const dir = path.join(env.config.releasesDir, 'journal-close');
    const app = await newApp({ meterJournal: createMeterJournal({ dir, pool, flushEveryMs: 60_000 }) });
    const { id, key } = await newKey();
    // /incidents answers 503 here (no road-event snapshot yet): still a call.
    const answers = await Promise.all([get(app, key), get(app, key, '/incidents')]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 503]);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM usage_daily WHERE key_id = $1', [id]);
    expect(rows[0].n).toBe(0);
    expect(await readdir(dir)).toHaveLength(1);
    await app.close();
    expect(await usageOf(id)).toEqual({ other: 1, 'road-events': 1 });
    expect(await readdir(dir)).toEqual([]);
  });
});

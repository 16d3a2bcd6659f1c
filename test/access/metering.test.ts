import { tcpRelay } from '../support/tcp-relay.ts';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AppDeps } from '../../api/app.ts';
import { errors } from '../../api/errors.ts';
import { commitBatch, createMeterWriter, revokeBatch, type SealedBatch } from '../../engines/access/meter-writer.ts';
import { aggregate, createMetering } from '../../engines/access/metering.ts';
import { monthUsage, usageByDay } from '../../engines/access/usage.ts';
import { createKey } from '../../lib/keys.ts';
import { createPool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: pg.Pool;
const cleanups: (() => Promise<unknown>)[] = [];

async function newApp(deps: Partial<AppDeps> = {}): Promise<FastifyInstance> {
  const config = deps.config ?? env.config;
  const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 60_000 });
  const app = await buildApp({ config, pool, releases, logger: false, ...deps });
  app.get('/test/ok', async () => ({ ok: true }));
  app.get('/test/empty', async (_request, reply) => reply.code(204).send());
  app.get('/test/bad', async () => { throw errors.badRequest('x must be a number'); });
  cleanups.push(() => app.close());
  return app;
}

const newKey = async (input: Parameters<typeof createKey>[1] = {}) => createKey(pool, input);
const get = (app: FastifyInstance, key: string, url = '/test/ok', headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { authorization: `Bearer ${key}`, ...headers } });

/** usage_daily rows of one key, as `[dev:]family` → calls. */
async function usageOf(keyId: string): Promise<Record<string, number>> {
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
    expect((await get(app, key, '/fonts/Noto%20Sans/0-255.pbf')).statusCode).toBe(404);
    expect((await get(app, key, '/sprites/basic.json')).statusCode).toBe(404);
    expect(await usageOf(id)).toEqual({});
    // layers=well answers [] per query without a release: founder keys pass the energy check.
    const batch = await post('/geocode/batch', { queries: ['main st', '  ', 'ottawa', '', 'toronto'], layers: 'well' });
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
    expect(unmetered('GET', '/fonts')).toBe(false);
    expect(unmetered('GET', '/fonts/a/0-255.pbf')).toBe(true);
    expect(callsOf({ method: 'POST', path: '/geocode/batch', statusCode: 200, billableQueries: '0' })).toBe(0);
    expect(callsOf({ method: 'GET', path: '/x', statusCode: 403 })).toBe(0);

    const app = await newApp();
    const { id, key } = await newKey();
    for (const url of ['/incidents', '/closures', '/road-conditions', '/coverage.json', '/places/search?q=x', '/geocode/search?q=x']) await get(app, key, url);
    expect(await usageOf(id)).toEqual({ 'road-events': 3, transit: 1, places: 1, geocode: 1 });
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
    const jan = await monthUsage(pool, { accountId: accountId!, month: '2026-01' });
    expect(jan).toMatchObject({ from: '2026-01-01', to: '2026-01-31', totals: { billable: 1, dev: 1 } });
    expect(jan.rows).toEqual([{ day: '2026-01-31', family: 'other', calls: 1, devCalls: 1 }]);
    const feb = await monthUsage(pool, { keyId: id, month: '2026-02' });
    expect(feb.totals).toEqual({ billable: 2, dev: 0 });
    expect(feb.rows).toEqual([{ day: '2026-02-01', family: 'other', calls: 1, devCalls: 0 }, { day: '2026-02-01', family: 'road-events', calls: 1, devCalls: 0 }]);
    expect((await usageByDay(pool, { accountId: accountId!, from: '2026-01-31', to: '2026-02-01' })).totals).toEqual({ billable: 3, dev: 1 });
  });
});

describe('exactness', () => {
  it('2,000 concurrent requests over 20 keys and two app instances: usage equals the counted answers per key', async () => {
    const apps = [await newApp(), await newApp()];
    const keys = await Promise.all(Array.from({ length: 20 }, () => newKey()));
    const urls = ['/test/ok', '/test/empty', '/test/bad', '/no/such', '/fonts/a/0-255.pbf'];
    const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => {
      const k = keys[i % 20]!;
      const url = urls[(i * 7) % urls.length]!;
      return get(apps[i % 2]!, i % 13 === 0 ? 'cmk_bad' : k.key, url).then((r) => ({ keyId: k.id, status: r.statusCode, url }));
    }));
    const expected = new Map<string, number>();
    for (const a of answers) {
      if (a.status === 401 || a.url.startsWith('/fonts/')) continue;
      expected.set(a.keyId, (expected.get(a.keyId) ?? 0) + 1);
    }
    const { rows } = await pool.query<{ key_id: string; calls: number }>(
      'SELECT key_id, sum(calls)::int8 AS calls FROM usage_daily WHERE key_id = ANY($1) GROUP BY key_id', [keys.map((k) => k.id)]);
    expect(new Map(rows.map((r) => [r.key_id, r.calls]))).toEqual(expected);
    expect([...expected.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(1400);
    const batches = await pool.query<{ n: number; events: number }>('SELECT count(*)::int AS n, sum(events)::int AS events FROM meter_batches');
    expect(batches.rows[0]!.n).toBeLessThan(200);
  });

  it('a batch committed twice under one id (its first acknowledgement lost) counts once; a revoked batch never counts', async () => {
    const { id } = await newKey();
    const day = '2026-03-10';
    const batch: SealedBatch = { id: 'batch-retry-1', events: 3, rows: aggregate([
      { day, keyId: id, accountId: null, family: 'geocode', dev: false, calls: 2 },
      { day, keyId: id, accountId: null, family: 'geocode', dev: true, calls: 1 },
    ]) };
    expect(await commitBatch(pool, batch)).toBe('committed');
    expect(await commitBatch(pool, batch)).toBe('duplicate');
    expect(await usageOf(id)).toEqual({ geocode: 2, 'dev:geocode': 1 });
    await revokeBatch(pool, batch);
    await revokeBatch(pool, batch);
    expect(await usageOf(id)).toEqual({ geocode: 0, 'dev:geocode': 0 });
    const never: SealedBatch = { ...batch, id: 'batch-revoked-first' };
    await revokeBatch(pool, never);
    expect(await commitBatch(pool, never)).toBe('duplicate');
    expect(await usageOf(id)).toEqual({ geocode: 0, 'dev:geocode': 0 });
  });
});

describe('when Postgres does not answer', () => {
  it('holds answers until their batch commits once Postgres is back', async () => {
    const relay = await postgresRelay();
    const meterPool = createPool(relay.url);
    cleanups.push(() => meterPool.end());
    const app = await newApp({ meterWriter: createMeterWriter({ pool: meterPool, holdMs: 10_000 }) });
    const { id, key } = await newKey();
    await relay.cut();
    const started = performance.now();
    const pending = get(app, key);
    setTimeout(() => void relay.restore(), 600);
    const answer = await pending;
    expect(answer.statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThan(500);
    expect(await usageOf(id)).toEqual({ other: 1 });
  });

  it('past the bound: 503 service_unavailable, retryable, Retry-After 5, and nothing counted', async () => {
    const relay = await postgresRelay();
    const meterPool = createPool(relay.url);
    cleanups.push(() => meterPool.end());
    const writer = createMeterWriter({ pool: meterPool, holdMs: 400 });
    const app = await newApp({ meterWriter: writer });
    const { id, key } = await newKey();
    await relay.cut();
    const started = performance.now();
    const answers = await Promise.all([get(app, key), get(app, key, '/test/bad'), get(app, key, '/no/such')]);
    expect(performance.now() - started).toBeGreaterThan(300);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.json()).toEqual({ error: 'usage metering temporarily unavailable', code: 'service_unavailable', retryable: true });
    }
    await relay.restore();
    await writer.close();
    expect(await usageOf(id)).toEqual({});
    expect((await get(app, key)).statusCode).toBe(200);
    expect(await usageOf(id)).toEqual({ other: 1 });
  });

  it('app.close() commits the events still waiting for their batch', async () => {
    const writer = createMeterWriter({ pool, holdMs: 10_000, flushEveryMs: 60_000, eagerInFlight: 0 });
    const app = await newApp({ meterWriter: writer });
    const { id, key } = await newKey();
    const pending = Promise.all([get(app, key), get(app, key, '/incidents')]);
    // /incidents answers 503 here (no road-event snapshot yet): still a call.
    await new Promise((r) => setTimeout(r, 100));
    expect(await usageOf(id)).toEqual({});
    await app.close();
    const answers = await pending;
    expect(answers.map((a) => a.statusCode), answers[1]!.body).toEqual([200, 503]);
    expect(await usageOf(id)).toEqual({ other: 1, 'road-events': 1 });
  });
});

import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { paymentFailed, paymentOk, setSpendCap } from '../../io/access/accounts.ts';
import { utcMonth } from '../../lib/utc-calendar.ts';
import { runEnforcement } from '../../io/access/enforcement-run.ts';
import { enforcementJob } from '../../jobs/schedules/enforcement.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import type { Plan } from '../../schemas/plans.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

const DASHBOARD = 'https://dash.canmap.test';
const QUOTA = { error: `monthly quota exceeded: raise your spend cap or upgrade at ${DASHBOARD}/billing`, code: 'quota_exceeded' };
const SPEND_CAP = { error: `spend cap reached: raise it at ${DASHBOARD}/billing`, code: 'spend_cap' };
const BILLING = { error: `payment failed: update your payment method at ${DASHBOARD}/billing`, code: 'billing_required' };
const TTL_MS = 1000;
const LIMIT = 3;

let env: TestEnv;
let pool: pg.Pool;
let redis: Redis;
const apps: FastifyInstance[] = [];

async function newApp(rateLimitPerMinute = LIMIT): Promise<FastifyInstance> {
  const config = { ...env.config, keyCacheTtlMs: TTL_MS, rateLimitPerMinute };
  const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 60_000 });
  const app = await buildApp({ config, pool, releases, redis, logger: false });
  app.get('/test/ok', async () => ({ ok: true }));
  apps.push(app);
  return app;
}

const get = (app: FastifyInstance, key: string) => app.inject({ url: '/test/ok', headers: { authorization: `Bearer ${key}` } });
const expire = () => new Promise((r) => setTimeout(r, TTL_MS + 100));

async function account(id: string, plan: Plan): Promise<{ keyId: string; key: string }> {
  const created = await createKey(pool, { accountId: id, plan });
  return { keyId: created.id, key: created.key };
}

async function addUsage(keyId: string, accountId: string, calls: number, dev = false, day = new Date()): Promise<void> {
  await pool.query(
    `INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls) VALUES ($1::date, $2, $3, 'maps', $4, $5)
     ON CONFLICT (day, key_id, family, dev) DO UPDATE SET calls = usage_daily.calls + EXCLUDED.calls`,
    [day.toISOString().slice(0, 10), keyId, accountId, dev, calls],
  );
}

const billable = async (keyId: string) =>
  Number((await pool.query<{ n: string }>('SELECT coalesce(sum(calls), 0) AS n FROM usage_daily WHERE key_id = $1 AND NOT dev', [keyId])).rows[0]!.n);

const nextMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 2));
};

beforeAll(async () => {
  env = await createTestEnv('blocked', { DASHBOARD_URL: `${DASHBOARD}/` });
  pool = createPool(env.config.databaseUrl, 4);
  redis = createApiRedis(env.config.redisUrl);
  expect(await redisReady(redis, 5000)).toBe(true);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  redis?.disconnect();
  await pool?.end();
  await env?.cleanup();
});

describe('the blocked check (volume 1 codes, volume 3 states)', () => {
  it('quota_exceeded: 429 with Retry-After 3600, the verbatim message, before the rate limiter; lifted at rollover once the cache expires', async () => {
    const { keyId, key } = await account('hobby-at-quota', 'hobby');
    await addUsage(keyId, 'hobby-at-quota', 9_999);
    await addUsage(keyId, 'hobby-at-quota', 50_000, true);
    const app = await newApp();
    await runEnforcement(pool);
    expect((await get(app, key)).statusCode).toBe(200);
    await app.meterJournal!.flush();

    await addUsage(keyId, 'hobby-at-quota', 10_000 - (await billable(keyId)));
    const logs: string[] = [];
    const job = enforcementJob(() => new Date());
    const summary = await job.run({ config: env.config, pool, log: (_level, line) => logs.push(line), signal: new AbortController().signal });
    expect(summary).toMatch(/^\d+ accounts, 1 changed$/);
    expect(logs).toEqual([`account hobby-at-quota: active -> quota_exceeded (plan dev, 10000 billable calls in ${utcMonth(new Date())})`]);

    await expire();
    // Far more requests than the rate limit allows: every one is quota_exceeded, none rate_limited.
    for (let i = 0; i < LIMIT + 3; i++) {
      const res = await get(app, key);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(QUOTA);
      expect(res.headers['retry-after']).toBe('3600');
    }
    // A URL the router cannot take goes through the same door.
    const unroutable = await app.inject({ url: '/places/%E0%A4%A', headers: { authorization: `Bearer ${key}` } });
    expect([unroutable.statusCode, unroutable.json()]).toEqual([429, QUOTA]);

    expect(await billable(keyId)).toBe(10_000); // refused at the door: not metered

    const lifted = await enforcementJob(nextMonth).run({ config: env.config, pool, log: () => {}, signal: new AbortController().signal });
    expect(lifted).toMatch(/1 changed$/);
    expect((await get(app, key)).json()).toEqual(QUOTA); // the cached record holds until the TTL
    await expire();
    // The blocked requests took no rate-limit slot: all but the first request's are left.
    for (let i = 0; i < LIMIT - 1; i++) expect((await get(app, key)).statusCode).toBe(200);
    expect((await get(app, key)).json()).toMatchObject({ code: 'rate_limited' });
  });

  it('spend_cap: a paid key at its included volume with cap 0; raising the cap lifts it after the next run', async () => {
    const { keyId, key } = await account('indie-capped', 'indie');
    await addUsage(keyId, 'indie-capped', 252_000);
    const { changes } = await runEnforcement(pool);
    expect(changes).toContainEqual(expect.objectContaining({ accountId: 'indie-capped', from: null, to: 'spend_cap' }));
    const app = await newApp();
    const res = await get(app, key);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual(SPEND_CAP);
    expect(res.headers['retry-after']).toBe('3600');

    await setSpendCap(pool, 'indie-capped', 2); // overage 2.00 reaches a cap of 2.00: still blocked
    expect((await runEnforcement(pool)).changes.filter((c) => c.accountId === 'indie-capped')).toEqual([]);
    await setSpendCap(pool, 'indie-capped', 2.01);
    expect((await runEnforcement(pool)).changes).toContainEqual(expect.objectContaining({ accountId: 'indie-capped', from: 'spend_cap', to: null }));
    await expire();
    expect((await get(app, key)).statusCode).toBe(200);
  });

  it('billing_required: 429 without Retry-After at once on payment failure, lifted by payment ok', async () => {
    const { key } = await account('growth-unpaid', 'growth');
    const app = await newApp();
    expect((await get(app, key)).statusCode).toBe(200);
    expect(await paymentFailed(pool, 'growth-unpaid', new Date())).toEqual([expect.objectContaining({ to: 'billing_required' })]);
    // A key created on a blocked account shares its block (enforcement is per account).
    const { key: second } = await account('growth-unpaid', 'growth');
    await expire();
    for (const k of [key, second]) {
      const res = await get(app, k);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(BILLING);
      expect(res.headers['retry-after']).toBeUndefined();
    }
    // Waiting does not clear it: a run (even next month) keeps it.
    expect((await runEnforcement(pool, { now: nextMonth() })).changes.filter((c) => c.accountId === 'growth-unpaid')).toEqual([]);
    expect(await paymentOk(pool, 'growth-unpaid', new Date())).toEqual([expect.objectContaining({ from: 'billing_required', to: null })]);
    await expire();
    expect((await get(app, key)).statusCode).toBe(200);
  });

  it('dev-origin traffic passes quota_exceeded and spend_cap blocks (counted under dev:, never billed); billing_required and optimization stop it', async () => {
    const hobby = await account('hobby-dev-traffic', 'hobby');
    await addUsage(hobby.keyId, 'hobby-dev-traffic', 10_000);
    const indie = await account('indie-dev-traffic', 'indie');
    await addUsage(indie.keyId, 'indie-dev-traffic', 250_000);
    const growth = await account('growth-dev-traffic', 'growth');
    await paymentFailed(pool, 'growth-dev-traffic', new Date());
    await runEnforcement(pool);
    const app = await newApp(1000); // dev-origin requests pass the block, then take rate-limit slots
    const send = (key: string, url: string, headers: Record<string, string>) =>
      app.inject({ url, headers: { authorization: `Bearer ${key}`, ...headers } });
    const dev: Record<string, string>[] = [{ origin: 'http://localhost:5173' }, { referer: 'https://preview.app.pages.dev/map' }, { origin: 'http://127.0.0.1:8080' }];
    const production: Record<string, string>[] = [{}, { origin: 'https://maps.example.ca' }, { origin: 'https://localhost.example.com' }];

    for (const [key, blocked] of [[hobby.key, QUOTA], [indie.key, SPEND_CAP]] as const) {
      for (const headers of dev) {
        expect((await send(key, '/test/ok', headers)).statusCode).toBe(200);
        // No transit release here: the answer is the route's own 503, not the block.
        expect((await send(key, '/transit/agencies', headers)).statusCode).toBe(503);
      }
      expect((await send(key, '/places/%E0%A4%A', dev[0]!)).statusCode).toBe(404);
      for (const headers of production) expect((await send(key, '/transit/agencies', headers)).json()).toEqual(blocked);
      // Optimization bills dev-origin requests like any other (volume 3, Billing 4): still blocked.
      const solve = await app.inject({ method: 'POST', url: '/optimize', payload: {}, headers: { authorization: `Bearer ${key}`, ...dev[0] } });
      expect([solve.statusCode, solve.json().code]).toEqual([429, blocked.code]);
    }
    await app.meterJournal!.flush();
    const { rows } = await pool.query<{ family: string; dev: boolean; calls: string }>(
      'SELECT family, dev, sum(calls) AS calls FROM usage_daily WHERE key_id = $1 AND family <> $2 GROUP BY family, dev ORDER BY family', [hobby.keyId, 'maps']);
    expect(rows.map((r) => [r.family, r.dev, Number(r.calls)])).toEqual([['other', true, 3], ['places', true, 1], ['transit', true, 3]]);
    expect(await billable(hobby.keyId)).toBe(10_000);

    // A failed payment is not a question of volume: it stops every request of the account's keys.
    for (const headers of [...dev, ...production]) expect((await send(growth.key, '/test/ok', headers)).json()).toEqual(BILLING);
  });

  it('keys without an account are never blocked; public routes are not checked', async () => {
    const founder = (await createKey(pool, {})).key;
    await runEnforcement(pool);
    const app = await newApp();
    expect((await get(app, founder)).statusCode).toBe(200);
    expect((await app.inject({ url: '/.well-known/oauth-protected-resource' })).statusCode).toBe(200);
  });
});

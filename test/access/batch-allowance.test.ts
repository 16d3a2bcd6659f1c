import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { setSpendCap } from '../../io/access/accounts.ts';
import { allowanceOf } from '../../engines/access/allowance-rule.ts';
import { nextBlock } from '../../engines/access/enforcement.ts';
import { runEnforcement } from '../../io/access/enforcement-run.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { PLAN_VOLUME, PLANS, type Plan } from '../../schemas/plans.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

/**
 * POST /geocode/batch against the remaining allowance (volume 2: 429 when it is below the
 * non-blank count, the whole request refused). Land descriptions answer without any release,
 * so the accounts carry the legal-land add-on.
 */

const DASHBOARD = 'https://dash.canmap.test';
const QUOTA = { error: `monthly quota exceeded: raise your spend cap or upgrade at ${DASHBOARD}/billing`, code: 'quota_exceeded' };
const SPEND_CAP = { error: `spend cap reached: raise it at ${DASHBOARD}/billing`, code: 'spend_cap' };
const LAND = ['NW-25-24-1-W5', '093F10', '04-11-082-04W6'];

let env: TestEnv;
let pool: pg.Pool;
let app: FastifyInstance;

/** `n` non-blank land descriptions with two blank entries among them (never billed). */
const queries = (n: number) => ['  ', ...Array.from({ length: n }, (_, i) => LAND[i % LAND.length]!), ''];

const batch = (key: string, n: number, headers: Record<string, string> = {}) => app.inject({
  method: 'POST', url: '/geocode/batch', payload: { queries: queries(n) }, headers: { authorization: `Bearer ${key}`, ...headers },
});

async function account(id: string, plan: Plan): Promise<{ keyId: string; key: string }> {
  const created = await createKey(pool, { accountId: id, plan, addons: ['legal-land'] });
  return { keyId: created.id, key: created.key };
}

async function addUsage(keyId: string, accountId: string, calls: number, options: { dev?: boolean; day?: string } = {}): Promise<void> {
  await pool.query(
    `INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls) VALUES ($1::date, $2, $3, 'maps', $4, $5)
     ON CONFLICT (day, key_id, family, dev) DO UPDATE SET calls = usage_daily.calls + EXCLUDED.calls`,
    [options.day ?? new Date().toISOString().slice(0, 10), keyId, accountId, options.dev ?? false, calls],
  );
}

/** This month's calls of a key as `{billable, dev}`, once the app's journal is counted. */
async function usageOf(keyId: string): Promise<{ billable: number; dev: number }> {
  await app.meterJournal!.flush();
  const { rows } = await pool.query<{ billable: string; dev: string }>(
    `SELECT coalesce(sum(calls) FILTER (WHERE NOT dev), 0) AS billable, coalesce(sum(calls) FILTER (WHERE dev), 0) AS dev
       FROM usage_daily WHERE key_id = $1 AND day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date`,
    [keyId],
  );
  return { billable: Number(rows[0]!.billable), dev: Number(rows[0]!.dev) };
}

const blockOf = async (accountId: string) =>
  (await pool.query<{ state: string }>('SELECT state FROM account_blocks WHERE account_id = $1', [accountId])).rows[0]?.state ?? null;

beforeAll(async () => {
  env = await createTestEnv('batch_allowance', { DASHBOARD_URL: `${DASHBOARD}/` });
  pool = createPool(env.config.databaseUrl, 4);
  const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
  app = await buildApp({ config: env.config, pool, releases, logger: false });
});

afterAll(async () => {
  await app?.close();
  await pool?.end();
  await env?.cleanup();
});

describe('POST /geocode/batch and the remaining allowance', () => {
  it('a dev-plan account 2 calls short of 10,000 is refused a batch of 5 whole: 429 quota_exceeded, nothing metered', async () => {
    const { keyId, key } = await account('hobby-short', 'hobby');
    await addUsage(keyId, 'hobby-short', 9_998);
    await addUsage(keyId, 'hobby-short', 40_000, { dev: true }); // dev-origin calls are ignored by the quota
    await addUsage(keyId, 'hobby-short', 10_000, { day: '2020-01-15' }); // so are other months'

    const refused = await batch(key, 5);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(QUOTA);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(refused.headers['x-billable-queries']).toBeUndefined();
    expect(await usageOf(keyId)).toEqual({ billable: 9_998, dev: 40_000 });

    // Exactly the remaining allowance fits; blank entries are not counted against it.
    const fits = await batch(key, 2);
    expect(fits.statusCode).toBe(200);
    expect(fits.headers['x-billable-queries']).toBe('2');
    expect(fits.json()).toHaveLength(4);
    expect(await usageOf(keyId)).toEqual({ billable: 10_000, dev: 40_000 });

    // Nothing remains: refused before the enforcement job has blocked the key, which it then does.
    expect((await batch(key, 1)).json()).toEqual(QUOTA);
    await runEnforcement(pool);
    expect(await blockOf('hobby-short')).toBe('quota_exceeded');
  });

  it('dev-origin batches are never billed, so the allowance never refuses them', async () => {
    const { keyId, key } = await account('hobby-dev', 'hobby');
    await addUsage(keyId, 'hobby-dev', 9_998);
    for (const headers of <Record<string, string>[]>[{ origin: 'http://localhost:5173' }, { referer: 'https://preview.app.pages.dev/map' }]) {
      const res = await batch(key, 5, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-billable-queries']).toBe('5');
    }
    expect(await usageOf(keyId)).toEqual({ billable: 9_998, dev: 10 });
    // A production origin (a dev hostname only as a prefix) is billed traffic.
    expect((await batch(key, 5, { origin: 'https://localhost.example.com' })).json()).toEqual(QUOTA);
  });

  it('paid plans: spend_cap when the batch would take the overage past the cap; cap 0 stops at the included volume', async () => {
    // indie: 1.00 per 1,000 calls, so a cap of 0.01 buys 10 calls over the included 250,000.
    const indie = await account('indie-capped', 'indie');
    await setSpendCap(pool, 'indie-capped', 0.01);
    await addUsage(indie.keyId, 'indie-capped', 250_005);
    const refused = await batch(indie.key, 6);
    expect([refused.statusCode, refused.json(), refused.headers['retry-after']]).toEqual([429, SPEND_CAP, '3600']);
    expect((await batch(indie.key, 5)).statusCode).toBe(200);
    expect(await usageOf(indie.keyId)).toEqual({ billable: 250_010, dev: 0 });
    await runEnforcement(pool);
    expect(await blockOf('indie-capped')).toBe('spend_cap');

    const growth = await account('growth-cap-0', 'growth');
    await addUsage(growth.keyId, 'growth-cap-0', 1_999_998);
    expect((await batch(growth.key, 3)).json()).toEqual(SPEND_CAP);
    expect((await batch(growth.key, 2)).statusCode).toBe(200);
  });

  it('keys without an account are unlimited', async () => {
    const founder = await createKey(pool, {});
    await addUsage(founder.id, 'nobody', 5_000_000);
    expect((await batch(founder.key, 5)).statusCode).toBe(200);
  });
});

describe('one allowance for the batch check and the enforcement job', () => {
  it('an account is blocked exactly when its allowance is used up, whatever the plan and cap', () => {
    const now = new Date();
    for (const plan of PLANS) {
      // Caps whose overage price does not divide evenly (growth 0.75 per 1,000) included.
      for (const spendCap of [0, 0.01, 0.75, 1, 2.5]) {
        const included = PLAN_VOLUME[plan].includedCalls;
        for (let billable = included - 10; billable <= included + 3_400; billable += 1) {
          const blocked = nextBlock({ plan, calls: { billable, dev: 0 }, spendCap, paymentFailed: false, block: null }, now) !== null;
          const room = allowanceOf({ plan, spendCap, billable }).room;
          if (blocked !== (room === 0)) throw new Error(`${plan} cap ${spendCap} at ${billable}: blocked ${blocked}, room ${room}`);
        }
      }
    }
    // growth with a cap of 1.00 buys 1,333 calls (99.975 of its 100 cents); the next would pass the cap.
    expect(allowanceOf({ plan: 'growth', spendCap: 1, billable: 2_001_332 }).room).toBe(1);
    expect(nextBlock({ plan: 'growth', calls: { billable: 2_001_333, dev: 0 }, spendCap: 1, paymentFailed: false, block: null }, now)?.state).toBe('spend_cap');
  });
});

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: pg.Pool;
const canmap = (...args: string[]) => runCanmap(args, env.env);
const json = async (...args: string[]) => {
  const run = await canmap(...args, '--json');
  return { code: run.code, body: JSON.parse(run.stdout) as Record<string, unknown> };
};
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  env = await createTestEnv('accounts_cli');
  pool = createPool(env.config.databaseUrl, 2);
});

afterAll(async () => {
  await pool?.end();
  await env?.cleanup();
});

describe('canmap accounts', () => {
  it('creates an account, changes plan, cap and add-ons, and shows them with keys, block and usage', async () => {
    expect(await json('accounts', 'create', '--plan', 'indie', '--id', 'acme')).toEqual({
      code: 0,
      body: { id: 'acme', plan: 'indie', addons: [], spendCap: 0, paymentFailedAt: null, block: null, keys: [] },
    });
    expect((await canmap('accounts', 'create', '--id', 'acme')).code).toBe(1);
    const key = await createKey(pool, { accountId: 'acme' });
    await pool.query(
      `INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls) VALUES ($1::date, $2, 'acme', 'maps', false, 251500), ($1::date, $2, 'acme', 'maps', true, 7)`,
      [today(), key.id],
    );

    expect(await json('accounts', 'set-spend-cap', 'acme', '12.50')).toEqual({ code: 0, body: { id: 'acme', spendCap: 12.5 } });
    expect(await json('accounts', 'set-plan', 'acme', 'growth')).toEqual({ code: 0, body: { id: 'acme', plan: 'growth' } });
    expect(await json('accounts', 'set-plan', 'acme', 'indie')).toEqual({ code: 0, body: { id: 'acme', plan: 'indie' } });
    expect(await json('accounts', 'addons', 'acme', '--add', 'energy,mining', '--remove', 'mining')).toEqual({ code: 0, body: { id: 'acme', addons: ['energy'] } });

    const shown = await json('accounts', 'show', 'acme');
    expect(shown.code).toBe(0);
    expect(shown.body).toMatchObject({
      id: 'acme', plan: 'indie', addons: ['energy'], spendCap: 12.5, block: null,
      keys: [{ id: key.id, disabled: null }],
      usage: { month: today().slice(0, 7), billable: 251_500, dev: 7, includedCalls: 250_000, overage: 1.5 },
    });
    const human = await canmap('accounts', 'show', 'acme');
    expect(human.stdout).toContain('spend cap    12.50');
    expect(human.stdout).toContain('251500 billable of 250000 included, 7 dev, 0 premium; overage 1.50');
  });

  it('enforce --once applies the rules; payment-failed blocks at once and payment-ok lifts it', async () => {
    await json('accounts', 'create', '--plan', 'indie', '--id', 'tight');
    const key = await createKey(pool, { accountId: 'tight' });
    await pool.query(`INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls) VALUES ($1::date, $2, 'tight', 'maps', false, 250000)`, [today(), key.id]);
    const run = await json('accounts', 'enforce', '--once');
    expect(run.code).toBe(0);
    expect(run.body.changes).toEqual([{ account: 'tight', from: null, to: 'spend_cap', billableCalls: 250_000, premiumCalls: 0, month: today().slice(0, 7) }]);
    expect((await json('accounts', 'show', 'tight')).body.block).toMatchObject({ state: 'spend_cap' });

    expect((await json('accounts', 'payment-failed', 'tight')).body).toMatchObject({ payment: 'failed', changes: [{ from: 'spend_cap', to: 'billing_required' }] });
    expect((await json('accounts', 'enforce', '--once')).body.changes).toEqual([]);
    // Payment ok lifts billing_required; the volume is still used up at cap 0, so spend_cap again.
    expect((await json('accounts', 'payment-ok', 'tight')).body).toMatchObject({ payment: 'ok', changes: [{ from: 'billing_required', to: 'spend_cap' }] });
    expect((await canmap('accounts', 'enforce')).code).toBe(2);
  });

  it('exit codes: 1 for an unknown account or a payment failure on the dev plan, 2 for bad input', async () => {
    await json('accounts', 'create', '--id', 'hobbyist');
    const unknown = await canmap('accounts', 'show', 'nobody', '--json');
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: 'no account with id nobody (see canmap keys list)' });
    expect((await canmap('accounts', 'set-plan', 'nobody', 'growth')).code).toBe(1);
    expect((await canmap('accounts', 'payment-failed', 'hobbyist')).code).toBe(1);
    expect((await canmap('accounts', 'set-plan', 'hobbyist', 'platinum')).code).toBe(2);
    expect((await canmap('accounts', 'set-spend-cap', 'hobbyist', '-5')).code).toBe(2);
    expect((await canmap('accounts', 'addons', 'hobbyist', '--add', 'gold')).code).toBe(2);
    expect((await canmap('accounts', 'addons', 'hobbyist')).code).toBe(2);
    expect((await canmap('accounts', 'frobnicate')).code).toBe(2);
  });
});

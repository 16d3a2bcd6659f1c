import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { CAPABILITY_RULES, capabilityRefusal, requiredCapabilities } from '../../engines/access/capability-rules.ts';
import { isDevOrigin } from '../../lib/dev-origins.ts';
import { runEnforcement } from '../../io/access/enforcement-run.ts';
import { type KeyRecord } from '../../lib/keys.ts';
import { createKey, type CreateKeyInput } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

describe('dev origins (volume 1, rule 6)', () => {
  it.each([
    'http://localhost:3000', 'https://localhost', 'http://127.0.0.1:8080', 'http://[::1]:5173', 'http://app.localhost',
    'https://my-site.pages.dev', 'https://preview.my-site.pages.dev', 'https://worker.acct.workers.dev',
  ])('%s is a dev origin', (origin) => expect(isDevOrigin(origin)).toBe(true));
  it.each([
    'https://example.com', 'https://localhost.example.com', 'https://pages.dev.example.com', 'https://notpages.dev',
    'https://workers.dev', 'https://pages.dev', 'http://127.0.0.2', 'https://evil-localhost', 'null', 'not a url',
  ])('%s is not', (origin) => expect(isDevOrigin(origin)).toBe(false));
  it('no Origin and no Referer is non-dev traffic', () => expect(isDevOrigin(null)).toBe(false));
});

describe('the capability table', () => {
  it('reads the parameter where the rule says, as a comma list or an array, case-insensitively', () => {
    const get = (query: unknown) => requiredCapabilities('GET', '/geocode/search', { query, body: undefined }).map((r) => r.capability);
    expect(get({ layers: 'Well' })).toEqual(['energy']);
    expect(get({ layers: 'address, facility' })).toEqual(['energy']);
    expect(get({ layers: 'address,poi' })).toEqual([]);
    expect(get({ q: 'well' })).toEqual([]);
    expect(get(undefined)).toEqual([]);
    const post = (body: unknown) => requiredCapabilities('POST', '/geocode/batch', { query: {}, body }).map((r) => r.capability);
    expect(post({ queries: ['x'], layers: ['poi', 'WELL'] })).toEqual(['energy']);
    expect(post({ queries: ['x'], layers: 'facility' })).toEqual(['energy']);
    expect(post({ queries: ['well'] })).toEqual([]);
    // Only the routes the table names: the same parameter elsewhere needs nothing.
    expect(requiredCapabilities('GET', '/geocode/autocomplete', { query: { layers: 'well' }, body: undefined })).toEqual([]);
    expect(requiredCapabilities('GET', '/geocode/batch', { query: { layers: 'well' }, body: { layers: 'well' } })).toEqual([]);
  });

  it('routes free text by its grammar: land descriptions, UWIs and PIDs need their add-ons; structured search never', () => {
    const get = (route: string, query: unknown) => requiredCapabilities('GET', route, { query, body: undefined }).map((r) => r.capability);
    expect(get('/geocode/search', { q: 'NW-25-24-1-W5' })).toEqual(['legalLand']);
    expect(get('/geocode/search', { q: ' 093F10 ' })).toEqual(['legalLand']);
    expect(get('/geocode/search', { q: '100/06-32-048-07W5/00' })).toEqual(['energy']);
    expect(get('/geocode/search', { q: '100/06-32-048-07W5/00', layers: 'well' })).toEqual(['energy', 'energy']);
    expect(get('/geocode/search', { q: '012-345-678' })).toEqual(['agriculture']);
    expect(get('/geocode/search', { q: '123 Main St' })).toEqual([]);
    expect(get('/geocode/autocomplete', { q: 'SW 1/4 11-82-4 W6M' })).toEqual(['legalLand']);
    expect(get('/geocode/structured', { address: 'NW-25-24-1-W5' })).toEqual([]);
    expect(get('/geocode/reverse', { layers: 'LEGAL_LAND' })).toEqual(['legalLand']);
    expect(get('/geocode/reverse', {})).toEqual([]);
    const post = (body: unknown) => requiredCapabilities('POST', '/geocode/batch', { query: {}, body }).map((r) => r.capability);
    expect(post({ queries: ['Calgary', 'PID 012345678', '04-11-082-04W6'] })).toEqual(['agriculture', 'legalLand']);
    expect(post({ queries: ['Calgary', 42] })).toEqual([]);
  });

  it('decides by account, add-on, plan, origin and the month of the premium limit', () => {
    const MONTH = '2026-11';
    const rule = CAPABILITY_RULES[0]!;
    const key = (plan: KeyRecord['plan'], addons: KeyRecord['addons'], accountId: string | null = 'acct'): KeyRecord =>
      ({ id: 'k', accountId, plan, addons, allowedOrigins: [] });
    expect(capabilityRefusal(null, rule, false, MONTH)).toBeNull();
    expect(capabilityRefusal(key(null, [], null), rule, false, MONTH)).toBeNull(); // founder key
    expect(capabilityRefusal(key('growth', ['energy']), rule, false, MONTH)).toBeNull();
    expect(capabilityRefusal(key('indie', ['mining']), rule, true, MONTH)).toMatchObject({ code: 'addon_required', addon: 'addon-energy' });
    expect(capabilityRefusal(key('hobby', []), rule, true, MONTH)).toBeNull();
    expect(capabilityRefusal(key('hobby', []), rule, false, MONTH)).toMatchObject({ code: 'dev_only', addon: 'addon-energy' });
    expect(capabilityRefusal(key('hobby', ['energy']), rule, false, MONTH)).toBeNull();
    // Past the dev plan's premium calls this month: refused from anywhere, add-on or not; last month's mark has lapsed.
    const limited = (addons: KeyRecord['addons'], month: string): KeyRecord => ({ ...key('hobby', addons), premiumLimitedMonth: month });
    expect(capabilityRefusal(limited([], MONTH), rule, true, MONTH)).toMatchObject({ code: 'usage_limit_reached', addon: 'addon-energy' });
    expect(capabilityRefusal(limited(['energy'], MONTH), rule, false, MONTH)).toMatchObject({ code: 'usage_limit_reached' });
    expect(capabilityRefusal(limited([], MONTH), rule, false, MONTH)).toMatchObject({ code: 'dev_only' });
    expect(capabilityRefusal(limited([], '2026-10'), rule, true, MONTH)).toBeNull();
    expect(capabilityRefusal({ ...key('indie', ['energy']), premiumLimitedMonth: MONTH }, rule, false, MONTH)).toBeNull();
  });
});

describe('403 answers over HTTP', () => {
  let env: TestEnv;
  let pool: pg.Pool;
  let app: FastifyInstance;
  const newKey = async (input: CreateKeyInput) => (await createKey(pool, input)).key;
  const search = (key: string, headers: Record<string, string> = {}) =>
    app.inject({ url: '/geocode/search?q=NW-25-24-1-W5', headers: { authorization: `Bearer ${key}`, ...headers } });
  const batch = (key: string, headers: Record<string, string> = {}) => app.inject({
    method: 'POST', url: '/geocode/batch', payload: { queries: ['NW-25-24-1-W5'] },
    headers: { authorization: `Bearer ${key}`, ...headers },
  });

  beforeAll(async () => {
    env = await createTestEnv('access_capabilities');
    pool = createPool(env.config.databaseUrl, 4);
    const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
    app = await buildApp({ config: env.config, pool, releases, logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await pool?.end();
    await env?.cleanup();
  });

  it('addon_required for a paid plan without the add-on, on every route of the table', async () => {
    const key = await newKey({ plan: 'indie' });
    for (const res of [await search(key), await batch(key)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'addon-legal-land required',
        code: 'addon_required',
        capability: 'legalLand',
        addon: 'addon-legal-land',
        message: 'Dominion Land Survey search needs the legal-land add-on (addon-legal-land) on this account.',
      });
    }
  });

  it('dev_only for a dev-plan key from a production origin (or none); allowed from a dev origin', async () => {
    const key = await newKey({ plan: 'hobby' });
    for (const res of [await search(key), await search(key, { origin: 'https://shop.example.com' }), await batch(key, { referer: 'https://localhost.example.com/x' })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'dev_only', capability: 'legalLand', addon: 'addon-legal-land' });
      expect(res.json().message).toMatch(/dev origins only/);
    }
    const fromDev = await search(key, { origin: 'http://localhost:5173' });
    expect([fromDev.statusCode, fromDev.json()]).toMatchObject([200, [{ name: 'NW-25-024-01W5' }]]);
    const batchFromDev = await batch(key, { referer: 'https://demo.pages.dev/app' });
    expect([batchFromDev.statusCode, batchFromDev.json()]).toMatchObject([200, [[{ name: 'NW-25-024-01W5' }]]]);
  });

  it('passes keys with the add-on and keys without an account, and never gates core layers', async () => {
    for (const key of [await newKey({ plan: 'growth', addons: ['legal-land'] }), await newKey({})]) {
      expect((await search(key)).statusCode).toBe(200);
      expect((await batch(key)).statusCode).toBe(200);
    }
    const indie = await newKey({ plan: 'indie' });
    const core = await app.inject({ url: '/geocode/search?q=Suncor&layers=poi', headers: { authorization: `Bearer ${indie}` } });
    expect(core.statusCode).toBe(503); // past the access check: no geocoding release is enabled here
  });

  it('usage_limit_reached: a dev-plan account at 5,000 premium calls in the month is refused premium requests only, until the month ends', async () => {
    let now = Date.UTC(2026, 10, 30, 23, 0);
    const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
    const clocked = await buildApp({ config: env.config, pool, releases, logger: false, now: () => now });
    const dev = { authorization: '', origin: 'http://localhost:5173' };
    const premium = (key: string) => clocked.inject({ url: '/geocode/search?q=NW-25-24-1-W5', headers: { ...dev, authorization: `Bearer ${key}` } });
    const core = (key: string) => clocked.inject({ url: '/geocode/search?q=Suncor&layers=poi', headers: { ...dev, authorization: `Bearer ${key}` } });
    try {
      const first = await createKey(pool, { plan: 'hobby' });
      const account = first.accountId!;
      expect((await premium(first.key)).statusCode).toBe(200);
      expect((await core(first.key)).statusCode).toBe(503);
      await clocked.meterJournal!.flush();
      const counted = await pool.query('SELECT family, dev, calls::int, premium_calls::int FROM usage_daily WHERE key_id = $1 ORDER BY calls', [first.id]);
      expect(counted.rows).toEqual([{ family: 'geocode', dev: true, calls: 2, premium_calls: 1 }]);
      // 4,998 more premium calls this month: one short of the ceiling, nothing changes.
      await pool.query(`INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls, premium_calls) VALUES ('2026-11-02', $1, $2, 'geocode', true, 4998, 4998)`, [first.id, account]);
      expect((await runEnforcement(pool, { now: new Date(now) })).changes.filter((c) => c.accountId === account)).toEqual([]);
      expect((await premium(first.key)).statusCode).toBe(200);
      await clocked.meterJournal!.flush();
      const { changes } = await runEnforcement(pool, { now: new Date(now) });
      expect(changes.filter((c) => c.accountId === account)).toEqual([
        { accountId: account, plan: 'hobby', from: null, to: 'usage_limit_reached', billableCalls: 0, premiumCalls: 5000, month: '2026-11' },
      ]);
      // A key looked up after the run (the cached one follows within KEY_CACHE_TTL_SECONDS).
      const second = await createKey(pool, { accountId: account });
      const refused = await premium(second.key);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        error: 'monthly premium call limit of the dev plan reached',
        code: 'usage_limit_reached',
        capability: 'legalLand',
        addon: 'addon-legal-land',
        message: 'Dominion Land Survey search on the dev plan is limited to 5,000 premium calls a month; this account has used them. Core calls continue; the limit clears on the first of next month (UTC), or subscribe to a paid plan with addon-legal-land.',
      });
      expect((await core(second.key)).statusCode).toBe(503); // core goes on, past the access check
      // The refusal is a door rejection: not a call.
      await clocked.meterJournal!.flush();
      const after = await pool.query('SELECT coalesce(sum(calls), 0)::int AS n FROM usage_daily WHERE key_id = $1', [second.id]);
      expect(after.rows[0].n).toBe(1);
      // Next month: lifted at once, before the job even runs; the run then clears the mark.
      now = Date.UTC(2026, 11, 1, 0, 1);
      expect((await premium(second.key)).statusCode).toBe(200);
      const december = (await runEnforcement(pool, { now: new Date(now) })).changes.filter((c) => c.accountId === account);
      expect(december).toEqual([]);
      const mark = await pool.query('SELECT premium_limited_month FROM accounts WHERE id = $1', [account]);
      expect(mark.rows).toEqual([{ premium_limited_month: null }]);
    } finally {
      await clocked.close();
    }
  });
});

import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { CAPABILITY_RULES, capabilityRefusal, requiredCapabilities } from '../../engines/access/capabilities.ts';
import { isDevOrigin } from '../../engines/access/dev-origins.ts';
import { createKey, type CreateKeyInput, type KeyRecord } from '../../lib/keys.ts';
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

  it('decides by account, add-on, plan and origin', () => {
    const rule = CAPABILITY_RULES[0]!;
    const key = (plan: KeyRecord['plan'], addons: KeyRecord['addons'], accountId: string | null = 'acct'): KeyRecord =>
      ({ id: 'k', accountId, plan, addons, allowedOrigins: [] });
    expect(capabilityRefusal(null, rule, false)).toBeNull();
    expect(capabilityRefusal(key(null, [], null), rule, false)).toBeNull(); // founder key
    expect(capabilityRefusal(key('growth', ['energy']), rule, false)).toBeNull();
    expect(capabilityRefusal(key('indie', ['mining']), rule, true)).toMatchObject({ code: 'addon_required', addon: 'addon-energy' });
    expect(capabilityRefusal(key('hobby', []), rule, true)).toBeNull();
    expect(capabilityRefusal(key('hobby', []), rule, false)).toMatchObject({ code: 'dev_only', addon: 'addon-energy' });
    expect(capabilityRefusal(key('hobby', ['energy']), rule, false)).toBeNull();
  });
});

describe('403 answers over HTTP', () => {
  let env: TestEnv;
  let pool: pg.Pool;
  let app: FastifyInstance;
  const newKey = async (input: CreateKeyInput) => (await createKey(pool, input)).key;
  const search = (key: string, headers: Record<string, string> = {}) =>
    app.inject({ url: '/geocode/search?q=Suncor&layers=facility', headers: { authorization: `Bearer ${key}`, ...headers } });
  const batch = (key: string, headers: Record<string, string> = {}) => app.inject({
    method: 'POST', url: '/geocode/batch', payload: { queries: ['Suncor'], layers: ['well'] },
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
        error: 'addon-energy required',
        code: 'addon_required',
        capability: 'energy',
        addon: 'addon-energy',
        message: 'Well and facility search needs the energy add-on (addon-energy) on this account.',
      });
    }
  });

  it('dev_only for a dev-plan key from a production origin (or none); allowed from a dev origin', async () => {
    const key = await newKey({ plan: 'hobby' });
    for (const res of [await search(key), await search(key, { origin: 'https://shop.example.com' }), await batch(key, { referer: 'https://localhost.example.com/x' })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'dev_only', capability: 'energy', addon: 'addon-energy' });
      expect(res.json().message).toMatch(/dev origins only/);
    }
    const fromDev = await search(key, { origin: 'http://localhost:5173' });
    expect([fromDev.statusCode, fromDev.json()]).toEqual([200, []]);
    const batchFromDev = await batch(key, { referer: 'https://demo.pages.dev/app' });
    expect([batchFromDev.statusCode, batchFromDev.json()]).toEqual([200, [[]]]);
  });

  it('passes keys with the add-on and keys without an account, and never gates core layers', async () => {
    for (const key of [await newKey({ plan: 'growth', addons: ['energy'] }), await newKey({})]) {
      expect((await search(key)).statusCode).toBe(200);
      expect((await batch(key)).statusCode).toBe(200);
    }
    const indie = await newKey({ plan: 'indie' });
    const core = await app.inject({ url: '/geocode/search?q=Suncor&layers=poi', headers: { authorization: `Bearer ${indie}` } });
    expect(core.statusCode).toBe(503); // past the access check: no geocoding release is enabled here
  });
});

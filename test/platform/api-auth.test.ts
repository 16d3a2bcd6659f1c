import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { KeyCache } from '../../api/access/key-cache.ts';
import { loadConfig } from '../../lib/config.ts';
import { createKey, disableKey, type CreateKeyInput } from '../../io/access/key-store.ts';
import { createPool, withDatabase } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

const CHALLENGE = 'Bearer realm="api.canmap.test", resource_metadata="http://api.canmap.test/.well-known/oauth-protected-resource"';
const INVALID_CHALLENGE = `${CHALLENGE}, error="invalid_token"`;
const MISSING = { error: 'missing API key', code: 'unauthorized' };
const INVALID = { error: 'invalid or disabled API key', code: 'unauthorized' };

let env: TestEnv;
let pool: pg.Pool;
let app: FastifyInstance;
let logLines: string[];
let founderKey: string;

async function newKey(input: CreateKeyInput = {}): Promise<{ id: string; key: string }> {
  const created = await createKey(pool, input);
  return { id: created.id, key: created.key };
}

async function newApp(testEnv: TestEnv, testPool: pg.Pool, logger?: object): Promise<FastifyInstance> {
  const releases = new ReleaseStore({
    pool: testPool, databaseUrl: testEnv.config.databaseUrl, releasesDir: testEnv.config.releasesDir, pollMs: 60_000,
  });
  const built = await buildApp({ config: testEnv.config, pool: testPool, releases, logger: logger ?? false });
  built.get('/test/echo-key', async (request) => ({ key: request.apiKey }));
  return built;
}

beforeAll(async () => {
  env = await createTestEnv('api_auth');
  pool = createPool(env.config.databaseUrl, 4);
  logLines = [];
  const stream = new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } });
  app = await newApp(env, pool, { level: 'info', stream });
  founderKey = (await newKey()).key;
});
afterAll(async () => {
  await app?.close();
  await pool?.end();
  await env?.cleanup();
});

describe('401 answers', () => {
  it('no key at all: missing API key with the bare challenge', async () => {
    const res = await app.inject('/test/echo-key');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(MISSING);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it.each([
    ['Bearer header', { headers: { authorization: 'Bearer cmk_nope' } }],
    ['X-API-Key header', { headers: { 'x-api-key': 'cmk_nope' } }],
    ['key query parameter', { query: { key: 'cmk_nope' } }],
  ])('unknown key in the %s: invalid, with error="invalid_token"', async (_form, options) => {
    const res = await app.inject({ url: '/test/echo-key', ...options });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
    expect(res.headers['www-authenticate']).toBe(INVALID_CHALLENGE);
  });

  it('a disabled key gets exactly the unknown-key answer', async () => {
    const { id, key } = await newKey();
    await disableKey(pool, id);
    const disabled = await app.inject({ url: '/test/echo-key', headers: { authorization: `Bearer ${key}` } });
    const unknown = await app.inject({ url: '/test/echo-key', headers: { authorization: 'Bearer cmk_never_issued' } });
    expect(disabled.statusCode).toBe(401);
    expect(disabled.body).toBe(unknown.body);
    expect(disabled.headers['www-authenticate']).toBe(unknown.headers['www-authenticate']);
  });

  it('an unknown path without a key is 401, with a key it is a plain-text Not Found', async () => {
    const without = await app.inject('/no/such/path');
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual(MISSING);
    const withKey = await app.inject({ url: '/no/such/path', headers: { 'x-api-key': founderKey } });
    expect(withKey.statusCode).toBe(404);
    expect(withKey.headers['content-type']).toMatch(/^text\/plain/);
    expect(withKey.body).toBe('Not Found');
  });

  it('a path Fastify cannot route is authenticated first too', async () => {
    const without = await app.inject('/bad%zzpath');
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual(MISSING);
    const withKey = await app.inject(`/bad%zzpath?key=${founderKey}`);
    expect(withKey.statusCode).toBe(404);
    expect(withKey.body).toBe('Not Found');
  });

  it('a non-preflight OPTIONS needs a key like anything else', async () => {
    const res = await app.inject({ method: 'OPTIONS', url: '/openapi.json' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(MISSING);
  });
});

describe('key forms and precedence', () => {
  it.each([
    ['Bearer header', (k: string) => ({ headers: { authorization: `Bearer ${k}` } })],
    ['X-API-Key header', (k: string) => ({ headers: { 'x-api-key': k } })],
    ['key query parameter', (k: string) => ({ query: { key: k } })],
  ])('accepts a valid key in the %s', async (_form, options) => {
    const res = await app.inject({ url: '/test/echo-key', ...options(founderKey) });
    expect(res.statusCode).toBe(200);
    expect(res.json().key).toMatchObject({ accountId: null, plan: null, addons: [], allowedOrigins: [] });
  });

  it('an invalid Bearer key wins over a valid X-API-Key and key=', async () => {
    const res = await app.inject({
      url: '/test/echo-key',
      headers: { authorization: 'Bearer cmk_wrong', 'x-api-key': founderKey },
      query: { key: founderKey },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  });

  it('an invalid X-API-Key wins over a valid key=', async () => {
    const res = await app.inject({ url: '/test/echo-key', headers: { 'x-api-key': 'cmk_wrong' }, query: { key: founderKey } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  });

  it('an Authorization header of another scheme is left alone and X-API-Key is used', async () => {
    const res = await app.inject({ url: '/test/echo-key', headers: { authorization: 'Basic dXNlcjpwdw==', 'x-api-key': founderKey } });
    expect(res.statusCode).toBe(200);
  });

  it('attaches the key with its account, plan and add-ons to the request', async () => {
    const { id, key } = await newKey({ accountId: 'acct_echo', plan: 'indie', addons: ['energy', 'mining'] });
    const res = await app.inject({ url: '/test/echo-key', headers: { authorization: `Bearer ${key}` } });
    expect(res.json().key).toEqual({ id, accountId: 'acct_echo', plan: 'indie', addons: ['energy', 'mining'], allowedOrigins: [] });
  });
});

describe('key lookup cache', () => {
  it('answers a repeated key (valid or not) without asking Postgres', async () => {
    const { key } = await newKey();
    let checkouts = 0;
    const count = () => { checkouts += 1; };
    pool.on('acquire', count);
    try {
      expect((await app.inject({ url: '/test/echo-key', query: { key } })).statusCode).toBe(200);
      expect((await app.inject({ url: '/test/echo-key', query: { key: 'cmk_cached_miss' } })).statusCode).toBe(401);
      expect(checkouts).toBe(2);
      for (let i = 0; i < 20; i++) {
        expect((await app.inject({ url: '/test/echo-key', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);
        expect((await app.inject({ url: '/test/echo-key', headers: { 'x-api-key': 'cmk_cached_miss' } })).statusCode).toBe(401);
      }
      expect(checkouts).toBe(2);
    } finally {
      pool.off('acquire', count);
    }
  });

  it('concurrent first requests with one key share a single lookup', async () => {
    const { key } = await newKey();
    let checkouts = 0;
    const count = () => { checkouts += 1; };
    pool.on('acquire', count);
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => app.inject({ url: '/test/echo-key', query: { key } })));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
      expect(checkouts).toBe(1);
    } finally {
      pool.off('acquire', count);
    }
  });

  it('a disabled key stops working within the cache TTL', async () => {
    const shortEnv = await createTestEnv('api_auth_ttl', { KEY_CACHE_TTL_SECONDS: '1' });
    const shortPool = createPool(shortEnv.config.databaseUrl, 2);
    const shortApp = await newApp(shortEnv, shortPool);
    try {
      const created = await createKey(shortPool, {});
      const ask = () => shortApp.inject({ url: '/test/echo-key', headers: { authorization: `Bearer ${created.key}` } });
      expect((await ask()).statusCode).toBe(200); // it worked right before being disabled
      await disableKey(shortPool, created.id);
      // The exact TTL arithmetic is KeyCache's own test (with its clock); here only that it
      // stops within the TTL, with generous slack for a busy machine.
      const disabledAt = Date.now();
      let res = await ask();
      while (res.statusCode === 200 && Date.now() - disabledAt < 1000 + 5000) {
        await new Promise((r) => setTimeout(r, 100));
        res = await ask();
      }
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(INVALID);
    } finally {
      await shortApp.close();
      await shortPool.end();
      await shortEnv.cleanup();
    }
  });
});

describe('KeyCache', () => {
  const record = (id: string) => ({ id, accountId: null, plan: null, addons: [], allowedOrigins: [] });

  it('keeps at most maxEntries, dropping the oldest, and forgets entries after the TTL', async () => {
    const asked: string[] = [];
    let now = 1_000_000;
    const cache = new KeyCache(async (hash) => {
      asked.push(hash);
      return hash.startsWith('known') ? record(hash) : null;
    }, 200, 3, () => now);
    for (const hash of ['known-a', 'unknown-b', 'known-c']) await cache.load(hash);
    expect(cache.peek('known-a')).toEqual(record('known-a'));
    expect(cache.peek('unknown-b')).toBeNull();
    await cache.load('known-d');
    expect(cache.size).toBe(3);
    expect(cache.peek('known-a')).toBeUndefined();
    expect(cache.peek('known-d')).toEqual(record('known-d'));
    now += 199;
    expect(cache.peek('known-d')).toEqual(record('known-d'));
    now += 1;
    expect(cache.peek('known-d')).toBeUndefined();
    expect(asked).toEqual(['known-a', 'unknown-b', 'known-c', 'known-d']);
  });

  it('a key disabled after it was cached answers from the cache until exactly the TTL, then as disabled', async () => {
    let now = 5_000;
    let active = true;
    const cache = new KeyCache(async (hash) => (active ? record(hash) : null), 1000, 10, () => now);
    expect(await cache.load('k')).toEqual(record('k'));
    active = false; // disabled in Postgres
    now += 999;
    expect(cache.peek('k')).toEqual(record('k'));
    now += 1;
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.load('k')).toBeNull();
    expect(cache.peek('k')).toBeNull();
  });
});

describe('control plane down', () => {
  it('answers 503 (not 500, not 401) when keys cannot be looked up', async () => {
    const missingDb = withDatabase(env.config.databaseUrl, `canmap_absent_${process.pid}`);
    const brokenEnv = { ...env, config: loadConfig({ ...env.env, DATABASE_URL: missingDb }) };
    const brokenPool = createPool(missingDb, 1);
    const brokenApp = await newApp(brokenEnv, brokenPool);
    try {
      const res = await brokenApp.inject({ url: '/test/echo-key', headers: { authorization: 'Bearer cmk_anything' } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ error: 'authentication temporarily unavailable', code: 'service_unavailable', retryable: true });
    } finally {
      await brokenApp.close();
      await brokenPool.end();
    }
  });
});

describe('allowed origins', () => {
  let restricted: string;
  let unrestricted: string;
  beforeAll(async () => {
    restricted = (await newKey({ origins: ['https://maps.example.com', 'http://localhost:5173'] })).key;
    unrestricted = (await newKey({ origins: [] })).key;
  });
  const ask = (key: string, headers: Record<string, string>) =>
    app.inject({ url: '/test/echo-key', headers: { authorization: `Bearer ${key}`, ...headers } });

  it.each([
    ['Origin on the list', { origin: 'https://maps.example.com' }, 200],
    ['a listed dev origin', { origin: 'http://localhost:5173' }, 200],
    ['Referer from a listed origin (no Origin)', { referer: 'https://maps.example.com/app/page?x=1' }, 200],
    ['no Origin and no Referer', {}, 403],
    ['an Origin not on the list', { origin: 'https://evil.example.com' }, 403],
    ['the same host on another port', { origin: 'https://maps.example.com:8443' }, 403],
    ['an unlisted dev origin', { origin: 'http://localhost:3000' }, 403],
    ['an unparseable Origin', { origin: 'not a url' }, 403],
    ['the opaque Origin null', { origin: 'null' }, 403],
    ['an unparseable Referer', { referer: '::::' }, 403],
    ['a bad Origin even with a good Referer', { origin: 'https://evil.example.com', referer: 'https://maps.example.com/' }, 403],
  ])('%s → %i', async (_case, headers, status) => {
    const res = await ask(restricted, headers as Record<string, string>);
    expect(res.statusCode).toBe(status);
    if (status === 403) {
      expect(res.json()).toEqual({ error: 'origin not allowed for this API key', code: 'origin_not_allowed' });
      expect(res.body).not.toContain('maps.example.com');
    }
  });

  it('an empty list is unrestricted', async () => {
    expect((await ask(unrestricted, {})).statusCode).toBe(200);
    expect((await ask(unrestricted, { origin: 'https://anywhere.example' })).statusCode).toBe(200);
  });
});

describe('logging', () => {
  it('never writes a key to the log', async () => {
    const { key } = await newKey();
    await app.inject({ url: `/test/echo-key?key=${key}&x=1` });
    await app.inject({ url: '/test/echo-key', headers: { authorization: `Bearer ${key}`, 'x-api-key': key } });
    await app.inject({ url: `/nowhere?key=${key}` });
    const log = logLines.join('');
    expect(log).toContain('/test/echo-key?key=[redacted]&x=1');
    expect(log).not.toContain(key);
  });
});

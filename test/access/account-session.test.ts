import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { issueLoginToken, LOGIN_TOKEN_TTL_MS, SESSION_TTL_MS } from '../../io/access/sessions.ts';
import { hashKey } from '../../lib/keys.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: pg.Pool;
let redis: Redis;
let app: FastifyInstance;
let clock = Date.now();
let alice: { id: string; key: string };
let bob: { id: string; key: string };

// Volume 1's account API codes: a missing or dead session is invalid_token (there is no session_required).
const SESSION_REQUIRED = { error: 'sign-in required: open a new login link (canmap accounts login-link)', code: 'invalid_token' };
const INVALID_TOKEN = { error: 'login link is invalid, expired or already used: ask for a new one', code: 'invalid_token' };
const NOT_EMBEDDABLE = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

async function newApp(options: { rateLimitPerMinute?: number } = {}): Promise<FastifyInstance> {
  const config = { ...env.config, ...options };
  const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 60_000 });
  return buildApp({ config, pool, releases, redis, logger: false, now: () => clock });
}

const cliJson = async (...args: string[]) => {
  const run = await runCanmap([...args, '--json'], env.env);
  return { code: run.code, body: JSON.parse(run.stdout) as Record<string, string> };
};

/** The path and query of a login link printed by the CLI. */
async function cliLoginLink(account: string): Promise<string> {
  const { code, body } = await cliJson('accounts', 'login-link', account);
  expect(code).toBe(0);
  const url = new URL(body.url!);
  return `${url.pathname}${url.search}`;
}

/** The same link without a process per call, on the app's clock. */
const loginLink = async (account: string) => `/account/login?token=${(await issueLoginToken(pool, account, clock)).token}`;

const sessionOf = (res: LightMyRequestResponse) => /^canmap_session=([^;]*)/.exec(String(res.headers['set-cookie']))?.[1];

async function signIn(account: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await app.inject({ url: await loginLink(account), headers });
  expect(res.statusCode).toBe(303);
  return sessionOf(res)!;
}

const withSession = (session: string, url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { cookie: `theme=dark; canmap_session=${session}`, ...headers } });

function expectNotEmbeddable(res: LightMyRequestResponse): void {
  expect(res.headers).toMatchObject(NOT_EMBEDDABLE);
  expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
}

async function addUsage(keyId: string, accountId: string, day: string, family: string, dev: boolean, calls: number, premium = 0): Promise<void> {
  await pool.query(
    'INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls, premium_calls) VALUES ($1::date, $2, $3, $4, $5, $6, $7)',
    [day, keyId, accountId, family, dev, calls, premium],
  );
}

beforeAll(async () => {
  env = await createTestEnv('account_session');
  pool = createPool(env.config.databaseUrl, 4);
  redis = createApiRedis(env.config.redisUrl);
  expect(await redisReady(redis, 5000)).toBe(true);
  const a = await createKey(pool, { accountId: 'alice', plan: 'hobby', origins: ['http://localhost:3000'] });
  const b = await createKey(pool, { accountId: 'bob', plan: 'indie' });
  alice = { id: a.id, key: a.key };
  bob = { id: b.id, key: b.key };
  app = await newApp();
});

afterAll(async () => {
  await app?.close();
  redis?.disconnect();
  await pool?.end();
  await env?.cleanup();
});

describe('canmap accounts login-link', () => {
  it('prints the login URL and its expiry; only the token hash is stored', async () => {
    const before = Date.now();
    const { code, body } = await cliJson('accounts', 'login-link', 'alice');
    expect(code).toBe(0);
    expect(body.account).toBe('alice');
    expect(body.url).toMatch(/^http:\/\/api\.canmap\.test\/account\/login\?token=cml_[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(body.expiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + LOGIN_TOKEN_TTL_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + LOGIN_TOKEN_TTL_MS);
    const token = new URL(body.url!).searchParams.get('token')!;
    const stored = await pool.query('SELECT token_hash FROM account_login_tokens WHERE account_id = $1', ['alice']);
    expect(stored.rows.map((r) => r.token_hash)).toContain(hashKey(token));
    expect(JSON.stringify(stored.rows)).not.toContain(token);

    const human = await runCanmap(['accounts', 'login-link', 'alice', '--ttl-minutes', '5'], env.env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^login link for account alice \(works once, expires .+\):\nhttp:\/\/api\.canmap\.test\/account\/login\?token=cml_/);
  });

  it('an unknown account fails with the message and exit code of the other subcommands; bad --ttl-minutes is exit 2', async () => {
    const unknown = await runCanmap(['accounts', 'login-link', 'nobody', '--json'], env.env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: 'no account with id nobody (see canmap keys list)' });
    const human = await runCanmap(['accounts', 'login-link', 'nobody'], env.env);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('no account with id nobody');
    for (const ttl of ['0', '1.5', 'soon', '1441']) {
      expect((await runCanmap(['accounts', 'login-link', 'alice', '--ttl-minutes', ttl], env.env)).code).toBe(2);
    }
    expect((await runCanmap(['accounts', 'login-link'], env.env)).code).toBe(2);
  });
});

describe('GET /account/login', () => {
  it('sets an HttpOnly, SameSite=Lax cookie on /account (no Secure over http) and answers 303 to the dashboard page /account/', async () => {
    const res = await app.inject({ url: await cliLoginLink('alice') });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account/');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^canmap_session=cms_[A-Za-z0-9_-]{43}; /);
    expect(cookie.split('; ').slice(1)).toEqual(['Path=/account', 'HttpOnly', 'SameSite=Lax', `Max-Age=${SESSION_TTL_MS / 1000}`]);
    expectNotEmbeddable(res);
    const stored = await pool.query('SELECT session_hash FROM account_sessions');
    expect(stored.rows.map((r) => r.session_hash)).toContain(hashKey(sessionOf(res)!));
  });

  it('adds Secure behind a TLS-terminating proxy (X-Forwarded-Proto: https)', async () => {
    const res = await app.inject({ url: await loginLink('alice'), headers: { 'x-forwarded-proto': 'https' } });
    expect(res.statusCode).toBe(303);
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
    const plain = await app.inject({ url: await loginLink('alice'), headers: { 'x-forwarded-proto': 'http' } });
    expect(String(plain.headers['set-cookie'])).not.toContain('Secure');
  });

  it('adds Secure on a TLS connection', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-tls-'));
    try {
      await promisify(execFile)('openssl', [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
        '-subj', '/CN=localhost', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
      ]);
      await app.ready();
      const server = https.createServer(
        { key: await readFile(path.join(dir, 'key.pem')), cert: await readFile(path.join(dir, 'cert.pem')) },
        (req, res) => app.routing(req, res),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as { port: number };
        const link = await loginLink('alice');
        const answer = await new Promise<{ status?: number; cookie?: string[] }>((resolve, reject) => {
          https.get({ host: '127.0.0.1', port, path: link, rejectUnauthorized: false }, (res) => {
            res.resume();
            resolve({ status: res.statusCode, cookie: res.headers['set-cookie'] });
          }).on('error', reject);
        });
        expect(answer.status).toBe(303);
        expect(String(answer.cookie)).toMatch(/HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a token works once; a missing, unknown or expired token is 401 invalid_token', async () => {
    const link = await cliLoginLink('alice');
    expect((await app.inject({ url: link })).statusCode).toBe(303);
    const again = await app.inject({ url: link });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(INVALID_TOKEN);
    expect(again.headers['set-cookie']).toBeUndefined();
    expectNotEmbeddable(again);

    for (const url of ['/account/login', '/account/login?token=', '/account/login?token=cml_nope', '/account/login?token=cmk_nope']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(INVALID_TOKEN);
    }

    const { token } = await issueLoginToken(pool, 'alice', clock, 60_000);
    clock += 60_000;
    try {
      const expired = await app.inject({ url: `/account/login?token=${token}` });
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual(INVALID_TOKEN);
    } finally {
      clock -= 60_000;
    }
  });

  it('a HEAD does not spend the token', async () => {
    const link = await loginLink('alice');
    expect((await app.inject({ method: 'HEAD', url: link })).statusCode).not.toBe(303);
    expect((await app.inject({ url: link })).statusCode).toBe(303);
  });
});

describe('GET /account/me and /account/usage', () => {
  it('show the signed-in account: plan as shown to customers, state, payment, usage and keys without secrets', async () => {
    const today = new Date(clock).toISOString().slice(0, 10);
    await addUsage(alice.id, 'alice', today, 'geocode', false, 120);
    await addUsage(alice.id, 'alice', today, 'geocode', true, 30, 10);
    await addUsage(bob.id, 'bob', today, 'geocode', false, 99_999);
    const session = await signIn('alice');
    const res = await withSession(session, '/account/me');
    expect(res.statusCode).toBe(200);
    expectNotEmbeddable(res);
    expect(res.json()).toEqual({
      id: 'alice',
      plan: 'dev',
      addons: [],
      spend_cap: 0,
      state: 'active',
      blocked_since: null,
      payment: 'ok',
      payment_failed_at: null,
      created_at: expect.any(String),
      usage: { month: today.slice(0, 7), calls: 120, dev_calls: 30, premium_calls: 10, included_calls: 10_000, overage: 0 },
      keys: [{ id: alice.id, allowed_origins: ['http://localhost:3000'], created_at: expect.any(String), disabled_at: null }],
    });
    expect(res.body).not.toContain(hashKey(alice.key));
    expect(res.body).not.toContain(alice.key);

    const bobs = await withSession(await signIn('bob'), '/account/me');
    expect(bobs.json()).toMatchObject({ id: 'bob', plan: 'indie', keys: [{ id: bob.id }] });
    expect(bobs.body).not.toContain('alice');
  });

  it('usage: per day and family with dev calls and month totals, only the session account, any month', async () => {
    await addUsage(alice.id, 'alice', '2025-03-01', 'places', false, 5);
    await addUsage(alice.id, 'alice', '2025-03-01', 'geocode', false, 7);
    await addUsage(alice.id, 'alice', '2025-03-01', 'geocode', true, 2, 2);
    await addUsage(alice.id, 'alice', '2025-03-31', 'transit', true, 4);
    await addUsage(alice.id, 'alice', '2025-04-01', 'transit', false, 1000);
    await addUsage(bob.id, 'bob', '2025-03-01', 'geocode', false, 50);
    const session = await signIn('alice');

    const march = await withSession(session, '/account/usage?month=2025-03');
    expect(march.statusCode).toBe(200);
    expectNotEmbeddable(march);
    expect(march.json()).toEqual({
      account: 'alice',
      month: '2025-03',
      from: '2025-03-01',
      to: '2025-03-31',
      rows: [
        { day: '2025-03-01', family: 'geocode', calls: 7, dev_calls: 2, premium_calls: 2 },
        { day: '2025-03-01', family: 'places', calls: 5, dev_calls: 0, premium_calls: 0 },
        { day: '2025-03-31', family: 'transit', calls: 0, dev_calls: 4, premium_calls: 0 },
      ],
      totals: { calls: 12, dev_calls: 6, premium_calls: 2 },
    });

    const current = await withSession(session, '/account/usage');
    expect(current.json()).toMatchObject({ account: 'alice', month: new Date(clock).toISOString().slice(0, 7), totals: { calls: 120, dev_calls: 30 } });
    expect((await withSession(session, '/account/usage?month=1999-01')).json()).toMatchObject({ rows: [], totals: { calls: 0, dev_calls: 0 } });
  });

  it('a bad month is 400 bad_request naming it (after the session check)', async () => {
    const session = await signIn('alice');
    for (const month of ['2025-13', '2025-3', 'march', '', '0000-01']) {
      const res = await withSession(session, `/account/usage?month=${month}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: `month must be YYYY-MM, got "${month}"`, code: 'bad_request' });
      expectNotEmbeddable(res);
    }
    expect((await app.inject({ url: '/account/usage?month=2025-13' })).json()).toEqual(SESSION_REQUIRED);
  });

  it('a blocked account still sees its dashboard, with the block code as its state', async () => {
    await pool.query(`INSERT INTO account_blocks (account_id, state, since, month) VALUES ('bob', 'spend_cap', now(), to_char(now(), 'YYYY-MM'))`);
    try {
      const res = await withSession(await signIn('bob'), '/account/me', { authorization: `Bearer ${bob.key}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: 'bob', state: 'spend_cap', blocked_since: expect.any(String) });
    } finally {
      await pool.query(`DELETE FROM account_blocks WHERE account_id = 'bob'`);
    }
  });
});

describe('session required', () => {
  it.each(['/account/me', '/account/usage'])('%s: no cookie, an unknown cookie or an API key alone is 401 invalid_token', async (url) => {
    const answers = [
      await app.inject({ url }),
      await app.inject({ url, headers: { cookie: 'canmap_session=cms_forged' } }),
      await app.inject({ url, headers: { cookie: 'canmap_session=' } }),
      await app.inject({ url, headers: { authorization: `Bearer ${alice.key}` } }),
      await app.inject({ url, headers: { 'x-api-key': alice.key } }),
      await app.inject({ url: `${url}?key=${alice.key}` }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(SESSION_REQUIRED);
      expect(res.headers['www-authenticate']).toBeUndefined();
      expectNotEmbeddable(res);
    }
  });

  it('a session expires after 12 hours', async () => {
    const session = await signIn('alice');
    clock += SESSION_TTL_MS - 1000;
    try {
      expect((await withSession(session, '/account/me')).statusCode).toBe(200);
      clock += 1000;
      const res = await withSession(session, '/account/me');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(SESSION_REQUIRED);
    } finally {
      clock -= SESSION_TTL_MS;
    }
  });

  it('logout ends the session and clears the cookie; it is idempotent', async () => {
    const session = await signIn('alice');
    const other = await signIn('alice');
    const res = await app.inject({ method: 'POST', url: '/account/logout', headers: { cookie: `canmap_session=${session}` } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(String(res.headers['set-cookie'])).toBe('canmap_session=; Path=/account; HttpOnly; SameSite=Lax; Max-Age=0');
    expectNotEmbeddable(res);
    expect((await withSession(session, '/account/me')).statusCode).toBe(401);
    expect((await withSession(other, '/account/me')).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/account/logout', headers: { cookie: `canmap_session=${session}` } })).statusCode).toBe(204);
    expect((await app.inject({ method: 'POST', url: '/account/logout' })).statusCode).toBe(204);
  });

  it('signing in again ends the session the browser had', async () => {
    const first = await signIn('alice');
    const res = await app.inject({ url: await loginLink('bob'), headers: { cookie: `canmap_session=${first}` } });
    expect(res.statusCode).toBe(303);
    expect((await withSession(first, '/account/me')).statusCode).toBe(401);
    expect((await withSession(sessionOf(res)!, '/account/me')).json()).toMatchObject({ id: 'bob' });
  });
});

describe('not for embedding: no CORS on /account/*', () => {
  it('a request with Origin gets no access-control-* headers, on success and on 401', async () => {
    const session = await signIn('alice');
    const ok = await withSession(session, '/account/me', { origin: 'https://evil.example' });
    expect(ok.statusCode).toBe(200);
    expectNotEmbeddable(ok);
    const denied = await app.inject({ url: '/account/usage', headers: { origin: 'https://evil.example' } });
    expect(denied.statusCode).toBe(401);
    expectNotEmbeddable(denied);
  });

  it('a preflight gets neither Access-Control-Allow-Origin nor -Allow-Credentials (other paths still do)', async () => {
    const preflight = (url: string) => app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' },
    });
    for (const url of ['/account/me', '/account/usage?month=2025-03', '/account/logout', '/account/nothing']) {
      const res = await preflight(url);
      expect(res.statusCode).not.toBe(204);
      expectNotEmbeddable(res);
    }
    expect((await preflight('/openapi.json')).headers['access-control-allow-origin']).toBe('*');
  });

  it('an unknown /account/* path still needs an API key first, and carries the headers too', async () => {
    const res = await app.inject({ url: '/account/settings', headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
    expectNotEmbeddable(res);
  });
});

describe('the API-key hooks leave /account/* alone', () => {
  it('neither rate-limited nor metered, and documented without API-key security in /openapi.json', async () => {
    const limited = await newApp({ rateLimitPerMinute: 2 });
    try {
      const session = await signIn('alice');
      for (let i = 0; i < 5; i++) {
        const res = await limited.inject({ url: '/account/me', headers: { cookie: `canmap_session=${session}`, authorization: `Bearer ${alice.key}` } });
        expect(res.statusCode).toBe(200);
      }
      const doc = await limited.inject({ url: '/openapi.json', headers: { authorization: `Bearer ${bob.key}` } });
      expect(doc.statusCode).toBe(200);
      const openapi = doc.json();
      const result = await new Validator().validate(openapi);
      expect(result.errors).toBeUndefined();
      for (const [route, method] of [['/account/login', 'get'], ['/account/logout', 'post'], ['/account/me', 'get'], ['/account/usage', 'get']] as const) {
        expect(openapi.paths[route][method].security).toEqual([]);
      }
    } finally {
      await limited.close();
    }
    // Closing counts what the meter journaled: bob's one call to /openapi.json, nothing of /account/* (sent with alice's key).
    const { rows } = await pool.query(
      `SELECT key_id, family, sum(calls)::int AS calls FROM usage_daily
        WHERE key_id = ANY($1) AND family <> 'geocode' AND day = $2::date GROUP BY key_id, family`,
      [[alice.id, bob.id], new Date(clock).toISOString().slice(0, 10)],
    );
    expect(rows).toEqual([{ key_id: bob.id, family: 'discovery', calls: 1 }]);
  });
});

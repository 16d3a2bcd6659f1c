import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { issueLoginToken } from '../../io/access/sessions.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

/** The account dashboard page over plain HTTP: what it shows without a session, its headers, its files. */

let env: TestEnv;
let pool: pg.Pool;
let redis: Redis;
let app: FastifyInstance;
let key: { id: string; key: string };

const ACCOUNT = 'dashco-private-name';
const STRICT_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

async function signIn(): Promise<string> {
  const res = await app.inject({ url: `/account/login?token=${(await issueLoginToken(pool, ACCOUNT, Date.now())).token}` });
  expect(res.statusCode).toBe(303);
  return /^canmap_session=([^;]*)/.exec(String(res.headers['set-cookie']))![1]!;
}

/** The script and stylesheet URLs of the page, and the modules the scripts import, relative to /account/. */
function referencedFiles(html: string): string[] {
  return [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => !url.startsWith('data:'));
}
const importsOf = (js: string) => [...js.matchAll(/^import .* from '\.\/([^']+)';$/gm)].map((m) => m[1]!);

function expectNoAccountData(res: LightMyRequestResponse): void {
  for (const secret of [ACCOUNT, key.id, key.key, 'indie', 'energy']) expect(res.body).not.toContain(secret);
}

beforeAll(async () => {
  env = await createTestEnv('dashboard_page', { DASHBOARD_URL: 'https://billing.canmap.test/' });
  pool = createPool(env.config.databaseUrl, 4);
  redis = createApiRedis(env.config.redisUrl);
  expect(await redisReady(redis, 5000)).toBe(true);
  const created = await createKey(pool, { accountId: ACCOUNT, plan: 'indie' });
  key = { id: created.id, key: created.key };
  await pool.query(`UPDATE accounts SET addons = '{energy}' WHERE id = $1`, [ACCOUNT]);
  const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
  app = await buildApp({ config: env.config, pool, releases, redis, logger: false });
});

afterAll(async () => {
  await app?.close();
  redis?.disconnect();
  await pool?.end();
  await env?.cleanup();
});

describe('GET /account/', () => {
  it('without a session: the sign-in page, no account data, whatever key or forged cookie comes along', async () => {
    const answers = [
      await app.inject({ url: '/account/' }),
      await app.inject({ url: '/account/', headers: { cookie: 'canmap_session=cms_forged' } }),
      await app.inject({ url: '/account/', headers: { authorization: `Bearer ${key.key}` } }),
      await app.inject({ url: `/account/?key=${key.key}` }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<body data-view="signin"');
      expect(res.body).toContain('<form id="signin-form" method="get" action="login">');
      expectNoAccountData(res);
    }
  });

  it('with a session: the dashboard shell; the data comes from /account/me and /account/usage, not the page', async () => {
    const res = await app.inject({ url: '/account/', headers: { cookie: `canmap_session=${await signIn()}` } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<body data-view="dashboard"');
    expect(res.body).toContain('data-billing-url="https://billing.canmap.test/billing"');
    expect(res.body).toContain('data-dev-premium-limit="5000"');
    expectNoAccountData(res);
  });

  it('carries a strict CSP (own scripts and styles only, none inline) and the headers of every /account/* answer', async () => {
    for (const cookie of [undefined, `canmap_session=${await signIn()}`]) {
      const res = await app.inject({ url: '/account/', headers: { origin: 'https://evil.example', ...(cookie ? { cookie } : {}) } });
      expect(res.headers).toMatchObject({
        'content-security-policy': STRICT_CSP,
        'cache-control': 'no-store',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      });
      expect(res.headers.etag).toBeUndefined();
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      // Nothing the CSP would block: no inline script, handler or style.
      expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(res.body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    }
  });

  it('/account moves to /account/ (the page resolves its files against it)', async () => {
    const res = await app.inject({ url: '/account' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/account/');
  });

  it('a login link ends on the page', async () => {
    const res = await app.inject({ url: `/account/login?token=${(await issueLoginToken(pool, ACCOUNT, Date.now())).token}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account/');
  });
});

describe('the page files', () => {
  it('every script, stylesheet and module the page names is served with its type, an ETag and a cache lifetime; 304 on a match', async () => {
    const page = await app.inject({ url: '/account/' });
    const queue = referencedFiles(page.body);
    expect(queue).toEqual(['vendor/uPlot.min.css', 'dashboard.css', 'dashboard.js']);
    const seen = new Set<string>();
    while (queue.length) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const res = await app.inject({ url: `/account/${file}` });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['content-type']).toBe(file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe(file.startsWith('vendor/') ? 'public, max-age=86400' : 'public, max-age=300');
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      const again = await app.inject({ url: `/account/${file}`, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      if (file.endsWith('.js')) queue.push(...importsOf(res.body).map((name) => (file.startsWith('vendor/') ? `vendor/${name}` : name)));
    }
    expect([...seen].sort()).toContain('vendor/uPlot.esm.js');
  });

  it('uPlot comes from the installed package, byte for byte', async () => {
    const dist = (name: string) => createRequire(import.meta.url).resolve(`uplot/dist/${name}`);
    for (const name of ['uPlot.esm.js', 'uPlot.min.css']) {
      const res = await app.inject({ url: `/account/vendor/${name}` });
      expect(res.rawPayload.equals(await readFile(dist(name)))).toBe(true);
    }
  });

  it('no other path under /account/ is served without a key', async () => {
    for (const url of ['/account/index.html', '/account/vendor/uPlot.cjs.js', '/account/../package.json', '/account/vendor/']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized' });
    }
  });
});

import { createServer, type Server } from 'node:net';
import { tcpRelay, type TcpRelay } from '../support/tcp-relay.ts';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AppDeps } from '../../api/app.ts';
import { startServer } from '../../api/server.ts';
import { createRateLimiter, RATE_LIMIT_PER_WINDOW, RATE_LIMIT_WINDOW_MS } from '../../io/access/rate-limit-window.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

const RATE_LIMITED = { error: 'rate limit exceeded: 1000 requests per 60 seconds per API key', code: 'rate_limited' };

let env: TestEnv;
let pool: pg.Pool;
const connections: Redis[] = [];
const apps: FastifyInstance[] = [];

/** An API connection (no offline queue: commands before it is ready fail, so tests wait for it). */
function redis(url = env.config.redisUrl): Redis {
  const connection = createApiRedis(url);
  connections.push(connection);
  return connection;
}
async function readyRedis(): Promise<Redis> {
  const connection = redis();
  expect(await redisReady(connection, 5000)).toBe(true);
  return connection;
}

async function newApp(deps: Partial<AppDeps> & { limit?: number } = {}): Promise<FastifyInstance> {
  const { limit, ...rest } = deps;
  const config = limit === undefined ? env.config : { ...env.config, rateLimitPerMinute: limit };
  const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 60_000 });
  const app = await buildApp({ config, pool, releases, logger: false, ...rest });
  app.get('/test/ok', async () => ({ ok: true }));
  apps.push(app);
  return app;
}

const newKey = async (accountId?: string) => (await createKey(pool, accountId ? { accountId, plan: 'indie' } : {})).key;
const get = (app: FastifyInstance, key: string, url = '/test/ok') => app.inject({ url, headers: { authorization: `Bearer ${key}` } });

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function logCollector(): { logger: object; messages: () => { level: number; msg: string; unlimitedRequests?: number }[] } {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  return { logger: { level: 'info', stream }, messages: () => lines.map((l) => JSON.parse(l)) };
}

/** The test Redis behind a relay that can be cut and restored on the same port. */
async function redisRelay(): Promise<TcpRelay> {
  const target = new URL(env.config.redisUrl);
  return tcpRelay(target.hostname, Number(target.port || 6379));
}

beforeAll(async () => {
  // The spec's limit, which the shared test environment raises for every other suite.
  env = await createTestEnv('rate_limit', { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_WINDOW) });
  pool = createPool(env.config.databaseUrl, 4);
  expect(env.config.rateLimitPerMinute).toBe(1000);
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  for (const c of connections) c.disconnect();
  await pool?.end();
  await env?.cleanup();
});

describe('the limiter (engines/access/rate-limit.ts) against Redis', () => {
  it('admits exactly the limit within one window, then refuses until the first admission leaves it', async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ redis: await readyRedis(), prefix: env.config.redisPrefix, now: () => now });
    expect([limiter.limit, limiter.windowMs]).toEqual([1000, 60_000]);
    for (let i = 0; i < 1000; i++) {
      expect((await limiter.hit('exact')).allowed).toBe(true);
      now += 1;
    }
    // 1,000 admissions at 1,000,000 … 1,000,999; now 1,001,000.
    expect(await limiter.hit('exact')).toEqual({ allowed: false, retryAfterMs: 59_000 });
    now = 1_000_000 + RATE_LIMIT_WINDOW_MS - 1;
    expect(await limiter.hit('exact')).toEqual({ allowed: false, retryAfterMs: 1 });
    now = 1_000_000 + RATE_LIMIT_WINDOW_MS;
    expect(await limiter.hit('exact')).toEqual({ allowed: true, retryAfterMs: 0 });
    expect((await limiter.hit('exact')).allowed).toBe(false);
    expect((await limiter.hit('another key')).allowed).toBe(true);
  });

  it('slides: each admission frees its slot exactly one window later; refusals take no slot', async () => {
    let now = 0;
    const limiter = createRateLimiter({ redis: await readyRedis(), prefix: env.config.redisPrefix, limit: 3, windowMs: 1000, now: () => now });
    const at = async (t: number) => { now = t; return limiter.hit('slide'); };
    for (const t of [0, 400, 800]) expect((await at(t)).allowed).toBe(true);
    expect(await at(900)).toEqual({ allowed: false, retryAfterMs: 100 });
    expect(await at(999)).toEqual({ allowed: false, retryAfterMs: 1 });
    expect((await at(1000)).allowed).toBe(true);
    expect(await at(1100)).toEqual({ allowed: false, retryAfterMs: 300 });
    expect((await at(1400)).allowed).toBe(true);
    expect((await at(1800)).allowed).toBe(true);
    expect((await at(1801)).allowed).toBe(false);
    // A quiet key starts over.
    expect((await at(10_000)).allowed).toBe(true);
  });

  it('decides the requests of one turn (one script call) in arrival order, each key on its own', async () => {
    const limiter = createRateLimiter({ redis: await readyRedis(), prefix: env.config.redisPrefix, limit: 2, now: () => 42 });
    const decisions = await Promise.all(['b', 'c', 'b', 'b', 'c', 'b', 'c'].map((k) => limiter.hit(k)));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, true, false, false]);
    expect(decisions[3]).toEqual({ allowed: false, retryAfterMs: 60_000 });
  });

  it('agrees exactly across connections hitting one key at once (Redis clock)', async () => {
    const limiters = [await readyRedis(), await readyRedis(), await readyRedis()].map((r) => createRateLimiter({ redis: r, prefix: env.config.redisPrefix, limit: 500 }));
    const decisions = await Promise.all(Array.from({ length: 800 }, (_, i) => limiters[i % 3]!.hit('shared')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(500);
    for (const d of decisions.filter((d) => !d.allowed)) expect(d.retryAfterMs).toBeGreaterThan(59_000);
  });

  it('keeps the log to the limit and expires an idle key after one window', async () => {
    const r = await readyRedis();
    const limiter = createRateLimiter({ redis: r, prefix: env.config.redisPrefix, limit: 5, windowMs: 200 });
    for (let i = 0; i < 8; i++) await limiter.hit('ttl');
    const key = `${env.config.redisPrefix}:rate-limit:ttl`;
    expect(await r.llen(key)).toBe(5);
    expect(await r.pttl(key)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await r.exists(key)).toBe(0);
  });
});

describe('the API (1,000 requests per 60 s per key)', () => {
  it('two API instances sharing Redis admit exactly 1,000 of 1,200 concurrent requests; the rest get the 429', async () => {
    const [a, b] = await Promise.all([newApp({ redis: await readyRedis() }), newApp({ redis: await readyRedis() })]);
    const founderKey = await newKey(); // no account: limited too (every key on every plan)
    const answers = await Promise.all(Array.from({ length: 1200 }, (_, i) => get(i % 2 ? a : b, founderKey)));
    const ok = answers.filter((r) => r.statusCode === 200);
    const limited = answers.filter((r) => r.statusCode === 429);
    expect([ok.length, limited.length]).toEqual([1000, 200]);
    for (const res of limited) {
      expect(res.json()).toEqual(RATE_LIMITED);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    // Both instances admitted some, and both now refuse.
    const admittedBy = (parity: number) => answers.filter((r, i) => i % 2 === parity && r.statusCode === 200).length;
    expect(admittedBy(0)).toBeGreaterThan(0);
    expect(admittedBy(1)).toBeGreaterThan(0);
    expect((await get(a, founderKey)).statusCode).toBe(429);
    expect((await get(b, founderKey)).statusCode).toBe(429);
  });

  it('limits each key on its own; public routes, 401s and unserved paths follow the rules', async () => {
    const app = await newApp({ redis: await readyRedis(), limit: 3 });
    const [k1, k2] = [await newKey('acct_rl_1'), await newKey('acct_rl_2')];
    expect((await get(app, k1)).statusCode).toBe(200);
    // An unserved path is a request of the key like any other: it counts, and is refused when over.
    expect((await get(app, k1, '/no/such/path')).statusCode).toBe(404);
    expect((await get(app, k1, '/bad%zzpath')).statusCode).toBe(404);
    const over = await get(app, k1);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: 'rate limit exceeded: 3 requests per 60 seconds per API key', code: 'rate_limited' });
    expect((await get(app, k1, '/no/such/path')).statusCode).toBe(429);
    expect((await get(app, k1, '/bad%zzpath')).statusCode).toBe(429);
    // Another key of another account is untouched.
    for (let i = 0; i < 3; i++) expect((await get(app, k2)).statusCode).toBe(200);
    // The keyless metadata route is never limited, whatever key comes along.
    expect((await get(app, k1, '/.well-known/oauth-protected-resource')).statusCode).toBe(200);
    // Authentication comes first: no key, or a bad one, is 401 and takes nothing from anyone.
    expect((await app.inject('/test/ok')).statusCode).toBe(401);
    expect((await get(app, 'cmk_not_a_key')).statusCode).toBe(401);
    // A browser preflight needs no key and is not limited.
    const preflight = await app.inject({
      method: 'OPTIONS', url: '/test/ok', headers: { origin: 'https://maps.example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
  });

  it('lets a key in again once the window has slid past its requests', async () => {
    let now = 5_000_000;
    const app = await newApp({ redis: await readyRedis(), limit: 3, rateLimit: { now: () => now } });
    const key = await newKey();
    for (let i = 0; i < 3; i++) {
      expect((await get(app, key)).statusCode).toBe(200);
      now += 10_000;
    }
    expect((await get(app, key)).statusCode).toBe(429);
    now = 5_000_000 + 60_000;
    expect((await get(app, key)).statusCode).toBe(200);
    expect((await get(app, key)).statusCode).toBe(429);
    now = 5_000_000 + 70_000;
    expect((await get(app, key)).statusCode).toBe(200);
  });
});

describe('Redis unavailable: the limit fails open', () => {
  let silent: Server;
  afterAll(() => silent?.close());

  it('answers at once when nothing listens on the Redis port, warning once per interval', async () => {
    const logs = logCollector();
    const app = await newApp({ redis: redis(`redis://127.0.0.1:${await closedPort()}`), limit: 1, logger: logs.logger });
    const key = await newKey();
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect((await get(app, key)).statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(2000);
    const warnings = logs.messages().filter((m) => m.msg.startsWith('rate limit not enforced'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
  });

  it('does not hang on a Redis that accepts connections but never answers', async () => {
    // Answers the client's handshake (CLIENT SETINFO ×2, then the ready check's INFO) with empty
    // replies, and nothing after it.
    silent = createServer((socket) => {
      let handshake = 3;
      socket.on('data', (data) => {
        const commands = Math.min(handshake, String(data).match(/^\*\d+\r$/gm)?.length ?? 0);
        handshake -= commands;
        socket.write('$0\r\n\r\n'.repeat(commands));
      });
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const connection = redis(`redis://127.0.0.1:${(silent.address() as { port: number }).port}`);
    expect(await redisReady(connection, 2000)).toBe(true);
    const logs = logCollector();
    const app = await newApp({ redis: connection, limit: 1, logger: logs.logger, rateLimit: { warnEveryMs: 0 } });
    const key = await newKey();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(app, key)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(performance.now() - started).toBeLessThan(2000);
    const warnings = logs.messages().filter((m) => m.msg.startsWith('rate limit not enforced')) as { err?: { message: string } }[];
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]!.err?.message).toMatch(/timed out/);
  });

  it('enforces the limit again, with the same log, once Redis is back', async () => {
    const relay = await redisRelay();
    const connection = redis(`redis://127.0.0.1:${relay.port}`);
    expect(await redisReady(connection, 5000)).toBe(true);
    const logs = logCollector();
    const app = await newApp({ redis: connection, limit: 2, logger: logs.logger });
    const key = await newKey();
    expect([(await get(app, key)).statusCode, (await get(app, key)).statusCode, (await get(app, key)).statusCode]).toEqual([200, 200, 429]);
    await relay.cut();
    expect((await get(app, key)).statusCode).toBe(200);
    expect((await get(app, key)).statusCode).toBe(200);
    await relay.restore();
    expect(await redisReady(connection, 5000)).toBe(true);
    expect((await get(app, key)).statusCode).toBe(429);
    const messages = logs.messages().map((m) => m.msg);
    expect(messages.filter((m) => m.startsWith('rate limit not enforced'))).toHaveLength(1);
    expect(logs.messages().find((m) => m.msg.startsWith('rate limit enforced again'))).toMatchObject({ unlimitedRequests: 1 });
  });

  it('canmap serve starts and serves while Redis is down', async () => {
    const server = await startServer({ ...env.config, redisUrl: `redis://127.0.0.1:${await closedPort()}`, rateLimitPerMinute: 1 }, { logger: false });
    try {
      const key = await newKey();
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${server.url}/.well-known/api-catalog`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
      }
    } finally {
      await server.close();
    }
  });
});

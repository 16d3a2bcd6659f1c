import net from 'node:net';
import { Writable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

interface LogLine { msg: string; reqId?: string; url?: string; statusCode?: number; [field: string]: unknown }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LIMIT = 3;

let env: TestEnv;
let pool: Pool;
let redis: Redis;
let app: FastifyInstance;
let origin: string;
let raw = '';
const lines = (): LogLine[] => raw.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as LogLine);

/** The one request line whose reqId is `id` (log writes may trail the answer). */
async function requestLineOf(id: string, msg = 'request'): Promise<LogLine> {
  for (let i = 0; i < 300; i += 1) {
    const found = lines().filter((l) => l.msg === msg && l.reqId === id);
    if (found.length === 1) return found[0]!;
    if (found.length > 1) throw new Error(`${found.length} lines of ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no ${msg} line with reqId ${id} in:\n${raw}`);
}

/** A key of its own, so the rate limit (LIMIT a minute) never refuses a case by accident. */
const freshKey = async () => (await createKey(pool, {})).key;

beforeAll(async () => {
  env = await createTestEnv('request_id', { RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  pool = createPool(env.config.databaseUrl, 2);
  redis = createApiRedis(env.config.redisUrl);
  expect(await redisReady(redis, 5000)).toBe(true);
  const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      raw += chunk.toString('utf8');
      callback();
    },
  });
  app = await buildApp({ config: env.config, pool, releases, redis, logger: { level: 'info', stream } });
  app.post('/test/json', { schema: { body: Type.Object({ name: Type.String() }) } }, async (request) => request.body);
  app.get('/test/boom', async () => {
    throw new Error('boom');
  });
  app.post('/test/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { ok: true };
  });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  redis?.disconnect();
  await pool?.end();
  await env?.cleanup();
});
beforeEach(() => {
  raw = '';
});

describe('X-Request-Id', () => {
  it('echoes a sane id the caller sends, and the request\'s log line carries it', async () => {
    for (const id of ['trace-01.abc:Z9', 'a', 'x'.repeat(128), '4bf92f3577b34da6a3ce929d0e0e4736']) {
      const res = await fetch(`${origin}/openapi.json`, { headers: { authorization: `Bearer ${await freshKey()}`, 'x-request-id': id } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe(id);
      await res.arrayBuffer();
      expect(await requestLineOf(id)).toMatchObject({ url: '/openapi.json', statusCode: 200 });
    }
  });

  it('generates one (a UUID) when none is sent, the same in the answer and the log line', async () => {
    const res = await fetch(`${origin}/openapi.json`, { headers: { authorization: `Bearer ${await freshKey()}` } });
    await res.arrayBuffer();
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    expect(await requestLineOf(id)).toMatchObject({ statusCode: 200 });
    const again = await fetch(`${origin}/openapi.json`, { headers: { authorization: `Bearer ${await freshKey()}` } });
    expect(again.headers.get('x-request-id')).toMatch(UUID);
    expect(again.headers.get('x-request-id')).not.toBe(id);
  });

  it('replaces an id that is not sane (too long, spaces, a newline, other characters, empty) with a new one', async () => {
    for (const insane of ['x'.repeat(129), 'has space', 'line\nbreak', 'tab\there', '<script>', 'é-accent', '', 'a,b']) {
      const res = await app.inject({ method: 'GET', url: '/no-such-path', headers: { authorization: `Bearer ${await freshKey()}`, 'x-request-id': insane } });
      expect(res.statusCode).toBe(404);
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(UUID);
      expect(raw).not.toContain(JSON.stringify(insane).slice(1, -1) || '"reqId":""');
      expect(await requestLineOf(id)).toMatchObject({ statusCode: 404 });
    }
  });

  it('is on refusals and error answers: 400, 401, 404 (routed and unroutable), 413, 429, 500, a CORS preflight', async () => {
    const cases: { name: string; status: number; send: (id: string) => Promise<Response> }[] = [
      { name: '401 no key', status: 401, send: (id) => fetch(`${origin}/openapi.json`, { headers: { 'x-request-id': id } }) },
      { name: '404 unserved', status: 404, send: async (id) => fetch(`${origin}/nowhere`, { headers: { authorization: `Bearer ${await freshKey()}`, 'x-request-id': id } }) },
      { name: '404 unroutable', status: 404, send: async (id) => fetch(`${origin}/%E0%A4%A`, { headers: { authorization: `Bearer ${await freshKey()}`, 'x-request-id': id } }) },
      { name: '400 invalid body', status: 400, send: async (id) => fetch(`${origin}/test/json`, {
        method: 'POST', body: '{"nom": "x"}', headers: { authorization: `Bearer ${await freshKey()}`, 'content-type': 'application/json', 'x-request-id': id },
      }) },
      { name: '413 body too large', status: 413, send: async (id) => fetch(`${origin}/test/json`, {
        method: 'POST', body: JSON.stringify({ name: 'x'.repeat(2 << 20) }), headers: { authorization: `Bearer ${await freshKey()}`, 'content-type': 'application/json', 'x-request-id': id },
      }) },
      { name: '500 unhandled', status: 500, send: async (id) => fetch(`${origin}/test/boom`, { headers: { authorization: `Bearer ${await freshKey()}`, 'x-request-id': id } }) },
      { name: 'CORS preflight', status: 204, send: (id) => fetch(`${origin}/openapi.json`, {
        method: 'OPTIONS', headers: { origin: 'https://example.com', 'access-control-request-method': 'GET', 'x-request-id': id },
      }) },
    ];
    for (const [i, c] of cases.entries()) {
      const id = `case-${i}`;
      const res = await c.send(id);
      await res.arrayBuffer();
      expect([c.name, res.status, res.headers.get('x-request-id')]).toEqual([c.name, c.status, id]);
      expect(await requestLineOf(id)).toMatchObject({ statusCode: c.status });
    }
    const key = await freshKey();
    let limited: Response | undefined;
    for (let i = 0; i <= LIMIT; i += 1) limited = await fetch(`${origin}/openapi.json`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': `limit-${i}` } });
    expect(limited!.status).toBe(429);
    expect(limited!.headers.get('x-request-id')).toBe(`limit-${LIMIT}`);
  });

  it('a browser may send it and read it (CORS)', async () => {
    const preflight = await fetch(`${origin}/openapi.json`, {
      method: 'OPTIONS', headers: { origin: 'https://example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-request-id' },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/X-Request-Id/);
    const res = await fetch(`${origin}/openapi.json`, { headers: { origin: 'https://example.com', authorization: `Bearer ${await freshKey()}` } });
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/);
  });

  it('an aborted request\'s log line carries the id it was sent with', async () => {
    const socket = net.connect(Number(new URL(origin).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /test/slow?key=${await freshKey()} HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: gone-away\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    expect(await requestLineOf('gone-away', 'request aborted')).toMatchObject({ aborted: true });
  });
});

import net from 'node:net';
import { Writable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

interface LogLine { level: number; msg: string; reqId?: string; [field: string]: unknown }

let env: TestEnv;
let pool: pg.Pool;
let app: FastifyInstance;
let origin: string;
let key: string;
let raw = '';
const lines = (): LogLine[] => raw.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as LogLine);

/** Waits until the captured log holds a line matching `predicate` (log writes may trail the response). */
async function lineWhere(predicate: (line: LogLine) => boolean): Promise<LogLine> {
  for (let i = 0; i < 200; i += 1) {
    const found = lines().find(predicate);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no such log line in:\n${raw}`);
}

beforeAll(async () => {
  env = await createTestEnv('api_logging');
  pool = createPool(env.config.databaseUrl, 2);
  const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
  // The pino destination: every line the API writes lands in `raw`.
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      raw += chunk.toString('utf8');
      callback();
    },
  });
  app = await buildApp({ config: env.config, pool, releases, logger: { level: 'info', stream } });
  app.post('/test/json', { schema: { body: Type.Object({ name: Type.String() }) } }, async (request) => request.body);
  app.get('/test/boom', async () => {
    throw new Error('database password is hunter2');
  });
  app.post('/test/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { ok: true };
  });
  key = (await createKey(pool, {})).key;
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await pool?.end();
  await env?.cleanup();
});
beforeEach(() => {
  raw = '';
});

describe('request log', () => {
  it('writes one line per request, when answered: method, url, status, response time', async () => {
    const res = await fetch(`${origin}/openapi.json`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const line = await lineWhere((l) => l.msg === 'request');
    expect(lines()).toHaveLength(1);
    expect(line).toMatchObject({ level: 30, method: 'GET', url: '/openapi.json', statusCode: 200, reqId: expect.any(String) });
    expect(line.responseTime).toEqual(expect.any(Number));
    expect(raw).not.toContain('incoming request');
    expect(raw).not.toContain('request completed');
  });

  it('refused, unserved and failing requests get their one line too (a 500 adds its error)', async () => {
    for (const [path, status] of [['/openapi.json', 401], ['/nowhere', 404], ['/%E0%A4%A', 404]] as const) {
      raw = '';
      const headers: Record<string, string> = status === 401 ? {} : { authorization: `Bearer ${key}` };
      expect((await fetch(`${origin}${path}`, { headers })).status).toBe(status);
      await lineWhere((l) => l.msg === 'request');
      expect(lines()).toEqual([expect.objectContaining({ level: 30, url: path, statusCode: status })]);
    }
    raw = '';
    expect((await fetch(`${origin}/test/boom`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(500);
    await lineWhere((l) => l.msg === 'request');
    expect(lines().map((l) => [l.level, l.msg])).toEqual([[50, 'unhandled error'], [30, 'request']]);
  });

  it('never logs an API key given as key=', async () => {
    const res = await fetch(`${origin}/openapi.json?lang=en&key=${key}&x=1`);
    expect(res.status).toBe(200);
    const line = await lineWhere((l) => l.msg === 'request');
    expect(line.url).toBe('/openapi.json?lang=en&key=[redacted]&x=1');
    expect(raw).not.toContain(key);
  });

  it('never logs a dashboard login token given as token=', async () => {
    raw = '';
    const token = 'cml_not-a-real-token-but-secret-all-the-same';
    expect((await fetch(`${origin}/account/login?token=${token}`)).status).toBe(401);
    const line = await lineWhere((l) => l.msg === 'request');
    expect(line.url).toBe('/account/login?token=[redacted]');
    expect(raw).not.toContain(token);
  });

  it('redacts by the decoded parameter name: a percent-encoded key or token is redacted too', async () => {
    const res = await fetch(`${origin}/openapi.json?%6Bey=${key}&x=%6Bey`);
    expect(res.status).toBe(200);
    const line = await lineWhere((l) => l.msg === 'request');
    expect(line.url).toBe('/openapi.json?%6Bey=[redacted]&x=%6Bey');
    expect(raw).not.toContain(key);

    raw = '';
    const token = 'cml_percent-encoded-token-name';
    expect((await fetch(`${origin}/account/login?%74oken=${token}`)).status).toBe(401);
    expect((await lineWhere((l) => l.msg === 'request')).url).toBe('/account/login?%74oken=[redacted]');
    expect(raw).not.toContain(token);
  });

  it('a client that aborts mid-body is one info line without a stack, never an error', async () => {
    await abandon(`POST /test/json?key=${key}`, 1000, '{"name": "abc');
    const line = await lineWhere((l) => l.msg === 'request aborted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(line).toMatchObject({ level: 30, method: 'POST', url: '/test/json?key=[redacted]', aborted: true });
    expect(raw).not.toContain('stack');
    expect(lines().filter((l) => l.level >= 40)).toEqual([]);
    expect(lines()).toHaveLength(1);
  });

  it('a client that leaves while its request is being worked on is that same one line', async () => {
    await abandon(`POST /test/slow?key=${key}`, 2, '{}');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lines()).toEqual([expect.objectContaining({ level: 30, msg: 'request aborted', url: '/test/slow?key=[redacted]' })]);
  });
});

/** Sends a request's head and `sent` of its body on a raw socket, then closes the connection. */
async function abandon(requestLine: string, contentLength: number, sent: string): Promise<void> {
  const socket = net.connect(Number(new URL(origin).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`${requestLine} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n${sent}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.destroy();
}

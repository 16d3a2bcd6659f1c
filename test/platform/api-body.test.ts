import { gzipSync } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: pg.Pool;
let app: FastifyInstance;
let key: string;

beforeAll(async () => {
  env = await createTestEnv('api_body', { MATRIX_ENABLED: '1' });
  pool = createPool(env.config.databaseUrl, 2);
  const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
  app = await buildApp({ config: env.config, pool, releases, logger: false });
  // Echoes the parsed body, so whatever survived parsing is visible in the answer.
  app.post('/test/echo', {
    schema: { body: Type.Object({ name: Type.String(), queries: Type.Optional(Type.Array(Type.Object({ q: Type.String() }))) }) },
  }, async (request) => request.body);
  key = (await createKey(pool, {})).key;
});
afterAll(async () => {
  await app?.close();
  await pool?.end();
  await env?.cleanup();
});

const post = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
  } satisfies InjectOptions);

const UNSUPPORTED_TYPE = (type: string) => ({ error: `unsupported content type "${type}": send application/json`, code: 'unsupported_media_type' });

describe('JSON bodies with __proto__ or constructor keys', () => {
  it.each([
    ['top level', '{"__proto__": {"polluted": 1}, "name": "a"}', { name: 'a' }],
    ['nested in an array', '{"name": "a", "queries": [{"q": "x", "__proto__": {"polluted": 1}}]}', { name: 'a', queries: [{ q: 'x' }] }],
    ['constructor.prototype', '{"name": "a", "constructor": {"prototype": {"polluted": 1}}}', { name: 'a' }],
  ])('%s: parsed without the key and answered like any body', async (_where, payload, echoed) => {
    const res = await post('/test/echo', payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(echoed);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('a member given only through __proto__ is missing, as the schema says', async () => {
    const res = await post('/test/echo', '{"__proto__": {"name": "a"}}');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'name is required' });
  });

  it('POST /geocode/batch judges such a body by its schema (503 here: no geocoding release is enabled)', async () => {
    const top = await post('/geocode/batch', '{"queries": ["x"], "__proto__": {"a": 1}}');
    expect(top.statusCode).toBe(503);
    expect(top.json()).toMatchObject({ code: 'service_unavailable', retryable: true });
    const nested = await post('/geocode/batch', '{"queries": [{"q": "x", "__proto__": {"a": 1}}]}');
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toEqual({ error: 'queries[0] must be a string' });
    expect(Object.prototype).not.toHaveProperty('a');
  });

  it('malformed and empty bodies stay 400 body is not valid JSON', async () => {
    for (const payload of ['{"name": ', '', '{"__proto__": ']) {
      const res = await post('/test/echo', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'body is not valid JSON' });
    }
  });
});

describe('Content-Type', () => {
  it.each(['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/jsonx', 'text/json', 'multipart/form-data; boundary=x'])(
    '%s → 415 with a JSON body, on every body route',
    async (type) => {
      for (const url of ['/test/echo', '/geocode/batch']) {
        const res = await post(url, '{"name": "a", "queries": ["x"]}', { 'content-type': type });
        expect(res.statusCode).toBe(415);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toEqual(UNSUPPORTED_TYPE(type.split(';')[0]!));
      }
    },
  );

  it('a body without any Content-Type → 415', async () => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', payload: '{"name": "a"}', headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: 'missing content type: send application/json', code: 'unsupported_media_type' });
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON; charset="UTF-8"', 'application/merge-patch+json', 'application/vnd.api+json; charset=utf-8'])(
    '%s is JSON',
    async (type) => {
      const res = await post('/test/echo', '{"name": "é"}', { 'content-type': type });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'é' });
    },
  );

  it('JSON declared in another charset than UTF-8 → 415', async () => {
    const res = await post('/test/echo', '{"name": "a"}', { 'content-type': 'application/json; charset=iso-8859-1' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: 'unsupported charset "iso-8859-1": send UTF-8 JSON', code: 'unsupported_media_type' });
  });
});

describe('bytes that are not UTF-8', () => {
  // A lone continuation byte, an overlong encoding and a truncated sequence: none is UTF-8.
  const invalid = [Buffer.from('{"name": "a\x80"}', 'latin1'), Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), Buffer.from('{"name": "\xe2\x82"}', 'latin1')];

  it.each(invalid.map((b) => [b.toString('hex'), b]))('%s → 400, never read with replacement characters', async (_hex, payload) => {
    const res = await post('/test/echo', payload as Buffer);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'body is not valid UTF-8: send UTF-8 JSON' });
  });

  it('POST /geocode/batch with a query that is not UTF-8 is refused, not searched', async () => {
    const res = await post('/geocode/batch', Buffer.concat([Buffer.from('{"queries": [{"q": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}]}')]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'body is not valid UTF-8: send UTF-8 JSON' });
  });

  it('a routing body that is not UTF-8 is invalid_body, naming the encoding', async () => {
    const res = await post('/match', Buffer.concat([Buffer.from('{"points": [[-123.1, 49.2], [-123.2, 49.3]], "mode": "'), Buffer.from([0xe9]), Buffer.from('"}')]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'body is not valid UTF-8: send UTF-8 JSON', code: 'invalid_body' });
  });

  it('UTF-8 beyond ASCII is read as sent', async () => {
    const res = await post('/test/echo', Buffer.from('{"name": "Montréal – ᐃᓄᒃᑎᑐᑦ 🍁"}', 'utf8'));
    expect(res.json()).toEqual({ name: 'Montréal – ᐃᓄᒃᑎᑐᑦ 🍁' });
  });
});

describe('Content-Encoding', () => {
  const body = '{"name": "a", "queries": [{"q": "x"}]}';

  it.each([
    ['a plain body labelled gzip', Buffer.from(body), 'gzip', 'gzip'],
    ['a real gzip body', gzipSync(body), 'gzip', 'gzip'],
    ['deflate', Buffer.from(body), 'deflate', 'deflate'],
    ['a chain of codings', Buffer.from(body), 'gzip, br', 'gzip, br'],
  ])('%s → 415, naming the coding and offering identity', async (_what, payload, coding, named) => {
    const res = await post('/test/echo', payload, { 'content-encoding': coding });
    expect(res.statusCode).toBe(415);
    expect(res.headers['accept-encoding']).toBe('identity');
    expect(res.json()).toEqual({ error: `unsupported content encoding "${named}": send the body uncompressed`, code: 'unsupported_media_type' });
  });

  it.each(['/match', '/matrix', '/optimized-route', '/geocode/batch'])('%s: a coded body is the same 415 as on every JSON route', async (path) => {
    const res = await post(path, gzipSync('{"points": [[-123.1, 49.2], [-123.2, 49.3]]}'), { 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(415);
    expect(res.headers['accept-encoding']).toBe('identity');
    expect(res.json()).toEqual({ error: 'unsupported content encoding "gzip": send the body uncompressed', code: 'unsupported_media_type' });
  });

  it('identity is no encoding at all', async () => {
    const res = await post('/test/echo', body, { 'content-encoding': 'identity' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'a', queries: [{ q: 'x' }] });
  });
});

describe('an unserved path stays the plain-text 404 whatever its body', () => {
  it.each([
    ['text', 'text/plain', 'hello', {}],
    ['bad JSON', 'application/json', '{"name": ', {}],
    ['__proto__', 'application/json', '{"__proto__": {"a": 1}}', {}],
    ['gzip', 'application/json', gzipSync('{}'), { 'content-encoding': 'gzip' }],
    ['latin1', 'application/json; charset=latin1', '{}', {}],
    ['a malformed Content-Type', 'bad type', '{}', {}],
  ])('%s', async (_what, type, payload, headers) => {
    const res = await post('/nowhere', payload, { 'content-type': type, ...headers });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('Not Found');
  });
});

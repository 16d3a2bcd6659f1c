import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { Refusal } from '../../lib/errors.ts';
import { startServer, type RunningServer } from '../../api/server.ts';
import { ERROR_MESSAGE_KEYWORD } from '../../schemas/common.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: pg.Pool;
let app: FastifyInstance;
let key: string;
const auth = () => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  env = await createTestEnv('api_http');
  pool = createPool(env.config.databaseUrl, 4);
  const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
  app = await buildApp({ config: env.config, pool, releases, logger: false });
  // Test-only routes exercising the shared error handling.
  app.post('/test/json', { schema: { body: Type.Object({ name: Type.String() }) } }, async (request) => request.body);
  app.get('/test/params', {
    schema: {
      querystring: Type.Object({
        radius: Type.Integer({ minimum: 50, maximum: 10000 }),
        mode: Type.Optional(Type.Union([Type.Literal('walk'), Type.Literal('bike')])),
        date: Type.Optional(Type.String({ pattern: '^\\d{8}$', [ERROR_MESSAGE_KEYWORD]: 'must be a date YYYYMMDD' })),
        lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
      }),
    },
  }, async (request) => request.query);
  app.get('/test/boom', async () => {
    throw new Error('database password is hunter2');
  });
  app.get('/test/plain', async () => {
    throw new Refusal(400, 'invalid tile coordinates', { plainText: true });
  });
  key = (await createKey(pool, {})).key;
});
afterAll(async () => {
  await app?.close();
  await pool?.end();
  await env?.cleanup();
});

describe('error handler', () => {
  it.each([
    ['radius=5', 'radius must be an integer between 50 and 10000'],
    ['radius=abc', 'radius must be an integer between 50 and 10000'],
    ['radius=100.5', 'radius must be an integer between 50 and 10000'],
    ['', 'radius is required'],
    ['radius=100&mode=car', 'mode must be one of walk, bike'],
    ['radius=100&date=2026-01-01', 'date must be a date YYYYMMDD'],
    ['radius=100&lat=91', 'lat must be a number between -90 and 90'],
  ])('?%s → 400 naming the parameter', async (query, message) => {
    const res = await app.inject({ url: `/test/params?${query}`, headers: auth() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });

  it.each([
    ['radius=0x64', 'radius must be an integer between 50 and 10000'],
    ['radius=1e2', 'radius must be an integer between 50 and 10000'],
    ['radius=100.0', 'radius must be an integer between 50 and 10000'],
    ['radius=1e999', 'radius must be an integer between 50 and 10000'],
    ['radius=%20100', 'radius must be an integer between 50 and 10000'],
    ['radius=%2B100', 'radius must be an integer between 50 and 10000'],
    ['radius=', 'radius must be an integer between 50 and 10000'],
    [`radius=1${'0'.repeat(400)}`, 'radius must be an integer between 50 and 10000'],
    ['radius=100&radius=0x64', 'radius must be an integer between 50 and 10000'],
    ['radius=100&lat=1e1', 'lat must be a number between -90 and 90'],
    ['radius=100&lat=0x10', 'lat must be a number between -90 and 90'],
    ['radius=100&lat=.5', 'lat must be a number between -90 and 90'],
    ['radius=100&lat=Infinity', 'lat must be a number between -90 and 90'],
  ])('?%s → 400: numbers must be plain decimals, not what type coercion accepts', async (query, message) => {
    const res = await app.inject({ url: `/test/params?${query}`, headers: auth() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });

  it('the app routes get the same check (transit: 400 before its release is even looked at)', async () => {
    const res = await app.inject({ url: '/transit/stops?near=-73.5,45.5&radius=1e3', headers: auth() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'radius must be an integer between 50 and 10000' });
    const valid = await app.inject({ url: '/transit/stops?near=-73.5,45.5&radius=1000', headers: auth() });
    expect(valid.statusCode).toBe(503); // nothing enabled in this database
  });

  it('plain decimals pass, negative ones included', async () => {
    const res = await app.inject({ url: '/test/params?radius=0100&lat=-45.25', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ radius: 100, lat: -45.25 });
  });

  it('valid parameters pass, coerced', async () => {
    const res = await app.inject({ url: '/test/params?radius=100&mode=walk&lat=45.5', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ radius: 100, mode: 'walk', lat: 45.5 });
  });

  it('malformed JSON body → 400 body is not valid JSON', async () => {
    const res = await app.inject({ method: 'POST', url: '/test/json', headers: { ...auth(), 'content-type': 'application/json' }, payload: '{"name": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'body is not valid JSON' });
  });

  it('an empty JSON body is not valid JSON either', async () => {
    const res = await app.inject({ method: 'POST', url: '/test/json', headers: { ...auth(), 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'body is not valid JSON' });
  });

  it('a body with a __proto__ key is valid JSON: parsed without that key (test/platform/api-body.test.ts)', async () => {
    const res = await app.inject({ method: 'POST', url: '/test/json', headers: { ...auth(), 'content-type': 'application/json' }, payload: '{"__proto__": {"x": 1}, "name": "a"}' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'a' });
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('a path not served stays a plain-text 404 whatever its body (bad JSON, too large, unknown type)', async () => {
    const answers = await Promise.all([
      app.inject({ method: 'POST', url: '/transit/agencies', headers: { ...auth(), 'content-type': 'application/json' }, payload: '{' }),
      app.inject({ method: 'POST', url: '/nowhere', headers: { ...auth(), 'content-type': 'application/json' }, payload: '{"__proto__": {}}' }),
      app.inject({ method: 'POST', url: '/nowhere', headers: auth(), payload: { name: 'x'.repeat(1_100_000) } }),
      app.inject({ method: 'POST', url: '/nowhere', headers: { ...auth(), 'content-type': 'application/xml' }, payload: '<a/>' }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('Not Found');
    }
    const keyless = await app.inject({ method: 'POST', url: '/transit/agencies', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect(keyless.statusCode).toBe(401);
  });

  it('a body missing a member names it', async () => {
    const res = await app.inject({ method: 'POST', url: '/test/json', headers: auth(), payload: { other: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'name is required' });
  });

  it('body too large → 413, unsupported content type → 415', async () => {
    const big = await app.inject({ method: 'POST', url: '/test/json', headers: auth(), payload: { name: 'x'.repeat(1_100_000) } });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'request body too large', code: 'payload_too_large' });
    const xml = await app.inject({ method: 'POST', url: '/test/json', headers: { ...auth(), 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({ error: 'unsupported content type "application/xml": send application/json', code: 'unsupported_media_type' });
  });

  it('an unexpected failure is a 500 that discloses nothing', async () => {
    const res = await app.inject({ url: '/test/boom', headers: auth() });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal error' });
  });

  it('plain-text catalog errors stay plain text', async () => {
    const res = await app.inject({ url: '/test/plain', headers: auth() });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('invalid tile coordinates');
  });
});

describe('CORS', () => {
  it('answers a browser preflight without a key', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/openapi.json',
      headers: { origin: 'https://maps.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, X-API-Key, X-Goog-Api-Key, Content-Type, X-Request-Id');
    expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
  });

  it('exposes exactly Retry-After, ETag, Content-Length, Content-Range, Accept-Ranges and the optimization headers, also on a 401', async () => {
    const ok = await app.inject({ url: '/openapi.json', headers: { ...auth(), origin: 'https://maps.example.com' } });
    const denied = await app.inject({ url: '/openapi.json', headers: { origin: 'https://maps.example.com' } });
    for (const res of [ok, denied]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toBe('Retry-After, ETag, Content-Length, Content-Range, Accept-Ranges, X-Svc-Billable-Shipments, Warning, X-Request-Id');
    }
    expect(denied.statusCode).toBe(401);
  });

  const preflightFor = (url: string, method: string) => app.inject({
    method: 'OPTIONS',
    url,
    headers: { origin: 'https://maps.example.com', 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
  });
  const allowedMethods = (res: { headers: Record<string, unknown> }) => String(res.headers['access-control-allow-methods'] ?? '')
    .split(',').map((m) => m.trim()).filter((m) => m !== '').sort();

  it('a preflight allows exactly the methods the path serves', async () => {
    const byod = await preflightFor('/byod/abc', 'DELETE');
    expect(byod.statusCode).toBe(204);
    expect(allowedMethods(byod)).toEqual(['DELETE', 'GET', 'HEAD']);
    expect(allowedMethods(await preflightFor('/byod', 'POST'))).toEqual(['GET', 'HEAD', 'POST']);
    const agencies = await preflightFor('/transit/agencies?x=1', 'DELETE');
    expect(agencies.statusCode).toBe(204);
    expect(allowedMethods(agencies)).toEqual(['GET', 'HEAD']);
    // A route added after the app is built (as a new route file would be) is covered too.
    expect(allowedMethods(await preflightFor('/test/json', 'POST'))).toEqual(['POST']);
  });

  it('a preflight for a path served by no route allows no method, and is otherwise answered as usual', async () => {
    const res = await preflightFor('/no/such/path', 'DELETE');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, X-API-Key, X-Goog-Api-Key, Content-Type, X-Request-Id');
    expect(res.headers['access-control-max-age']).toBe('86400');
    expect(String(res.headers.vary)).toMatch(/\bOrigin\b/i);
  });

  it('a request without Origin (not a browser) gets no CORS headers but still Vary: Origin', async () => {
    const res = await app.inject({ url: '/openapi.json', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(res.headers.vary)).toMatch(/\bOrigin\b/i);
  });
});

describe('discovery documents', () => {
  it('oauth-protected-resource is readable without a key', async () => {
    const res = await app.inject('/.well-known/oauth-protected-resource');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      resource: 'http://api.canmap.test',
      bearer_methods_supported: ['header', 'query'],
      resource_name: 'canmap API',
      resource_documentation: 'http://api.canmap.test/openapi.json',
    });
  });

  it('api-catalog needs a key and is a linkset pointing at the OpenAPI document', async () => {
    expect((await app.inject('/.well-known/api-catalog')).statusCode).toBe(401);
    const res = await app.inject({ url: '/.well-known/api-catalog', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/linkset\+json/);
    expect(JSON.parse(res.body)).toEqual({
      linkset: [{
        anchor: 'http://api.canmap.test/',
        'service-desc': [{ href: 'http://api.canmap.test/openapi.json', type: 'application/vnd.oai.openapi+json;version=3.1' }],
      }],
    });
  });

  it('openapi.json needs a key and is a valid OpenAPI 3.1 document with the three key forms', async () => {
    expect((await app.inject('/openapi.json')).statusCode).toBe(401);
    const res = await app.inject({ url: '/openapi.json', query: { key } });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.components.securitySchemes).toEqual({
      bearerKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      headerKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      queryKey: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'key' }),
    });
    expect(doc.paths['/.well-known/oauth-protected-resource'].get.security).toEqual([]);
    expect(doc.paths['/test/params'].get.parameters.map((p: { name: string }) => p.name)).toContain('radius');
  });
});

describe('canmap serve pieces', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(env.config, { logger: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('listens for real, with auth before routing', async () => {
    const res = await fetch(`${server.url}/anything`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
    const ok = await fetch(`${server.url}/openapi.json`, { headers: auth() });
    expect(ok.status).toBe(200);
  });

  it('serves GET /healthz on the admin port without a key', async () => {
    const res = await fetch(`${server.adminUrl}/healthz`);
    expect(res.status).toBe(200);
    const body = await res.json() as { status: string; postgres: boolean; releases: Record<string, { state: string }> };
    expect(body.postgres).toBe(true);
    // Nothing is enabled in this database, so every registered kind is unavailable.
    expect(Object.keys(body.releases).length).toBeGreaterThan(0);
    expect(Object.values(body.releases).every((r) => r.state === 'unavailable')).toBe(true);
    // ...which is no reason to be out of service: the process is ready.
    expect(body.status).toBe('degraded');
    expect((await fetch(`${server.adminUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${server.adminUrl}/livez`)).status).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(401);
  });
});

import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentFailed } from '../../io/access/accounts.ts';
import { createKey, type CreateKeyInput } from '../../io/access/key-store.ts';
import { testCorpus } from '../support/geocoding-corpus.ts';
import { GeocodingApiStack } from '../support/geocoding-api-stack.ts';
import { connectMcp, toolErrorOf } from '../support/mcp-client.ts';

/*
 * The agent interface meets the same access rules as HTTP (issue #32 §1 and §3): the key at the
 * door, blocks, add-ons and the rate limit per tool call, refusals as tool errors with the HTTP
 * body, and metering of exactly the calls the endpoint's HTTP requests would count.
 */

const LIMIT = 20;
let stack: GeocodingApiStack;
let api: string;

beforeAll(async () => {
  stack = await GeocodingApiStack.create('mcp_access', { RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  await stack.start();
  const release = await stack.publishAndEnable(testCorpus());
  await stack.waitForRelease(release.id);
  api = stack.server!.url;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const MCP_ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const post = (headers: Record<string, string>, body: unknown = INITIALIZE) =>
  fetch(`${api}/mcp`, { method: 'POST', headers: { ...MCP_ACCEPT, ...headers }, body: JSON.stringify(body) });

async function keyOf(input: CreateKeyInput = {}): Promise<{ key: string; id: string }> {
  return createKey(stack.pool, input);
}

async function usageOf(keyId: string): Promise<Record<string, number>> {
  await stack.server!.app.meterJournal!.flush();
  const { rows } = await stack.pool.query<{ family: string; dev: boolean; calls: number }>(
    'SELECT family, dev, calls FROM usage_daily WHERE key_id = $1', [keyId]);
  return Object.fromEntries(rows.map((r) => [`${r.dev ? 'dev:' : ''}${r.family}`, Number(r.calls)]));
}

describe('the key at the door', () => {
  it('no key: 401 with the volume-1 body and the challenge pointing at the protected-resource metadata', async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'missing API key', code: 'unauthorized' });
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="api.canmap.test", resource_metadata="http://api.canmap.test/.well-known/oauth-protected-resource"');
    const metadata = await fetch(`${api}/.well-known/oauth-protected-resource`);
    expect(metadata.status).toBe(200);
  });

  it('a wrong key: 401 invalid_token; the SDK client fails to connect', async () => {
    const res = await post({ authorization: 'Bearer cmk_not-a-key' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(connectMcp(api, 'cmk_not-a-key')).rejects.toThrow(/401|nauthorized/);
  });

  it('the key in X-API-Key or ?key= works as on every path', async () => {
    expect((await post({ 'x-api-key': stack.key })).status).toBe(200);
    const res = await fetch(`${api}/mcp?key=${stack.key}`, { method: 'POST', headers: MCP_ACCEPT, body: JSON.stringify(INITIALIZE) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('canmap');
  });

  it('GET and DELETE /mcp: 405 (stateless: no stream, no session); a foreign Host: 403 (DNS rebinding)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${api}/mcp`, { method, headers: { authorization: `Bearer ${stack.key}`, accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    expect((await fetch(`${api}/mcp`, { method: 'GET' })).status).toBe(401);
    const rebound = await new Promise<number>((resolve, reject) => {
      // fetch() will not send a Host of our choosing; node:http does.
      import('node:http').then(({ request }) => {
        const req = request(`${api}/mcp`, { method: 'POST', headers: { ...MCP_ACCEPT, host: 'evil.example:80', authorization: `Bearer ${stack.key}` } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(JSON.stringify(INITIALIZE));
      }, reject);
    });
    expect(rebound).toBe(403);
  });
});

describe('what a hostile client can send', () => {
  const auth = () => ({ authorization: `Bearer ${stack.key}` });

  it('a body that is not JSON: the API\'s 400; a body over the limit: 413; nothing reaches a tool', async () => {
    const bad = await fetch(`${api}/mcp`, { method: 'POST', headers: { ...MCP_ACCEPT, ...auth() }, body: '{"jsonrpc": "2.0",' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'body is not valid JSON' });
    const huge = await post(auth(), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'geocode', arguments: { q: 'x'.repeat(2 * 1024 * 1024) } } });
    expect(huge.status).toBe(413);
  });

  it('a batch of more messages than the transport takes is refused whole; malformed calls are invalid params, not calls', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'geocode', arguments: { q: 'Vancouver' } } }));
    const batch = await post(auth(), many);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: -32600 } });
    for (const params of [{ name: 'geocode', arguments: ['Vancouver'] }, { name: 42 }, {}]) {
      const res = await post(auth(), { jsonrpc: '2.0', id: 'x', method: 'tools/call', params });
      expect(res.status).toBeLessThan(500);
      const body = (await res.json()) as { error?: { code: number } };
      expect(body.error?.code).toBe(-32602);
    }
  });
});

describe('a tool call is one call of its endpoint', () => {
  it('protocol messages are not metered; tool calls count as the same HTTP requests do, 400s included', async () => {
    const viaMcp = await keyOf();
    const viaHttp = await keyOf();
    const client = await connectMcp(api, viaMcp.key);
    await client.listTools();
    await client.listResources();
    for (const q of ['Vancouver', 'Robson Street', 'cafe']) expect((await client.callTool({ name: 'geocode', arguments: { q } })).isError).toBeFalsy();
    expect(toolErrorOf(await client.callTool({ name: 'geocode', arguments: { q: 'Vancouver', bbox: '1,2' } })).http_status).toBe(400);
    await client.close();
    for (const q of ['Vancouver', 'Robson Street', 'cafe']) expect((await stack.get(`/geocode/search?q=${encodeURIComponent(q)}`, { key: viaHttp.key })).status).toBe(200);
    expect((await stack.get('/geocode/search?q=Vancouver&bbox=1,2', { key: viaHttp.key })).status).toBe(400);
    expect(await usageOf(viaMcp.id)).toEqual({ geocode: 4 });
    expect(await usageOf(viaHttp.id)).toEqual(await usageOf(viaMcp.id));
  });

  it('around_point: each part is one call of its endpoint, counted as its HTTP request is (refused parts included)', async () => {
    const viaMcp = await keyOf();
    const viaHttp = await keyOf();
    const client = await connectMcp(api, viaMcp.key);
    const result = await client.callTool({ name: 'around_point', arguments: { lon: -123.1207, lat: 49.2827 } });
    await client.close();
    expect(result.isError).toBeFalsy();
    // Only geocoding is released here: identify, stops and elevation are refused, each as its endpoint refuses it.
    const parts = result.structuredContent as Record<string, { refused?: { http_status: number } }>;
    const point = 'lon=-123.1207&lat=49.2827';
    const urls = ['/geocode/reverse?' + point + '&limit=1', '/identify?at=-123.1207,49.2827', '/transit/stops?near=-123.1207,49.2827&radius=500&limit=3',
      '/incidents?near=-123.1207,49.2827&radius=25000', '/elevation?at=-123.1207,49.2827'];
    const statuses = [];
    for (const url of urls) statuses.push((await stack.get(url, { key: viaHttp.key })).status);
    expect([parts.areas!.refused?.http_status, parts.transit!.refused?.http_status, parts.elevation!.refused?.http_status]).toEqual([statuses[1], statuses[2], statuses[4]]);
    expect(await usageOf(viaMcp.id)).toEqual(await usageOf(viaHttp.id));
    expect(Object.values(await usageOf(viaMcp.id)).reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('a lone tools/call is answered exactly as the SDK\'s transport answers it in a batch (success, tool error, unknown tool)', async () => {
    const auth = { authorization: `Bearer ${stack.key}` };
    const calls = [
      { name: 'geocode', arguments: { q: 'Vancouver', limit: 2 } },
      { name: 'geocode', arguments: { q: 'Vancouver', bbox: '1,2' } },
      { name: 'no_such_tool', arguments: {} },
    ];
    for (const [i, params] of calls.entries()) {
      const message = { jsonrpc: '2.0', id: `c${i}`, method: 'tools/call', params };
      const lone = await post(auth, message);
      const batched = await post(auth, [message]);
      expect([lone.status, batched.status]).toEqual([200, 200]);
      expect(lone.headers.get('content-type')).toContain('application/json');
      // The transport answers a batch of one with the one response (not an array).
      const viaSdk = (await batched.json()) as unknown;
      expect(await lone.json()).toEqual(Array.isArray(viaSdk) ? viaSdk[0] : viaSdk);
    }
  });

  it('an unknown tool is a protocol error, not a call', async () => {
    const caller = await keyOf();
    const client = await connectMcp(api, caller.key);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toBeInstanceOf(McpError);
    await client.close();
    expect(await usageOf(caller.id)).toEqual({});
  });
});

describe('refusals are tool errors with the HTTP body', () => {
  const LAND = 'NW-25-24-1-W5';

  it('addon_required on a paid plan without the add-on; dev_only on the dev plan away from dev origins; neither metered', async () => {
    const paid = await keyOf({ accountId: 'mcp-indie', plan: 'indie' });
    const dev = await keyOf({ accountId: 'mcp-hobby', plan: 'hobby' });
    for (const [caller, code] of [[paid, 'addon_required'], [dev, 'dev_only']] as const) {
      const client = await connectMcp(api, caller.key);
      const { http_status: status, ...body } = toolErrorOf(await client.callTool({ name: 'geocode', arguments: { q: LAND } }));
      await client.close();
      const http = await stack.get(`/geocode/search?q=${LAND}`, { key: caller.key });
      expect(http.status).toBe(403);
      expect(status).toBe(403);
      expect(body).toEqual(http.body);
      expect(body.code).toBe(code);
      expect(await usageOf(caller.id)).toEqual({});
    }
  });

  it('a blocked account: every tool call refused as its HTTP requests are; the protocol still answers', async () => {
    const blocked = await keyOf({ accountId: 'mcp-unpaid', plan: 'indie' });
    await paymentFailed(stack.pool, 'mcp-unpaid', new Date());
    const client = await connectMcp(api, blocked.key);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const { http_status: status, ...body } = toolErrorOf(await client.callTool({ name: 'geocode', arguments: { q: 'Vancouver' } }));
    await client.close();
    const http = await stack.get('/geocode/search?q=Vancouver', { key: blocked.key });
    expect([status, http.status]).toEqual([429, 429]);
    expect(body).toEqual(http.body);
    expect(body.code).toBe('billing_required');
  });

  it('the rate limit is the key\'s, shared with HTTP: slots taken on either side refuse the other', async () => {
    const caller = await keyOf();
    const client = await connectMcp(api, caller.key); // initialize and notifications/initialized: 2 slots
    for (let i = 0; i < 10; i++) expect((await stack.get('/geocode/search?q=Vancouver', { key: caller.key })).status).toBe(200);
    const answers = [];
    for (let i = 0; i < LIMIT - 12 + 1; i++) answers.push(await client.callTool({ name: 'geocode', arguments: { q: 'Vancouver' } }));
    expect(answers.slice(0, -1).every((a) => !a.isError)).toBe(true);
    const { http_status: status, ...body } = toolErrorOf(answers.at(-1)!);
    const http = await stack.get('/geocode/search?q=Vancouver', { key: caller.key });
    expect([status, http.status]).toEqual([429, 429]);
    expect(body).toEqual(http.body);
    expect(body.code).toBe('rate_limited');
    await client.close().catch(() => undefined);
    expect(await usageOf(caller.id)).toEqual({ geocode: LIMIT - 2 });
  });
});

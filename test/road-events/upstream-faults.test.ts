import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configuredHttp, type HttpOptions } from '../../ingest/road-events/http-json.ts';
import { pollRoadEvents } from '../../ingest/road-events/poll.ts';
import { readUpstreamBackoff } from '../../ingest/road-events/upstream-backoff.ts';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { createPool } from '../../lib/postgres.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { RoadEventsApi } from '../support/road-events-api-stack.ts';
import { drivebc, FakePublisher, fixture, open511Page, type Scripted } from '../support/road-events-upstream.ts';
import { readFeedStatus } from '../../io/road-events/feed-status.ts';
import { redactUrl } from '../../lib/redact-url.ts';

let t: TestEnv;
let pool: Pool;
let upstream: FakePublisher;
let other: FakePublisher;
let api: RoadEventsApi;

const MIB = 1024 * 1024;
const HTTP: HttpOptions = { timeoutMs: 400, attempts: 1, backoffMs: 10, maxRetryAfterMs: 1_000, maxBytes: MIB };
const SECRET = 'SECRET-511-KEY';
/** In the answers' bodies: the operator's log may quote it, the API never. */
const BODY = 'BODY-EXCERPT';
const T0 = Date.parse('2026-03-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

async function pollAt(ms: number, url: string, http: Partial<HttpOptions> = {}) {
  const logs: string[] = [];
  const outcome = await pollRoadEvents(pool, { url, http: { ...HTTP, ...http }, now: () => new Date(ms), log: (level, line) => logs.push(`${level} ${line}`) });
  api.refresh();
  return { ...outcome, logs };
}

async function storedIds(): Promise<string[]> {
  return (await pool.query<{ id: string }>(`SELECT id FROM road_events ORDER BY id`)).rows.map((r) => r.id);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  t = await createTestEnv('road_events_upstream_faults');
  pool = createPool(t.config.databaseUrl, 4);
  [upstream, other] = await Promise.all([FakePublisher.start(), FakePublisher.start()]);
  api = await RoadEventsApi.start(t);
});

afterAll(async () => {
  await api?.close();
  await upstream?.close();
  await other?.close();
  await pool?.end();
  await t?.cleanup();
});

describe('the API shows a generic reason, the operator\'s log the detail', () => {
  const cases: [string, () => Promise<string> | string, Scripted | null, string][] = [
    ['HTTP 500', () => upstream.url(`/e500?key=${SECRET}`), { status: 500, body: `{"error":"internal ${BODY}"}` }, 'upstream answered HTTP 500'],
    ['garbage instead of JSON', () => upstream.url(`/garbage?key=${SECRET}`), { body: `<html>${BODY} Service Unavailable` }, 'upstream answer was not JSON'],
    ['JSON that is not Open511', () => upstream.url(`/maintenance?key=${SECRET}`), { body: '{"error":"maintenance"}' }, 'upstream answer was not an Open511 events document'],
    ['no answer in time', () => upstream.url(`/hang?key=${SECRET}`), { delayMs: 2_000, body: drivebc('four') }, 'timed out'],
    ['connection refused', async () => `http://127.0.0.1:${await closedPort()}/events?key=${SECRET}`, null, 'connection refused'],
    ['an answer over the cap', () => upstream.url(`/huge?key=${SECRET}`), { streamBytes: 3 * MIB }, 'upstream answer too large'],
  ];

  it.each(cases.map((c, i) => [...c, i] as const))('%s', async (_name, makeUrl, scripted, reason, i) => {
    const at = T0 + i * 10 * 60_000;
    upstream.script('/good', { body: fixture('open511-spec-cases.json') });
    expect((await pollAt(at, upstream.url('/good'))).outcome).toMatch(/changed|unchanged/);
    const url = await makeUrl();
    if (scripted) upstream.script(new URL(url).pathname, scripted);
    const failed = await pollAt(at + 60_000, url);
    expect(failed.outcome).toBe('failed');
    // Stored at its source: road_feed_status.last_error is what the API reads.
    expect((await readFeedStatus(pool, 'events:CA-BC'))!.lastError).toBe(reason);
    // The operator keeps the detail, with the key masked.
    const logged = failed.logs.find((l) => l.startsWith('error CA-BC: poll failed'))!;
    expect(logged).toContain(`poll failed (${reason})`);
    expect(logged.endsWith(failed.message!)).toBe(true);
    expect(failed.url).toContain('key=***');
    expect(JSON.stringify(failed)).not.toContain(SECRET);
    api.setNow(iso(at + 90_000));
    for (const path of ['/incidents', '/closures', '/road-conditions']) {
      const res = await api.get(path);
      expect(res.status).toBe(200);
      expect(res.body.meta.unavailable).toEqual([{ jurisdiction: 'CA-BC', reason: `last poll failed: ${reason}; serving the snapshot of ${iso(at)}` }]);
      const text = JSON.stringify(res.body.meta);
      for (const leak of [SECRET, BODY, '127.0.0.1', '<html', 'maintenance', 'bytes']) expect(text).not.toContain(leak);
    }
  });

  it('the not-JSON detail keeps the first bytes and the masked URL, for the log only', async () => {
    upstream.script('/garbage', { body: '<html>Service Unavailable' });
    const o = await pollAt(T0 + 100 * 60_000, upstream.url(`/garbage?key=${SECRET}`));
    expect(o.message).toMatch(/^response is not JSON \(25 bytes starting "<html>Service Unavailable"\) from http:\/\/127\.0\.0\.1:\d+\/garbage\?key=\*\*\*&format=json/);
  });

  it('redactUrl masks the password and credential-like query values, and keeps the rest', () => {
    expect(redactUrl('https://me:pw@511.example/api/v2/get/event?key=abc&format=json&api_token=t&offset=5'))
      .toBe('https://me:***@511.example/api/v2/get/event?key=***&format=json&api_token=***&offset=5');
  });
});

describe('ROAD_EVENTS_MAX_RESPONSE_BYTES', () => {
  beforeEach(async () => {
    await pool.query(`DELETE FROM road_events; DELETE FROM road_feed_status`);
    upstream.script('/good', { body: fixture('open511-spec-cases.json') });
    expect((await pollAt(T0, upstream.url('/good'))).outcome).toBe('changed');
  });

  it('defaults to 20 MiB, is validated, and reaches the polls\' HTTP options', () => {
    expect(loadConfig({}).roadEventsMaxResponseBytes).toBe(20 * MIB);
    expect(configuredHttp(loadConfig({ ROAD_EVENTS_MAX_RESPONSE_BYTES: '4096' })).maxBytes).toBe(4096);
    expect(() => loadConfig({ ROAD_EVENTS_MAX_RESPONSE_BYTES: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ ROAD_EVENTS_MAX_RESPONSE_BYTES: '10' })).toThrow(/ROAD_EVENTS_MAX_RESPONSE_BYTES/);
  });

  it('a 50 MiB answer without Content-Length is cut off as it streams, not retried, and the snapshot stays', async () => {
    const before = await storedIds();
    upstream.script('/streamed', { streamBytes: 50 * MIB });
    const o = await pollAt(T0 + 60_000, upstream.url('/streamed'), { attempts: 3 });
    expect(o).toMatchObject({ outcome: 'failed', events: 11 });
    expect(o.message).toMatch(/^answer larger than 1048576 bytes \(\d+ bytes read\) from /);
    expect(upstream.requestsTo('/streamed')).toHaveLength(1);
    const stream = upstream.streams.at(-1)!;
    await until('the publisher to see the request cut', () => stream.closed);
    expect(stream.written).toBeLessThan(stream.size / 2);
    expect(await storedIds()).toEqual(before);
    expect((await readFeedStatus(pool, 'events:CA-BC'))!).toMatchObject({ lastError: 'upstream answer too large', storedCount: 11 });
  });

  it('a Content-Length over the cap is refused before the body is read', async () => {
    const body = open511Page([]) + ' '.repeat(2 * MIB);
    upstream.script('/declared', { body, headers: { 'content-length': String(Buffer.byteLength(body)) } });
    const o = await pollAt(T0 + 60_000, upstream.url('/declared'));
    expect(o.outcome).toBe('failed');
    expect(o.message).toMatch(new RegExp(`^answer larger than 1048576 bytes \\(Content-Length ${Buffer.byteLength(body)}\\)`));
  });

  it('an answer of exactly the cap is read', async () => {
    const doc = fixture('open511-spec-cases.json');
    const body = doc + ' '.repeat(MIB - Buffer.byteLength(doc));
    upstream.script('/exact', { body });
    expect((await pollAt(T0 + 60_000, upstream.url('/exact'))).outcome).toBe('unchanged');
  });

  it('canmap ingest road-events --once applies the setting', async () => {
    upstream.script('/cli-big', { body: drivebc('four') });
    const run = await runCanmap(['ingest', 'road-events', '--once', '--url', upstream.url('/cli-big'), '--json'], { ...t.env, ROAD_EVENTS_MAX_RESPONSE_BYTES: '4096' });
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/^answer larger than 4096 bytes/), events: 11 });
  });
});

describe('a 429\'s back-off belongs to the upstream that sent it', () => {
  beforeAll(async () => {
    await pool.query(`DELETE FROM road_events; DELETE FROM road_feed_status`);
  });

  it('polling another upstream goes ahead, and does not lift the first one\'s wait', async () => {
    upstream.script('/limited', { status: 429, headers: { 'retry-after': '120' } });
    other.script('/events', { body: drivebc('four') });
    const limited = await pollAt(Date.now(), upstream.url('/limited'));
    expect(limited).toMatchObject({ outcome: 'failed', message: 'HTTP 429 Too Many Requests' });
    const backoff = (await readUpstreamBackoff(pool, upstream.url('/limited')))!;
    expect(backoff.notBefore.getTime() - backoff.recordedAt.getTime()).toBe(120_000);

    expect(await pollAt(Date.now(), other.url('/events'))).toMatchObject({ outcome: 'changed', events: 4 });
    expect(other.requestsTo('/events').length).toBeGreaterThan(0);

    // Same origin, any path: still waiting, even after the other upstream's success.
    const again = await pollAt(Date.now(), upstream.url('/elsewhere'));
    expect(again.outcome).toBe('skipped');
    expect(again.message).toMatch(/^upstream asked to wait \(429 Retry-After\) until /);
    expect(upstream.requestsTo('/limited')).toHaveLength(1);
    expect(upstream.requestsTo('/elsewhere')).toHaveLength(0);
  });

  it('across processes: `ingest road-events --once --url OTHER` polls, `--url` of the limited upstream skips', async () => {
    other.script('/events', { body: drivebc('four_updated') });
    const run = await runCanmap(['ingest', 'road-events', '--once', '--url', other.url('/events'), '--json'], t.env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'changed', events: 4 });
    const limited = await runCanmap(['ingest', 'road-events', '--once', '--url', upstream.url('/limited'), '--json'], t.env);
    expect(limited.code).toBe(1);
    expect(JSON.parse(limited.stdout)).toMatchObject({ outcome: 'skipped' });
    expect(upstream.requestsTo('/limited')).toHaveLength(1);
  });
});

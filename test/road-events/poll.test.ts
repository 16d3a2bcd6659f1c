import type { Pool } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpOptions } from '../../ingest/road-events/http-json.ts';
import { pollRoadEvents, type PollOptions } from '../../ingest/road-events/poll.ts';
import { readUpstreamBackoff } from '../../ingest/road-events/upstream-backoff.ts';
import { createPool } from '../../lib/postgres.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { drivebc, FakePublisher, fixture, open511Page } from '../support/road-events-upstream.ts';
import { readFeedStatus } from '../../io/road-events/feed-status.ts';

let t: TestEnv;
let pool: Pool;
let upstream: FakePublisher;

const HTTP: HttpOptions = { timeoutMs: 400, attempts: 3, backoffMs: 20, maxRetryAfterMs: 2_000, maxBytes: 16 * 1024 * 1024 };
const id = (sourceId: string) => `svc:road:ca-bc:${encodeURIComponent(sourceId)}`;
const DBC = (n: number) => id(`drivebc.ca/DBC-${n}`);

function poll(path: string, extra: Partial<PollOptions> = {}) {
  const logs: string[] = [];
  return pollRoadEvents(pool, { url: upstream.url(path), http: HTTP, log: (level, line) => logs.push(`${level} ${line}`), ...extra }).then((o) => ({ ...o, logs }));
}

async function stored(): Promise<Map<string, { svc: string; record: Record<string, unknown>; json: string }>> {
  const { rows } = await pool.query<{ id: string; svc: Date; json: string }>(`SELECT id, svc_updated_at AS svc, record::text AS json FROM road_events WHERE jurisdiction = 'CA-BC' ORDER BY id`);
  return new Map(rows.map((r) => [r.id, { svc: r.svc.toISOString(), record: JSON.parse(r.json) as Record<string, unknown>, json: r.json }]));
}

async function clearBc() {
  await pool.query(`DELETE FROM road_events; DELETE FROM road_feed_status`);
}

beforeAll(async () => {
  t = await createTestEnv('road_events_poll');
  pool = createPool(t.config.databaseUrl, 4);
  upstream = await FakePublisher.start();
});

afterAll(async () => {
  await upstream?.close();
  await pool?.end();
  await t?.cleanup();
});

describe('polling the real DriveBC payloads', () => {
  beforeAll(clearBc);
  const at = (iso: string) => () => new Date(iso);

  it('stores the four-event answer, with status, source and the record as served', async () => {
    upstream.script('/events', { body: drivebc('four') });
    const o = await poll('/events', { now: at('2026-01-10T16:00:00Z') });
    expect(o).toMatchObject({ outcome: 'changed', events: 4, upstream: 4, pages: 1, updated: [], removed: [], unchanged: 0, dropped: [] });
    expect(o.added).toEqual([DBC(46014), DBC(53145), DBC(52791), DBC(52446)]);
    const rows = await stored();
    expect([...rows.keys()].sort()).toEqual([DBC(46014), DBC(52446), DBC(52791), DBC(53145)]);
    expect(rows.get(DBC(46014))!.record).toMatchObject({ id: DBC(46014), source_updated_at: '2023-06-25T14:42:45-07:00', svc_updated_at: '2026-01-10T16:00:00Z' });
    expect(rows.get(DBC(46014))!.json.startsWith('{"id":"svc:road:ca-bc:drivebc.ca%2FDBC-46014","source_id":')).toBe(true); // stored as written
    const [request, probe] = upstream.requestsTo('/events').slice(-2);
    expect(Object.fromEntries(request!.searchParams)).toEqual({ format: 'json', status: 'ACTIVE', limit: '500' });
    // No next_url: the next offset is asked, and the page repeating ids already seen ends the list.
    expect(Object.fromEntries(probe!.searchParams)).toEqual({ format: 'json', status: 'ACTIVE', limit: '500', offset: '4' });
    const status = (await readFeedStatus(pool, 'events:CA-BC'))!;
    expect(status).toMatchObject({ jurisdiction: 'CA-BC', sourceUrl: upstream.url('/events'), storedCount: 4, upstreamCount: 4, generation: 1, lastError: null });
    expect(status.lastSuccessAt!.toISOString()).toBe('2026-01-10T16:00:00.000Z');
    expect(status.lastChangeAt!.toISOString()).toBe('2026-01-10T16:00:00.000Z');
  });

  it('the same answer again changes nothing, not even last_change_at', async () => {
    const o = await poll('/events', { now: at('2026-01-10T16:01:00Z') });
    expect(o).toMatchObject({ outcome: 'unchanged', added: [], updated: [], removed: [], unchanged: 4 });
    const status = (await readFeedStatus(pool, 'events:CA-BC'))!;
    expect(status.lastSuccessAt!.toISOString()).toBe('2026-01-10T16:01:00.000Z');
    expect(status.lastChangeAt!.toISOString()).toBe('2026-01-10T16:00:00.000Z');
    expect(status.generation).toBe(1);
  });

  it('four → four_updated: two events updated, svc_updated_at moves only on them', async () => {
    upstream.script('/events', { body: drivebc('four_updated') });
    const o = await poll('/events', { now: at('2026-01-10T16:02:00Z') });
    expect(o).toMatchObject({ outcome: 'changed', added: [], removed: [], unchanged: 2 });
    expect(o.updated).toEqual([DBC(46014), DBC(53145)]);
    const rows = await stored();
    expect(rows.get(DBC(53145))!.record).toMatchObject({ source_updated_at: '2023-07-25T14:42:51-07:00', svc_updated_at: '2026-01-10T16:02:00Z' });
    expect((rows.get(DBC(46014))!.record.roads as { from: string }[])[0]!.from).toBe('Updated Rd');
    expect(rows.get(DBC(52791))!.svc).toBe('2026-01-10T16:00:00.000Z');
    expect((await readFeedStatus(pool, 'events:CA-BC'))!.generation).toBe(2);
  });

  it('five_with_validation_error: the invalid event is dropped and logged, the rest is kept', async () => {
    upstream.script('/events', { body: drivebc('five_with_validation_error') });
    const o = await poll('/events', { now: at('2026-01-10T16:03:00Z') });
    expect(o).toMatchObject({ outcome: 'changed', events: 4, upstream: 5, added: [DBC(28386)], updated: [DBC(53145)], removed: [DBC(46014)], unchanged: 2 });
    expect(o.dropped).toEqual([{ index: 1, sourceId: null, reason: 'id is missing' }]);
    expect(o.logs).toContain('warn CA-BC: dropped event 1: id is missing');
    expect([...(await stored()).keys()].sort()).toEqual([DBC(28386), DBC(52446), DBC(52791), DBC(53145)]);
  });
});

describe('faults never lose the last good snapshot', () => {
  let good: Awaited<ReturnType<typeof stored>>;
  beforeAll(async () => {
    await clearBc();
    upstream.script('/good', { body: fixture('open511-spec-cases.json') });
    const o = await poll('/good');
    expect(o).toMatchObject({ outcome: 'changed', events: 11, upstream: 12 });
    good = await stored();
  });
  beforeEach(async () => {
    await pool.query('DELETE FROM road_upstream_backoff');
  });

  async function expectKept(outcome: string, message: RegExp, o: { outcome: string; message?: string; events: number }) {
    expect(o.outcome).toBe(outcome);
    expect(o.message).toMatch(message);
    expect(o.events).toBe(11);
    expect(await stored()).toEqual(good);
  }

  it('HTTP 500 on every try: three requests with backoff, then failed and recorded', async () => {
    upstream.script('/e500', { status: 500, body: '{"error":"internal"}' });
    const before = upstream.requestsTo('/e500').length;
    const o = await poll('/e500');
    await expectKept('failed', /^HTTP 500/, o);
    expect(upstream.requestsTo('/e500').length - before).toBe(3);
    expect(o.logs.filter((l) => l.includes('retry'))).toHaveLength(2);
    const status = (await readFeedStatus(pool, 'events:CA-BC'))!;
    expect(status.lastError).toBe('upstream answered HTTP 500'); // served by the API: the generic reason, not the detail
    expect(status.lastErrorAt!.getTime()).toBeGreaterThan(status.lastSuccessAt!.getTime());
  });

  it('a 500 then a good answer: retried and stored', async () => {
    upstream.script('/flaky', { status: 503, body: 'busy' }, { body: fixture('open511-spec-cases.json') });
    const o = await poll('/flaky');
    expect(o.outcome).toBe('unchanged');
    expect(upstream.requestsTo('/flaky').filter((u) => !u.searchParams.has('offset'))).toHaveLength(2); // then the offset probe
  });

  it('no answer within the timeout', async () => {
    upstream.script('/hang', { delayMs: 2_000, body: drivebc('four') });
    await expectKept('failed', /^no complete answer within 400 ms$/, await poll('/hang'));
  });

  it('a body that stalls past the timeout', async () => {
    upstream.script('/stall', { stallBodyMs: 2_000, body: drivebc('four') });
    await expectKept('failed', /^no complete answer within 400 ms$/, await poll('/stall'));
  });

  it('a slow answer within the timeout is fine', async () => {
    upstream.script('/slow', { delayMs: 250, body: fixture('open511-spec-cases.json') });
    expect((await poll('/slow')).outcome).toBe('unchanged');
  });

  it('429 with a short Retry-After: waits it out, then succeeds', async () => {
    upstream.script('/limited', { status: 429, headers: { 'retry-after': '1' } }, { body: fixture('open511-spec-cases.json') });
    const started = performance.now();
    const o = await poll('/limited');
    expect(o.outcome).toBe('unchanged');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('429 with a Retry-After HTTP date: waits it out when short, records it when long', async () => {
    upstream.script('/limited-date', { status: 429, headers: { 'retry-after': new Date(Date.now() + 2_000).toUTCString() } }, { body: fixture('open511-spec-cases.json') });
    const started = performance.now();
    expect((await poll('/limited-date')).outcome).toBe('unchanged');
    expect(performance.now() - started).toBeGreaterThanOrEqual(900); // up to the second the date names
    const until = new Date(Math.ceil((Date.now() + 120_000) / 1000) * 1000);
    upstream.script('/limited-date-long', { status: 429, headers: { 'retry-after': until.toUTCString() } });
    await expectKept('failed', /^HTTP 429/, await poll('/limited-date-long'));
    const backoff = (await readUpstreamBackoff(pool, upstream.url('/limited-date-long')))!;
    expect(Math.abs(backoff.notBefore.getTime() - until.getTime())).toBeLessThan(1_000);
    expect((await poll('/limited-date-long')).outcome).toBe('skipped');
    expect(upstream.requestsTo('/limited-date-long')).toHaveLength(1);
  });

  it('429 with a long Retry-After: gives up at once, and the next poll does not call before it', async () => {
    upstream.script('/limited-long', { status: 429, headers: { 'retry-after': '120' } });
    const o = await poll('/limited-long');
    await expectKept('failed', /^HTTP 429/, o);
    expect(upstream.requestsTo('/limited-long')).toHaveLength(1);
    const backoff = (await readUpstreamBackoff(pool, upstream.url('/limited-long')))!;
    expect(backoff.notBefore.getTime() - backoff.recordedAt.getTime()).toBe(120_000);
    const next = await poll('/limited-long');
    expect(next.outcome).toBe('skipped');
    expect(next.message).toMatch(/^upstream asked to wait \(429 Retry-After\) until /);
    expect(upstream.requestsTo('/limited-long')).toHaveLength(1);
  });

  it('garbage instead of JSON, and JSON that is not an events document: both retried, then failed', async () => {
    upstream.script('/garbage', { body: '<html>Service Unavailable' });
    await expectKept('failed', /^response is not JSON/, await poll('/garbage'));
    expect(upstream.requestsTo('/garbage')).toHaveLength(3);
    upstream.script('/not-open511', { body: '{"error": "maintenance"}' });
    await expectKept('failed', /answer is not an Open511 events document/, await poll('/not-open511'));
    expect(upstream.requestsTo('/not-open511')).toHaveLength(3);
    upstream.script('/maintenance-then-good', { body: '{"error": "maintenance"}' }, { body: fixture('open511-spec-cases.json') });
    expect((await poll('/maintenance-then-good')).outcome).toBe('unchanged');
    expect(upstream.requestsTo('/maintenance-then-good').filter((u) => !u.searchParams.has('offset'))).toHaveLength(2);
  });

  it('an empty feed while many events are stored is refused as an anomaly', async () => {
    upstream.script('/empty', { body: open511Page([]) });
    const o = await poll('/empty');
    await expectKept('anomaly', /^upstream answered with no events while 11 are stored; kept the stored snapshot$/, o);
    const status = (await readFeedStatus(pool, 'events:CA-BC'))!;
    expect(status.anomaly).toBe(o.message);
    expect(status.anomalyAt!.getTime()).toBeGreaterThan(status.lastSuccessAt!.getTime());
  });

  it('a page failing in the middle of pagination fails the whole poll', async () => {
    const events = Array.from({ length: 12 }, (_, i) => ({ ...(JSON.parse(fixture('open511-spec-cases.json')).events[0]), id: `drivebc.ca/PAGE-${i}` }));
    upstream.handle('/paged-broken', (url) => {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      if (offset > 0) return { status: 500, body: 'boom' };
      return { body: open511Page(events.slice(0, 5), { offset: '0', next_url: '/paged-broken?format=json&status=ACTIVE&limit=5&offset=5' }) };
    });
    await expectKept('failed', /^HTTP 500/, await poll('/paged-broken'));
  });

  it('more than 200 pages still pending: failed, nothing deleted', async () => {
    const template = JSON.parse(fixture('open511-spec-cases.json')).events[0];
    // A server that caps pages at one event and has 250.
    upstream.handle('/endless', (url) => {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return { body: open511Page(offset < 250 ? [{ ...template, id: `drivebc.ca/ENDLESS-${offset}` }] : []) };
    });
    await expectKept('failed', /^more than 200 pages \(200 events so far, next .*offset=200\); refusing a partial list$/, await poll('/endless'));
    expect(upstream.requestsTo('/endless')).toHaveLength(200);
  });

  it('one poll at a time: a second one while the first runs is skipped', async () => {
    upstream.script('/slow-lock', { delayMs: 300, body: fixture('open511-spec-cases.json') });
    const seen = upstream.requests.length;
    const first = poll('/slow-lock');
    await upstream.requestsReached(seen + 1); // the first holds the lock while the upstream answers
    const second = await poll('/slow-lock');
    expect(second).toMatchObject({ outcome: 'skipped', message: 'another poll of CA-BC is running' });
    expect((await first).outcome).toBe('unchanged');
  });

  it('a poll uses one connection, the one holding its lock: it runs on a pool of one', async () => {
    const single = createPool(t.config.databaseUrl, 1);
    try {
      upstream.script('/one-connection', { body: fixture('open511-spec-cases.json') });
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the poll waited for a second connection')), 5_000).unref());
      const o = await Promise.race([pollRoadEvents(single, { url: upstream.url('/one-connection'), http: HTTP }), timeout]);
      expect(o.outcome).toBe('unchanged');
    } finally {
      await single.end();
    }
  });

  it('an empty feed is accepted when few events were stored', async () => {
    upstream.script('/four', { body: drivebc('four') });
    expect((await poll('/four')).outcome).toBe('changed');
    const o = await poll('/empty');
    expect(o).toMatchObject({ outcome: 'changed', events: 0, removed: expect.arrayContaining([DBC(46014)]) });
  });
});

describe('an empty feed that stays empty', () => {
  beforeAll(clearBc);
  const at = (minutes: number) => () => new Date(Date.parse('2026-01-10T16:00:00Z') + minutes * 60_000);

  it('is believed after 3 empty answers in a row spanning 5 minutes, and says so', async () => {
    upstream.script('/real', { body: fixture('open511-spec-cases.json') });
    expect((await poll('/real', { now: at(0) })).outcome).toBe('changed');
    upstream.script('/real', { body: open511Page([]) });
    expect((await poll('/real', { now: at(1) })).outcome).toBe('anomaly');
    expect((await poll('/real', { now: at(2) })).outcome).toBe('anomaly');
    expect((await poll('/real', { now: at(5.5) })).outcome).toBe('anomaly'); // 3 in a row, but 4.5 minutes
    expect((await readFeedStatus(pool, 'events:CA-BC'))!).toMatchObject({ emptyAnswers: 3, storedCount: 11 });
    const believed = await poll('/real', { now: at(6) });
    expect(believed).toMatchObject({ outcome: 'changed', events: 0, closures: 0 });
    expect(believed.removed).toHaveLength(11);
    expect(believed.message).toBe('upstream answered with no events while 11 are stored; believed after 4 empty answers in a row since 2026-01-10T16:01:00Z');
    const status = (await readFeedStatus(pool, 'events:CA-BC'))!;
    expect(status).toMatchObject({ anomaly: believed.message, emptyAnswers: 0, emptySince: null, storedCount: 0 });
    expect(status.anomalyAt).toEqual(status.lastSuccessAt); // recorded, but not a refusal: freshness does not count it
    expect(await stored()).toEqual(new Map());
  });

  it('a non-empty answer between empty ones starts the count again', async () => {
    upstream.script('/real', { body: fixture('open511-spec-cases.json') });
    await poll('/real', { now: at(10) });
    upstream.script('/real', { body: open511Page([]) });
    await poll('/real', { now: at(11) });
    await poll('/real', { now: at(12) });
    upstream.script('/real', { body: fixture('open511-spec-cases.json') });
    expect((await poll('/real', { now: at(13) })).outcome).toBe('unchanged');
    upstream.script('/real', { body: open511Page([]) });
    expect((await poll('/real', { now: at(20) })).outcome).toBe('anomaly');
    expect((await readFeedStatus(pool, 'events:CA-BC'))!.emptyAnswers).toBe(1);
  });
});

describe('pagination', () => {
  const template = JSON.parse(fixture('open511-spec-cases.json')).events[0];
  const many = Array.from({ length: 1234 }, (_, i) => ({ ...template, id: `drivebc.ca/MANY-${i}` }));
  const page = (url: URL, nextUrl: boolean) => {
    const limit = Number(url.searchParams.get('limit'));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const slice = many.slice(offset, offset + limit);
    const more = offset + limit < many.length;
    const next = `${url.pathname}?format=json&status=ACTIVE&limit=${limit}&offset=${offset + limit}`;
    return { body: open511Page(slice, nextUrl && more ? { offset: String(offset), next_url: next } : { offset: String(offset) }) };
  };
  beforeAll(clearBc);

  it('follows pagination.next_url across pages, and stops where the last page has none', async () => {
    upstream.handle('/next-url', (url) => page(url, true));
    const o = await poll('/next-url');
    expect(o).toMatchObject({ outcome: 'changed', pages: 3, events: 1234 });
    expect(upstream.requestsTo('/next-url').map((u) => u.searchParams.get('offset'))).toEqual([null, '500', '1000']);
    // Exactly full pages: no extra request after the last one.
    const exact = many.slice(0, 1000);
    upstream.handle('/next-url-1000', (url) => {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const more = offset + 500 < exact.length;
      return { body: open511Page(exact.slice(offset, offset + 500), more ? { offset: String(offset), next_url: `/next-url-1000?limit=500&offset=${offset + 500}` } : { offset: String(offset) }) };
    });
    expect(await poll('/next-url-1000')).toMatchObject({ pages: 2, events: 1000 });
    expect(upstream.requestsTo('/next-url-1000')).toHaveLength(2);
    await poll('/next-url'); // back to the 1234
  });

  it('without next_url, asks limit/offset until a page comes back empty', async () => {
    upstream.handle('/offsets', (url) => page(url, false));
    const o = await poll('/offsets');
    expect(o).toMatchObject({ outcome: 'unchanged', pages: 3, events: 1234 });
    expect(upstream.requestsTo('/offsets').map((u) => u.searchParams.get('offset'))).toEqual([null, '500', '1000', '1234']);
  });

  it('a server capping pages below the limit asked for is read to the end', async () => {
    upstream.handle('/capped', (url) => {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return { body: open511Page(many.slice(offset, offset + 100), { offset: String(offset) }) };
    });
    const o = await poll('/capped');
    expect(o).toMatchObject({ outcome: 'unchanged', pages: 13, events: 1234, removed: [] });
    expect(upstream.requestsTo('/capped').every((u) => u.searchParams.get('limit') === '500')).toBe(true);
  });

  it('stops when a server ignores offset (a page of ids already seen)', async () => {
    upstream.handle('/ignores-offset', (url) => ({ body: open511Page(many.slice(0, Number(url.searchParams.get('limit')))) }));
    const o = await poll('/ignores-offset');
    expect(o).toMatchObject({ pages: 1, events: 500 });
    expect(upstream.requestsTo('/ignores-offset')).toHaveLength(2);
  });
});

describe('canmap ingest road-events --once', () => {
  beforeAll(clearBc);

  it('polls now and prints what changed as JSON', async () => {
    upstream.script('/cli', { body: drivebc('four') });
    const run = await runCanmap(['ingest', 'road-events', '--once', '--url', upstream.url('/cli'), '--json'], t.env);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({ jurisdiction: 'CA-BC', url: upstream.url('/cli'), outcome: 'changed', events: 4, closures: 0, updated: [], removed: [] });
    expect(doc.added).toHaveLength(4);
  });

  it('prints the changed ids for people, and exits 1 when the poll fails', async () => {
    upstream.script('/cli', { body: drivebc('four_updated') });
    const run = await runCanmap(['ingest', 'road-events', '--once', '--url', upstream.url('/cli')], t.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      'CA-BC: 4 events from 1 page(s): 0 added, 2 updated, 0 removed, 2 unchanged',
      `  updated  ${DBC(46014)}`,
      `  updated  ${DBC(53145)}`,
      '',
    ]);
    upstream.script('/cli-down', { status: 404, body: 'gone' });
    const failed = await runCanmap(['ingest', 'road-events', '--once', '--url', upstream.url('/cli-down'), '--json'], t.env);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ outcome: 'failed', message: 'HTTP 404 Not Found', events: 4 });
  });

  it('uses OPEN511_URL without --url, refuses a missing --once, and leaves the transit form alone', async () => {
    upstream.script('/configured', { body: drivebc('four_updated') });
    const run = await runCanmap(['ingest', 'road-events', '--once', '--json'], { ...t.env, OPEN511_URL: upstream.url('/configured') });
    expect(JSON.parse(run.stdout)).toMatchObject({ url: upstream.url('/configured'), outcome: 'unchanged' });
    const noOnce = await runCanmap(['ingest', 'road-events', '--json'], t.env);
    expect(noOnce.code).toBe(2);
    expect(JSON.parse(noOnce.stdout).error).toMatch(/^road events are polled by `canmap worker` every ROAD_EVENTS_POLL_SECONDS; --once polls now\nusage: canmap ingest road-events --once \[--url URL\]$/);
    const badUrl = await runCanmap(['ingest', 'road-events', '--once', '--url', 'ftp://x', '--json'], t.env);
    expect(badUrl.code).toBe(2);
    const transit = await runCanmap(['ingest', 'transit', '--json'], t.env);
    expect(transit.code).toBe(2);
    expect(JSON.parse(transit.stdout).error).toMatch(/^--feeds FILE is required/);
  });
});

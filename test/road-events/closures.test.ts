import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closureSnapshotCache } from '../../io/road-events/closure-snapshot.ts';
import { closuresNearLine } from '../../engines/road-events/closures-near-route.ts';
import { closuresNearRoute } from '../../io/road-events/closures-near-route.ts';
import { RouteLine } from '../../engines/road-events/route-line.ts';
import { snapshotClosures, type ClosureSources } from '../../ingest/road-events/closures/snapshot.ts';
import type { LngLatPosition } from '../../engines/road-events/geometry.ts';
import type { HttpOptions } from '../../ingest/road-events/http-json.ts';
import { pollRoadEvents } from '../../ingest/road-events/poll.ts';
import { parsePublisherTime } from '../../engines/road-events/publisher-time.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { drivebc, FakePublisher, fixture } from '../support/road-events-upstream.ts';
import { readFeedStatus } from '../../io/road-events/feed-status.ts';

/*
 * Closures of BC (from the Open511 events poll), Alberta and Ontario (511 v2 snapshots) and the
 * query routing will use, on real road geometry: the DriveBC sample lines of Highway 14 on
 * Vancouver Island.
 */

let t: TestEnv;
let pool: Pool;
let upstream: FakePublisher;

const HTTP: HttpOptions = { timeoutMs: 400, attempts: 1, backoffMs: 10, maxRetryAfterMs: 1_000, maxBytes: 16 * 1024 * 1024 };
const sources = (): ClosureSources => ({ 'CA-AB': upstream.url('/ab/api/v2/get/event'), 'CA-ON': upstream.url('/on/api/v2/get/event') });
const snapshot = (iso: string) => snapshotClosures(pool, { sources: sources(), http: HTTP, now: () => new Date(iso) });
/** BC's closures come from the events poll. */
const pollBc = (iso: string) => pollRoadEvents(pool, { url: upstream.url('/bc/events'), http: HTTP, now: () => new Date(iso) });

const four = JSON.parse(drivebc('four')) as { events: { id: string; roads: Record<string, unknown>[]; geography: { coordinates: LngLatPosition[] } }[] };
const line = (id: string) => four.events.find((e) => e.id === `drivebc.ca/${id}`)!.geography.coordinates;
/** The real four-event answer with one event (DBC-52791 unless told) marked CLOSED. */
function bcWithClosure(id = 'DBC-52791') {
  const doc = structuredClone(four);
  doc.events.find((e) => e.id === `drivebc.ca/${id}`)!.roads[0]!.state = 'CLOSED';
  return JSON.stringify(doc);
}

/** A point `metres` to the left of the middle of segment i of a line (flat-earth offset, independent of the library). */
function beside(coords: LngLatPosition[], i: number, metres: number): LngLatPosition {
  const [a, b] = [coords[i]!, coords[i + 1]!];
  const lat = (a[1] + b[1]) / 2;
  const kx = 111_195 * Math.cos((lat * Math.PI) / 180);
  const dx = (b[0] - a[0]) * kx, dy = (b[1] - a[1]) * 111_195;
  const length = Math.hypot(dx, dy);
  return [(a[0] + b[0]) / 2 + (-dy / length) * metres / kx, lat + (dx / length) * metres / 111_195];
}

beforeAll(async () => {
  t = await createTestEnv('road_events_closures');
  pool = createPool(t.config.databaseUrl, 4);
  upstream = await FakePublisher.start();
});

afterAll(async () => {
  await upstream?.close();
  await pool?.end();
  await t?.cleanup();
});

describe('closures of three provinces', () => {
  it('stores only full closures, with the fetch time, per province; BC\'s with the events poll, without asking DriveBC again', async () => {
    upstream.script('/bc/events', { body: fixture('open511-spec-cases.json') });
    upstream.script('/ab/api/v2/get/event', { body: fixture('alberta-511-events.json') });
    upstream.script('/on/api/v2/get/event', { body: fixture('ontario-511-events.json') });
    const bc = await pollBc('2026-01-10T16:00:00Z');
    expect([bc.outcome, bc.upstream, bc.closures, bc.dropped.length]).toEqual(['changed', 12, 2, 1]); // SPEC-CLOSED and SPEC-NIGHTLY; SPEC-PLANNED starts beyond the 30-day horizon
    const bcRequests = upstream.requestsTo('/bc/events').length;
    const outcomes = await snapshot('2026-01-10T16:00:00Z');
    expect(upstream.requestsTo('/bc/events')).toHaveLength(bcRequests);
    expect(outcomes.map((o) => [o.jurisdiction, o.outcome, o.upstream, o.closures, o.dropped.length])).toEqual([
      ['CA-AB', 'changed', 5, 2, 1],
      ['CA-ON', 'changed', 3, 2, 0],
    ]);
    expect(Object.fromEntries(upstream.requestsTo('/ab/api/v2/get/event').at(-1)!.searchParams)).toEqual({ format: 'json', lang: 'en' });
    const { rows } = await pool.query(`SELECT jurisdiction, source_id, road, windows, fetched_at FROM road_closures ORDER BY jurisdiction, source_id`);
    expect(rows.map((r) => [r.jurisdiction, r.source_id, r.road])).toEqual([
      ['CA-AB', '45122', 'Highway 1'],
      ['CA-AB', '45130', 'Highway 93 (Icefields Parkway)'],
      ['CA-BC', 'drivebc.ca/SPEC-CLOSED', 'Highway 1'],
      ['CA-BC', 'drivebc.ca/SPEC-NIGHTLY', 'Highway 1'],
      ['CA-ON', 'ONT-MTO-60211', 'Highway 401'],
      ['CA-ON', 'ONT-MTO-60240', 'Highway 11'],
    ]);
    expect(rows.every((r) => r.fetched_at.toISOString() === '2026-01-10T16:00:00.000Z')).toBe(true);
    expect(rows.find((r) => r.source_id === '45130').windows).toEqual([['2026-01-12T15:00:00Z', '2026-01-12T23:00:00Z']]);
    expect(rows.find((r) => r.source_id === 'drivebc.ca/SPEC-CLOSED').windows).toEqual([['2026-01-10T13:00:00Z', null]]);
  });

  it('the same answers again: unchanged, fetch time renewed', async () => {
    expect((await pollBc('2026-01-10T16:05:00Z')).outcome).toBe('unchanged');
    const outcomes = await snapshot('2026-01-10T16:05:00Z');
    expect(outcomes.map((o) => o.outcome)).toEqual(['unchanged', 'unchanged']);
    expect((await readFeedStatus(pool, 'closures:CA-BC'))!.lastSuccessAt!.toISOString()).toBe('2026-01-10T16:05:00.000Z');
    const { rows } = await pool.query(`SELECT DISTINCT fetched_at FROM road_closures`);
    expect(rows.map((r) => r.fetched_at.toISOString())).toEqual(['2026-01-10T16:05:00.000Z']);
  });

  it('one province failing keeps its snapshot and does not hold up the others; an empty answer is refused', async () => {
    upstream.script('/ab/api/v2/get/event', { status: 500, body: 'down' });
    upstream.script('/on/api/v2/get/event', { body: '[]' });
    upstream.script('/bc/events', { body: drivebc('four') }); // no closures in BC any more
    expect(await pollBc('2026-01-10T16:10:00Z')).toMatchObject({ outcome: 'changed', closures: 0 });
    const outcomes = await snapshot('2026-01-10T16:10:00Z');
    expect(outcomes.map((o) => [o.jurisdiction, o.outcome, o.closures])).toEqual([['CA-AB', 'failed', 2], ['CA-ON', 'changed', 0]]);
    const { rows } = await pool.query(`SELECT jurisdiction, count(*)::int AS n, max(fetched_at) AS at FROM road_closures GROUP BY 1 ORDER BY 1`);
    expect(rows.map((r) => [r.jurisdiction, r.n, r.at.toISOString()])).toEqual([['CA-AB', 2, '2026-01-10T16:05:00.000Z']]);
    expect((await readFeedStatus(pool, 'closures:CA-AB'))!.lastError).toBe('upstream answered HTTP 500');
    // Ontario's previous answer had 3 events (< 10), so an empty list is believed; with many it is refused:
    await pool.query(`UPDATE road_feed_status SET upstream_count = 40 WHERE feed = 'closures:CA-ON'`);
    upstream.script('/on/api/v2/get/event', { body: fixture('ontario-511-events.json') });
    await snapshot('2026-01-10T16:11:00Z');
    await pool.query(`UPDATE road_feed_status SET upstream_count = 40 WHERE feed = 'closures:CA-ON'`);
    upstream.script('/on/api/v2/get/event', { body: '[]' });
    const [, on] = await snapshot('2026-01-10T16:12:00Z');
    expect(on).toMatchObject({ outcome: 'anomaly', closures: 2 });
    expect(on!.message).toBe('upstream answered with no events while the previous answer had 40; kept the stored snapshot');
    upstream.script('/on/api/v2/get/event', { body: 'not json' });
    expect((await snapshot('2026-01-10T16:13:00Z'))[1]).toMatchObject({ outcome: 'failed', closures: 2 });
  });

  it('a refused or failed events poll keeps BC\'s closures too', async () => {
    upstream.script('/bc/events', { body: fixture('open511-spec-cases.json') });
    expect((await pollBc('2026-01-10T16:20:00Z')).closures).toBe(2);
    upstream.script('/bc/events', { status: 500, body: 'down' });
    expect((await pollBc('2026-01-10T16:21:00Z')).outcome).toBe('failed');
    upstream.script('/bc/events', { body: JSON.stringify({ events: [], pagination: { offset: '0' } }) });
    expect((await pollBc('2026-01-10T16:22:00Z')).outcome).toBe('anomaly');
    const { rows } = await pool.query(`SELECT source_id, fetched_at FROM road_closures WHERE jurisdiction = 'CA-BC' ORDER BY 1`);
    expect(rows.map((r) => [r.source_id, r.fetched_at.toISOString()])).toEqual([
      ['drivebc.ca/SPEC-CLOSED', '2026-01-10T16:20:00.000Z'],
      ['drivebc.ca/SPEC-NIGHTLY', '2026-01-10T16:20:00.000Z'],
    ]);
  });
});

describe('closures near a route (what routing warnings use)', () => {
  beforeAll(async () => {
    upstream.script('/bc/events', { body: bcWithClosure() });
    upstream.script('/ab/api/v2/get/event', { body: fixture('alberta-511-events.json') });
    upstream.script('/on/api/v2/get/event', { body: fixture('ontario-511-events.json') });
    expect((await pollBc('2023-06-15T18:00:00Z')).closures).toBe(1);
    const outcomes = await snapshot('2023-06-15T18:00:00Z');
    expect(outcomes.map((o) => o.outcome).every((o) => o === 'changed' || o === 'unchanged'), JSON.stringify(outcomes)).toBe(true);
  });

  it('a route along the real Highway 14 line meets the closure on the same stretch, in force', async () => {
    const route = line('DBC-53145'); // Sombrio Beach Trail – Petrel Dr, 186 real vertices
    const found = await closuresNearRoute(pool, route, { now: new Date('2023-06-15T18:10:00Z') });
    expect(found.inForce).toEqual([{
      jurisdiction: 'CA-BC', sourceId: 'drivebc.ca/DBC-52791', road: 'Highway 14', direction: 'both',
      description: expect.stringContaining('Highway 14'), distanceMeters: 0,
      effectiveFrom: '2023-05-24T16:00:00Z', until: '2023-07-27T22:00:00Z', fetchedAt: '2023-06-15T18:00:00Z',
    }]);
    expect(found.scheduled).toEqual([]);
    expect(found.coverage).toEqual([
      { jurisdiction: 'CA-BC', fetchedAt: '2023-06-15T18:00:00Z', current: true },
      { jurisdiction: 'CA-AB', fetchedAt: '2023-06-15T18:00:00Z', current: true },
      { jurisdiction: 'CA-ON', fetchedAt: '2023-06-15T18:00:00Z', current: true },
    ]);
    // Three missed five-minute refreshes later the snapshot no longer counts as coverage.
    const later = await closuresNearRoute(pool, route, { now: new Date('2023-06-15T18:15:01Z') });
    expect(later.coverage.map((c) => c.current)).toEqual([false, false, false]);
    expect(later.inForce).toHaveLength(1);
  });

  it('before its schedule starts the same closure is scheduled, with effectiveFrom', async () => {
    const found = await closuresNearRoute(pool, line('DBC-53145'), { now: new Date('2023-05-20T12:00:00Z') });
    expect(found.inForce).toEqual([]);
    expect(found.scheduled.map((c) => [c.sourceId, c.effectiveFrom, c.until])).toEqual([['drivebc.ca/DBC-52791', '2023-05-24T16:00:00Z', '2023-07-27T22:00:00Z']]);
    expect((await closuresNearRoute(pool, line('DBC-53145'), { now: new Date('2023-08-01T00:00:00Z') })).inForce).toEqual([]); // ended
  });

  it('the other real Highway 14 line (Sooke–Metchosin, 40 km east) is not near it', async () => {
    const found = await closuresNearRoute(pool, line('DBC-46014'), { now: new Date('2023-06-15T18:30:00Z') });
    expect(found.inForce).toEqual([]);
    expect(found.scheduled).toEqual([]);
  });

  it('250 m decides: closures 200 m and 300 m beside a real segment of the route', async () => {
    const route = line('DBC-46014');
    const near = beside(route, 60, 200), far = beside(route, 90, 300);
    await pool.query(
      `INSERT INTO road_closures (jurisdiction, source_id, road, direction, description, windows, geometry, minlon, minlat, maxlon, maxlat, content_hash, fetched_at)
       VALUES ('CA-BC', 'test/near', 'Side road', 'both', 'near', '[[null, null]]', $1, $2, $3, $2, $3, 'x', now()),
              ('CA-BC', 'test/far', 'Side road', 'both', 'far', '[[null, null]]', $4, $5, $6, $5, $6, 'x', now())`,
      [JSON.stringify({ type: 'Point', coordinates: near }), near[0], near[1], JSON.stringify({ type: 'Point', coordinates: far }), far[0], far[1]],
    );
    const found = await closuresNearRoute(pool, route, { now: new Date('2023-06-15T18:30:00Z') });
    expect(found.inForce.map((c) => c.sourceId)).toEqual(['test/near']);
    expect(found.inForce[0]!.distanceMeters).toBeGreaterThanOrEqual(198);
    expect(found.inForce[0]!.distanceMeters).toBeLessThanOrEqual(202);
    expect(found.inForce[0]!.effectiveFrom).toBeNull();
    expect((await closuresNearRoute(pool, route, { now: new Date('2023-06-15T18:30:00Z'), withinMetres: 400 })).inForce.map((c) => c.sourceId)).toEqual(['test/near', 'test/far']);
    await pool.query(`DELETE FROM road_closures WHERE source_id LIKE 'test/%'`);
  });

  it('Alberta and Ontario: in force on the Canmore–Banff line, scheduled on Highway 401', async () => {
    const now = new Date('2026-01-10T16:00:00Z');
    const banff: LngLatPosition[] = [[-115.3600, 51.0990], [-115.4671, 51.1352], [-115.5689, 51.1713]];
    const ab = await closuresNearRoute(pool, banff, { now });
    expect(ab.inForce.map((c) => [c.jurisdiction, c.sourceId, c.effectiveFrom, c.until])).toEqual([['CA-AB', '45122', '2026-01-10T14:20:00Z', null]]);
    const toronto: LngLatPosition[] = [[-79.60, 43.71], [-79.51, 43.7245], [-79.40, 43.75]];
    const on = await closuresNearRoute(pool, toronto, { now });
    expect(on.inForce).toEqual([]);
    expect(on.scheduled.map((c) => [c.sourceId, c.effectiveFrom, c.until])).toEqual([['ONT-MTO-60211', '2026-01-11T04:00:00Z', '2026-01-11T10:00:00Z']]);
    expect(on.scheduled[0]!.distanceMeters).toBeLessThanOrEqual(250);
    // Coverage says how old each snapshot is: these were fetched in 2023.
    expect(on.coverage.every((c) => c.current === false)).toBe(true);
  });

  it('the real DBC-53145 (open interval + daily 09:00–15:00) marked CLOSED warns only in its daily windows', async () => {
    const local = (text: string) => new Date(parsePublisherTime(text, 'America/Vancouver')!.ms);
    upstream.script('/bc/events', { body: bcWithClosure('DBC-53145') });
    expect((await pollBc('2023-06-14T16:00:00Z')).closures).toBe(1);
    const route = line('DBC-46014').slice(0, 2).concat(line('DBC-53145').slice(80, 82)); // crosses the closed stretch
    const morning = await closuresNearRoute(pool, route, { now: local('2023-06-14T10:00') }); // a Wednesday
    expect(morning.inForce.map((c) => [c.sourceId, c.effectiveFrom, c.until])).toEqual([['drivebc.ca/DBC-53145', '2023-06-14T16:00:00Z', '2023-06-14T22:00:00Z']]);
    const night = await closuresNearRoute(pool, route, { now: local('2023-06-14T22:00') });
    expect(night.inForce).toEqual([]);
    expect(night.scheduled.map((c) => [c.sourceId, c.effectiveFrom])).toEqual([['drivebc.ca/DBC-53145', '2023-06-15T16:00:00Z']]);
    // After the recurring schedule's end (2023-07-28) the event is no closure at all.
    expect((await pollBc('2023-07-29T17:00:00Z')).closures).toBe(0);
    const after = await closuresNearRoute(pool, route, { now: local('2023-07-29T10:00') });
    expect([after.inForce, after.scheduled]).toEqual([[], []]);
  });

  it('refuses a route that is not [lng, lat] positions', async () => {
    await expect(closuresNearRoute(pool, [])).rejects.toThrow('route must have at least one [lng, lat] position');
    await expect(closuresNearRoute(pool, [[49.2, -190]] as LngLatPosition[])).rejects.toThrow(/is not \[lng, lat\] in WGS84/);
  });
});

describe('the API\'s cached copy of the closure snapshots', () => {
  const route = () => line('DBC-46014');
  const now = new Date('2023-06-15T18:30:00Z');
  const insertNear = (id: string) => {
    const p = beside(route(), 60, 100);
    return pool.query(
      `INSERT INTO road_closures (jurisdiction, source_id, road, direction, description, windows, geometry, minlon, minlat, maxlon, maxlat, content_hash, fetched_at)
       VALUES ('CA-BC', $1, 'Side road', 'both', 'cached', '[[null, null]]', $2, $3, $4, $3, $4, 'x', now())`,
      [id, JSON.stringify({ type: 'Point', coordinates: p }), p[0], p[1]],
    );
  };

  it('answers as the Postgres read does, sees a changed snapshot after its TTL, and keeps the last copy when Postgres fails', async () => {
    const own = createPool(t.config.databaseUrl, 2);
    const errors: unknown[] = [];
    const cache = closureSnapshotCache(own, (err) => errors.push(err), 200);
    try {
      const banff: LngLatPosition[] = [[-115.3600, 51.0990], [-115.4671, 51.1352], [-115.5689, 51.1713]];
      const toronto: LngLatPosition[] = [[-79.60, 43.71], [-79.51, 43.7245], [-79.40, 43.75]];
      for (const [positions, at] of [[banff, '2026-01-10T16:00:00Z'], [toronto, '2026-01-10T16:00:00Z'], [toronto, '2026-01-11T05:00:00Z']] as const) {
        const options = { now: new Date(at) };
        const expected = await closuresNearRoute(pool, positions, options);
        expect(expected.inForce.length + expected.scheduled.length).toBe(1);
        expect(closuresNearLine(await cache.current(), RouteLine.of(positions), options)).toEqual(expected);
      }
      const near = async () => closuresNearLine(await cache.current(), RouteLine.of(route()), { now }).inForce.map((c) => c.sourceId);
      expect(await near()).toEqual([]);
      await insertNear('test/cached');
      expect(await near()).toEqual([]); // within the TTL: the copy in hand
      await new Promise((r) => setTimeout(r, 250));
      expect(await near()).toEqual(['test/cached']);
      expect(closuresNearLine(await cache.current(), RouteLine.of(route()), { now })).toEqual(await closuresNearRoute(pool, route(), { now }));
      await own.end(); // Postgres unreadable from now on
      await new Promise((r) => setTimeout(r, 250));
      expect(await near()).toEqual(['test/cached']);
      expect(await near()).toEqual(['test/cached']);
      expect(errors).toHaveLength(1); // the next read is tried a TTL later, not by every request
    } finally {
      await pool.query(`DELETE FROM road_closures WHERE source_id LIKE 'test/%'`);
      if (!own.ended) await own.end();
    }
  });

  it('shares one read among concurrent requests, and without a copy yet a failing Postgres is an error', async () => {
    const own = createPool(t.config.databaseUrl, 2);
    let reads = 0;
    own.on('acquire', () => reads++);
    const cache = closureSnapshotCache(own, () => {}, 60_000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => cache.current()));
    expect(new Set(answers).size).toBe(1);
    expect(reads).toBe(2); // road_closures and road_feed_status, once
    await own.end();
    await expect(closureSnapshotCache(own).current()).rejects.toThrow();
  });
});

import { Validator } from '@seriousme/openapi-schema-validator';
import { Value } from '@sinclair/typebox/value';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpOptions } from '../../ingest/road-events/http-json.ts';
import { pollRoadEvents } from '../../ingest/road-events/poll.ts';
import { createPool } from '../../lib/postgres.ts';
import { RoadEventsResponse } from '../../schemas/road-events-api.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { RoadEventsApi } from '../support/road-events-api-stack.ts';
import { drivebc, FakePublisher, fixture, open511Page } from '../support/road-events-upstream.ts';

let t: TestEnv;
let pool: Pool;
let upstream: FakePublisher;
let api: RoadEventsApi;

const HTTP: HttpOptions = { timeoutMs: 400, attempts: 1, backoffMs: 10, maxRetryAfterMs: 1_000, maxBytes: 16 * 1024 * 1024 };
const T0 = '2026-01-10T16:00:00Z';
const plus = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

async function pollAt(iso: string, path = '/events', pollIntervalMs: number | null = null) {
  const outcome = await pollRoadEvents(pool, { url: upstream.url(path), http: HTTP, now: () => new Date(iso), pollIntervalMs });
  api.refresh();
  return outcome;
}

/** Polls at `iso` and answers `path` as of then. */
async function getAt(iso: string, path: string) {
  await pollAt(iso);
  api.setNow(iso);
  return api.get(path);
}

const ids = (body: { data: { source_id: string }[] }) => body.data.map((e) => e.source_id.replace('drivebc.ca/', ''));

beforeAll(async () => {
  t = await createTestEnv('road_events_api');
  pool = createPool(t.config.databaseUrl, 2);
  upstream = await FakePublisher.start();
  api = await RoadEventsApi.start(t);
});

afterAll(async () => {
  await api?.close();
  await upstream?.close();
  await pool?.end();
  await t?.cleanup();
});

describe('before any poll', () => {
  it('answers 503, retryable, not cached', async () => {
    const res = await api.get('/incidents');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'road events temporarily unavailable', code: 'service_unavailable', retryable: true });
    expect(res.headers['retry-after']).toBe('30');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('the three endpoints over a polled snapshot', () => {
  beforeAll(async () => {
    upstream.script('/events', { body: fixture('open511-spec-cases.json') });
    expect((await pollAt(T0)).outcome).toBe('changed');
    api.setNow(plus(T0, 0.5));
  });

  it('GET /incidents: every event, most severe first (as served: major, minor, unknown) then most recently updated, with meta and a 60 s edge cache', async () => {
    const res = await api.get('/incidents');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Value.Check(RoadEventsResponse, res.body), JSON.stringify([...Value.Errors(RoadEventsResponse, res.body)].slice(0, 3))).toBe(true);
    expect(ids(res.body)).toEqual([
      'SPEC-PLANNED', 'SPEC-CLOSED', 'SPEC-POLYGON', 'SPEC-NIGHTLY', // major, newest publisher update first
      'SPEC-SNOW-ALT', 'SPEC-ICE', 'SPEC-FOG', 'SPEC-ARCHIVED', // minor
      'SPEC-OPEN-LANES', 'SPEC-UNMAPPED', 'SPEC-LANES', // unknown: UNKNOWN, an unmapped token, MODERATE
    ]);
    expect(res.body.data[10]).toMatchObject({ source_id: 'drivebc.ca/SPEC-LANES', severity: 'unknown' });
    expect(res.body.meta).toEqual({
      source: 'DriveBC Open511 events',
      status: 'current',
      attribution: 'Contains information licensed under the Open Government Licence – British Columbia (DriveBC).',
      fetched_at: '2026-01-10T16:00:00Z',
    });
    const byId = Object.fromEntries(res.body.data.map((e: { source_id: string; status: string }) => [e.source_id.replace('drivebc.ca/', ''), e.status]));
    expect(byId).toMatchObject({ 'SPEC-PLANNED': 'planned', 'SPEC-NIGHTLY': 'planned', 'SPEC-ARCHIVED': 'archived', 'SPEC-CLOSED': 'active', 'SPEC-ICE': 'active', 'SPEC-POLYGON': 'active' });
    expect(res.body.data[1]).toMatchObject({
      id: 'svc:road:ca-bc:drivebc.ca%2FSPEC-CLOSED', jurisdiction: 'CA-BC', type: 'incident', severity: 'major', condition: 'closed',
      source_updated_at: '2026-01-10T07:15:40-07:00', svc_updated_at: '2026-01-10T16:00:00Z', source: 'DriveBC Open511 events',
      geometry: { type: 'Point', coordinates: [-117.5196, 51.3003] },
    });
  });

  it('GET /closures: only roads whose state is CLOSED, shut now unless status asks for scheduled ones', async () => {
    const res = await api.get('/closures');
    expect(ids(res.body)).toEqual(['SPEC-CLOSED']);
    expect(Value.Check(RoadEventsResponse, res.body)).toBe(true);
    expect(ids((await api.get('/closures?status=planned')).body)).toEqual(['SPEC-PLANNED', 'SPEC-NIGHTLY']);
    const all = (await api.get('/closures?status=active,planned,archived')).body;
    expect(ids(all)).toEqual(['SPEC-PLANNED', 'SPEC-CLOSED', 'SPEC-NIGHTLY']);
    expect(all.data.every((e: { roads: { closed: boolean }[] }) => e.roads.some((r) => r.closed))).toBe(true);
    // /incidents keeps listing every current event.
    expect(ids((await api.get('/incidents?type=construction&severity=major')).body)).toEqual(['SPEC-PLANNED', 'SPEC-NIGHTLY']);
  });

  it('GET /road-conditions: events carrying a surface condition', async () => {
    const res = await api.get('/road-conditions');
    expect(ids(res.body)).toEqual(['SPEC-SNOW-ALT', 'SPEC-ICE']);
    expect(Value.Check(RoadEventsResponse, res.body)).toBe(true);
    expect(res.body.data.map((e: { condition: string }) => e.condition)).toEqual(['partly_snow_packed', 'ice_covered']);
  });

  it('filters by type, severity, status and updated_since (comma lists are OR)', async () => {
    expect(ids((await api.get('/incidents?type=weather')).body)).toEqual(['SPEC-FOG']);
    expect(ids((await api.get('/incidents?type=construction,special_event')).body)).toEqual(['SPEC-PLANNED', 'SPEC-NIGHTLY', 'SPEC-ARCHIVED', 'SPEC-LANES']);
    expect(ids((await api.get('/incidents?severity=unknown')).body)).toEqual(['SPEC-OPEN-LANES', 'SPEC-UNMAPPED', 'SPEC-LANES']);
    expect(ids((await api.get('/incidents?status=planned')).body)).toEqual(['SPEC-PLANNED', 'SPEC-NIGHTLY']);
    expect(ids((await api.get('/incidents?status=archived,planned&severity=minor')).body)).toEqual(['SPEC-ARCHIVED']);
    expect(ids((await api.get('/closures?status=active')).body)).toEqual(['SPEC-CLOSED']);
    const since = ['SPEC-PLANNED', 'SPEC-CLOSED', 'SPEC-POLYGON', 'SPEC-OPEN-LANES', 'SPEC-UNMAPPED'];
    expect(ids((await api.get('/incidents?updated_since=2026-01-10T14:00:00Z')).body)).toEqual(since);
    expect(ids((await api.get(`/incidents?updated_since=${encodeURIComponent('2026-01-10T07:00:00-07:00')}`)).body)).toEqual(since);
    expect(ids((await api.get('/incidents?updated_since=2026-01-10T23:00:00+09:00')).body)).toEqual(since); // '+' decoded as a space
    expect(ids((await api.get('/incidents?updated_since=2026-01-10T14:15:40Z')).body)).toEqual(['SPEC-PLANNED', 'SPEC-CLOSED', 'SPEC-OPEN-LANES']); // at or after
  });

  it('bbox keeps events with some part inside the box, lines included when only a segment crosses it', async () => {
    expect(ids((await api.get('/incidents?bbox=-123.5,48.3,-122.9,49.8')).body)).toEqual(['SPEC-ARCHIVED', 'SPEC-OPEN-LANES', 'SPEC-LANES']);
    // The Coquihalla line has no vertex in this box; its segment crosses it.
    expect(ids((await api.get('/incidents?bbox=-121.3086,49.4911,-121.2986,49.5011')).body)).toEqual(['SPEC-ICE']);
    expect(ids((await api.get('/incidents?bbox=-121.3086,49.5111,-121.2986,49.5211')).body)).toEqual([]);
    // An area: a box inside the smoke polygon, with none of its vertices.
    expect(ids((await api.get('/incidents?bbox=-120.45,50.52,-120.42,50.53')).body)).toEqual(['SPEC-POLYGON']);
  });

  it('near + radius measures to the line, not to its vertices; radius defaults to 25 km', async () => {
    // 500 m north of the middle of a 2.9 km segment of the Kicking Horse closure line.
    const near = `${(-116.9255 + -116.8862) / 2},${(51.2861 + 51.2957) / 2 + 500 / 111_195}`;
    expect(ids((await api.get(`/incidents?near=${near}&radius=600`)).body)).toEqual(['SPEC-NIGHTLY']);
    expect(ids((await api.get(`/incidents?near=${near}&radius=300`)).body)).toEqual([]);
    expect(ids((await api.get('/incidents?near=-117.7,51.3')).body)).toEqual(['SPEC-CLOSED']); // 12.5 km from Rogers Pass, 51 km from Kicking Horse
    expect(ids((await api.get('/incidents?near=-117.7,51.3&radius=10000')).body)).toEqual([]);
    expect(ids((await api.get('/closures?near=-117.7,51.3&radius=60000&status=active,planned')).body)).toEqual(['SPEC-CLOSED', 'SPEC-NIGHTLY']);
    expect(ids((await api.get('/closures?near=-117.7,51.3&radius=500000&bbox=-118,51,-117,52&status=active,planned')).body)).toEqual(['SPEC-CLOSED']);
    // Inside an area is 0 m from it; outside, the distance is to its nearest edge.
    expect(ids((await api.get('/incidents?near=-120.43,50.52&radius=1')).body)).toEqual(['SPEC-POLYGON']);
    expect(ids((await api.get('/incidents?near=-120.43,50.49&radius=1200')).body)).toEqual(['SPEC-POLYGON']); // 1.11 km south of its edge
    expect(ids((await api.get('/incidents?near=-120.43,50.49&radius=1000')).body)).toEqual([]);
  });

  it('limit cuts the ordered list; jurisdiction accepts CA-BC in any case', async () => {
    expect(ids((await api.get('/incidents?limit=2')).body)).toEqual(['SPEC-PLANNED', 'SPEC-CLOSED']);
    expect((await api.get('/incidents?jurisdiction=ca-bc')).body.data).toHaveLength(11);
    expect((await api.get('/incidents?jurisdiction=CA-BC,CA-BC&limit=500')).body.data).toHaveLength(11);
  });

  it.each([
    ['jurisdiction=CA-AB', 'jurisdiction must be CA-BC: road events cover British Columbia only (got "CA-AB")'],
    ['jurisdiction=CA-BC,CA-ON', 'jurisdiction must be CA-BC: road events cover British Columbia only (got "CA-ON")'],
    ['jurisdiction=', 'jurisdiction must be CA-BC: road events cover British Columbia only'],
    ['bbox=1,2,3', 'bbox must be west,south,east,north with 4 finite numbers, e.g. bbox=-123.5,48.3,-123.2,48.6'],
    ['bbox=a,b,c,d', 'bbox must be west,south,east,north with 4 finite numbers, e.g. bbox=-123.5,48.3,-123.2,48.6'],
    ['bbox=-123,49,NaN,50', 'bbox must be west,south,east,north with 4 finite numbers, e.g. bbox=-123.5,48.3,-123.2,48.6'],
    ['bbox=-123,50,-122,49', 'bbox south must not be greater than north (bbox is west,south,east,north)'],
    ['bbox=-122,49,-123,50', 'bbox west must not be greater than east (bbox is west,south,east,north)'],
    ['bbox=-190,49,-122,50', 'bbox must be west,south,east,north with longitudes between -180 and 180 and latitudes between -90 and 90'],
    ['near=49.2', 'near must be lng,lat: two decimal numbers separated by a comma, e.g. near=-123.37,48.43'],
    ['near=-123,95', 'near latitude must be between -90 and 90 (near is lng,lat)'],
    ['near=-123,49&radius=0', 'radius must be an integer between 1 and 500000'],
    ['near=-123,49&radius=500001', 'radius must be an integer between 1 and 500000'],
    ['near=-123,49&radius=1e999', 'radius must be an integer between 1 and 500000'],
    ['near=-123,49&radius=ten', 'radius must be an integer between 1 and 500000'],
    ['radius=5000', 'radius needs near=lng,lat'],
    ['type=closures', 'type must be one or more of closure, incident, construction, weather, restriction, ferry, hazard, special_event, unknown (comma-separated)'],
    ['severity=moderate', 'severity must be one or more of minor, major, unknown (comma-separated)'],
    ['status=open', 'status must be one or more of active, planned, archived (comma-separated)'],
    ['updated_since=2026-01-10', 'updated_since must be an ISO 8601 date-time with Z or a UTC offset, e.g. 2026-03-08T14:30:00Z'],
    ['updated_since=2026-01-10T14:00:00', 'updated_since must be an ISO 8601 date-time with Z or a UTC offset, e.g. 2026-03-08T14:30:00Z'],
    ['updated_since=2026-02-30T14:00:00Z', 'updated_since must be an ISO 8601 date-time with Z or a UTC offset, e.g. 2026-03-08T14:30:00Z'],
    ['limit=0', 'limit must be an integer between 1 and 500'],
    ['limit=501', 'limit must be an integer between 1 and 500'],
    ['limit=1e999', 'limit must be an integer between 1 and 500'],
  ])('400 for %s names the parameter', async (query, message) => {
    for (const path of ['/incidents', '/closures', '/road-conditions']) {
      const res = await api.get(`${path}?${query}`);
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ error: message });
    }
  });

  it('the three endpoints and their parameters are in /openapi.json, which stays valid OpenAPI 3.1', async () => {
    const doc = (await api.get('/openapi.json')).body;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const path of ['/incidents', '/closures', '/road-conditions']) {
      const op = doc.paths[path].get;
      expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['bbox', 'jurisdiction', 'limit', 'near', 'radius', 'severity', 'status', 'type', 'updated_since']);
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '503']);
    }
  });

  it('when Postgres cannot be read, the last view keeps being served', async () => {
    const before = (await api.get('/incidents')).body;
    await pool.query('ALTER TABLE road_feed_status RENAME TO road_feed_status_away');
    try {
      api.refresh();
      const res = await api.get('/incidents');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(before);
    } finally {
      await pool.query('ALTER TABLE road_feed_status_away RENAME TO road_feed_status');
    }
    const fresh = await RoadEventsApi.start(t); // with no view yet, the same fault is a 503
    await pool.query('ALTER TABLE road_feed_status RENAME TO road_feed_status_away');
    try {
      expect((await fresh.get('/incidents')).status).toBe(503);
    } finally {
      await pool.query('ALTER TABLE road_feed_status_away RENAME TO road_feed_status');
      await fresh.close();
    }
  });

  it('a new app (an API restart) serves the same snapshot from Postgres', async () => {
    const other = await RoadEventsApi.start(t);
    try {
      other.setNow(plus(T0, 0.5));
      expect((await other.get('/incidents')).body).toEqual((await api.get('/incidents')).body);
    } finally {
      await other.close();
    }
  });
});

describe('freshness over time (clock injected into the polls and the API)', () => {
  it('current → stale when polls succeed but nothing changes for over an hour', async () => {
    expect((await pollAt(plus(T0, 30))).outcome).toBe('unchanged');
    api.setNow(plus(T0, 31));
    expect((await api.get('/incidents')).body.meta.status).toBe('current');
    expect((await pollAt(plus(T0, 60))).outcome).toBe('unchanged');
    api.setNow(plus(T0, 60));
    expect((await api.get('/incidents')).body.meta.status).toBe('current'); // exactly an hour is not over an hour
    expect((await pollAt(plus(T0, 61))).outcome).toBe('unchanged');
    api.setNow(plus(T0, 61.5));
    const res = await api.get('/incidents');
    expect(res.body.meta).toMatchObject({ status: 'stale', fetched_at: '2026-01-10T17:01:00Z' });
    expect(res.body.meta.unavailable).toBeUndefined();
    expect(res.body.data).toHaveLength(11);
  });

  it('partial while the upstream fails, with the last good snapshot still served', async () => {
    upstream.script('/down', { status: 502, body: 'bad gateway' });
    expect((await pollAt(plus(T0, 62), '/down')).outcome).toBe('failed');
    api.setNow(plus(T0, 62.5));
    const res = await api.get('/closures');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({
      source: 'DriveBC Open511 events',
      status: 'partial',
      attribution: expect.any(String),
      fetched_at: '2026-01-10T17:01:00Z',
      unavailable: [{ jurisdiction: 'CA-BC', reason: 'last poll failed: upstream answered HTTP 502; serving the snapshot of 2026-01-10T17:01:00Z' }],
    });
    expect(ids(res.body)).toEqual(['SPEC-CLOSED']);
  });

  it('503 once no poll has succeeded for 15 minutes', async () => {
    api.setNow(plus(T0, 61 + 15));
    expect((await api.get('/incidents')).body.meta.status).toBe('partial'); // exactly 15 minutes: still served
    api.setNow(plus(T0, 61 + 15.1));
    const res = await api.get('/incidents');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'road events temporarily unavailable', code: 'service_unavailable', retryable: true });
    expect(res.headers['retry-after']).toBe('30');
  });

  it('partial when polls have stopped for over 5 minutes even without an error', async () => {
    expect((await pollAt(plus(T0, 80))).outcome).toBe('unchanged');
    api.setNow(plus(T0, 85.1));
    expect((await api.get('/incidents')).body.meta).toMatchObject({
      status: 'partial',
      unavailable: [{ jurisdiction: 'CA-BC', reason: 'no successful poll since 2026-01-10T17:20:00Z' }],
    });
  });

  it('current again after a poll that changes something', async () => {
    upstream.script('/events', { body: drivebc('four') });
    expect((await pollAt(plus(T0, 86))).outcome).toBe('changed');
    api.setNow(plus(T0, 86.5));
    const res = await api.get('/incidents');
    expect(res.body.meta.status).toBe('current');
    expect(ids(res.body)).toEqual(['DBC-52446', 'DBC-52791', 'DBC-53145', 'DBC-46014']);
  });

  it('an empty feed is an anomaly: partial, the previous snapshot kept', async () => {
    upstream.script('/events', { body: fixture('open511-spec-cases.json') });
    await pollAt(plus(T0, 87));
    upstream.script('/events', { body: open511Page([]) });
    expect((await pollAt(plus(T0, 88))).outcome).toBe('anomaly');
    api.setNow(plus(T0, 88.5));
    const res = await api.get('/incidents');
    expect(res.body.data).toHaveLength(11);
    expect(res.body.meta).toMatchObject({
      status: 'partial',
      unavailable: [{ jurisdiction: 'CA-BC', reason: 'upstream answered with no events while 11 are stored; kept the stored snapshot; serving the snapshot of 2026-01-10T17:27:00Z' }],
    });
  });

  it('a feed that stays empty is believed after 3 empty answers over 5 minutes: current again, with no events', async () => {
    expect((await pollAt(plus(T0, 90))).outcome).toBe('anomaly');
    expect((await pollAt(plus(T0, 91))).outcome).toBe('anomaly');
    expect((await pollAt(plus(T0, 92))).outcome).toBe('anomaly'); // 3 in a row, 4 minutes
    api.setNow(plus(T0, 93));
    expect((await api.get('/incidents')).body.meta.status).toBe('partial');
    expect((await pollAt(plus(T0, 93))).outcome).toBe('changed');
    const res = await api.get('/incidents');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: expect.objectContaining({ status: 'current', fetched_at: '2026-01-10T17:33:00Z' }) });
    expect(res.body.meta.unavailable).toBeUndefined();
  });
});

describe('status follows the schedule (one rule for the API, the closures and the tests)', () => {
  beforeAll(() => upstream.script('/events', { body: fixture('open511-spec-cases.json') }));
  const nightly = async (iso: string, path = '/incidents?type=construction&severity=major') => {
    const res = await getAt(iso, path);
    expect(res.status).toBe(200);
    return (res.body.data as { source_id: string; status: string }[]).find((e) => e.source_id === 'drivebc.ca/SPEC-NIGHTLY')?.status ?? 'absent';
  };

  it('SPEC-NIGHTLY (Mon–Thu 21:00–05:00 Mountain) goes planned → active → planned → archived as the clock moves', async () => {
    expect(await nightly('2026-01-13T03:59:00Z')).toBe('planned'); // Mon 20:59 MST
    expect(await nightly('2026-01-13T04:00:00Z')).toBe('active'); // Mon 21:00
    expect(await nightly('2026-01-13T11:59:00Z')).toBe('active'); // Tue 04:59
    expect(await nightly('2026-01-13T12:00:00Z')).toBe('planned'); // Tue 05:00: shut again tonight
    expect(await nightly('2026-01-16T05:00:00Z')).toBe('planned'); // Thu 22:00, an exception day: not closed
    expect(await nightly('2026-01-30T13:00:00Z')).toBe('archived'); // after its last window
    // The clock may go back: statuses are recomputed.
    expect(await nightly('2026-01-13T05:00:00Z')).toBe('active');
  });

  it('/closures lists it only while the road is shut; status=planned lists it between windows', async () => {
    expect(ids((await getAt('2026-01-13T05:00:00Z', '/closures')).body)).toEqual(['SPEC-CLOSED', 'SPEC-NIGHTLY']);
    expect(ids((await getAt('2026-01-13T13:00:00Z', '/closures')).body)).toEqual(['SPEC-CLOSED']);
    expect(ids((await getAt('2026-01-13T13:00:00Z', '/closures?status=planned')).body)).toEqual(['SPEC-PLANNED', 'SPEC-NIGHTLY']);
  });
});

describe('freshness thresholds scale with the worker\'s poll interval', () => {
  beforeAll(() => upstream.script('/events', { body: fixture('open511-spec-cases.json') }));
  const T1 = '2026-02-01T12:00:00Z';

  it('polled every 60 s: partial after 5 minutes without success, 503 after 15', async () => {
    await pollAt(T1, '/events', 60_000);
    api.setNow(plus(T1, 5.1));
    expect((await api.get('/incidents')).body.meta.status).toBe('partial');
    api.setNow(plus(T1, 15.1));
    expect((await api.get('/incidents')).status).toBe(503);
  });

  it('polled every hour: partial after 3 hours without success, 503 after 5', async () => {
    await pollAt(plus(T1, 20), '/events', 3_600_000);
    api.setNow(plus(T1, 20 + 30));
    // Served without unavailable: stale only because the answer has not changed for days.
    expect((await api.get('/incidents')).body.meta).toMatchObject({ status: 'stale', fetched_at: '2026-02-01T12:20:00Z' });
    api.setNow(plus(T1, 20 + 180.5));
    expect((await api.get('/incidents')).body.meta).toMatchObject({ status: 'partial', unavailable: [{ reason: 'no successful poll since 2026-02-01T12:20:00Z' }] });
    api.setNow(plus(T1, 20 + 300));
    expect((await api.get('/incidents')).status).toBe(200);
    api.setNow(plus(T1, 20 + 300.5));
    expect((await api.get('/incidents')).status).toBe(503);
  });

  it('a one-off poll (ingest road-events --once) keeps the interval the schedule recorded', async () => {
    await pollAt(plus(T1, 400));
    api.setNow(plus(T1, 400 + 30));
    expect((await api.get('/incidents')).body.meta.status).toBe('stale'); // not partial: still the hourly thresholds
  });
});

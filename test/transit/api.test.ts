import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFeedsList } from '../../ingest/transit/feeds-list.ts';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { expectedDepartures, readGtfsZip, type Table } from '../support/transit-api-oracle.ts';
import { GTFS_DIR, routePath, stopPath, TransitApiStack } from '../support/transit-api-stack.ts';
import { repoPath } from '../support/paths.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

/*
 * The transit API over a release built by the real builder from real feeds (attribution:
 * VIA Rail Canada via better-via-gtfs; Société des traversiers du Québec via transitdata.ca;
 * TriMet and Portland Streetcar via transit.land; Golden Gate-style ggl feed — see
 * ../shared/data/SOURCES.md), plus the bundled vancouver-bus sample, which runs every hour of
 * 2026–2027. Expected departures come from an independent reading of the zips. The release is
 * built from a feeds list with relative sources, as an operator writes one.
 */

const ZIPS = {
  via: 'ca-via-rail-better-via-gtfs.zip',
  stq: 'ca-qc-stq-ferries.zip',
  trimet: 'transitland-trimet-2routes.zip',
  ggl: 'ggl_gtfs.zip',
} as const;

const ZONES = {
  via: { standardOffset: -5, observesDst: true }, // America/Toronto
  stq: { standardOffset: -5, observesDst: true }, // America/Montreal
  trimet: { standardOffset: -8, observesDst: true }, // America/Los_Angeles
};

const SAMPLES_DIR = repoPath('samples/gtfs');

/** Sources as written in the feeds list: relative to its folder, which links `gtfs/` and `samples/`. */
const SOURCES = {
  via: `gtfs/${ZIPS.via}`,
  stq: `gtfs/${ZIPS.stq}`,
  trimet: `gtfs/${ZIPS.trimet}`,
  ggl: `gtfs/${ZIPS.ggl}`,
  'vancouver-bus': 'samples/vancouver-bus',
} as const;

let stack: TransitApiStack;
let release: RegisteredRelease;
let feedsDir: string;
const raw: Record<string, Record<string, Table>> = {};

/** The feeds list the release is built from, in a folder of its own. */
async function writeFeedsList(): Promise<string> {
  feedsDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-transit-api-feeds-'));
  await symlink(GTFS_DIR, path.join(feedsDir, 'gtfs'));
  await symlink(SAMPLES_DIR, path.join(feedsDir, 'samples'));
  const file = path.join(feedsDir, 'feeds.json');
  await writeFile(file, JSON.stringify(Object.entries(SOURCES).map(([id, source]) => ({
    id, source, licence: `licence of ${id}`, attribution: `attribution of ${id}`,
    ...(id === 'stq' ? { gap: 'winter schedule only (2026-02-01 to 2026-03-31)' } : {}),
  }))));
  return file;
}

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

beforeAll(async () => {
  stack = await TransitApiStack.create('transit_api');
  release = await stack.publishAndEnable(await loadFeedsList(await writeFeedsList()));
  await stack.start();
  for (const feed of ['via', 'stq', 'trimet'] as const) raw[feed] = await readGtfsZip(path.join(GTFS_DIR, ZIPS[feed]));
}, 180_000);

afterAll(async () => {
  await stack?.close();
  if (feedsDir) await rm(feedsDir, { recursive: true, force: true });
});

/** Departures at a stop, compared in full with the oracle's. */
async function checkAgainstOracle(feed: 'via' | 'stq' | 'trimet', apiStop: string, rawStops: string[], fromIso: string, windowMinutes: number) {
  const from = at(fromIso);
  const res = await stack.get(`${stopPath(`svc:transit:stop:${feed}:${apiStop}`, '/departures')}?at=${encodeURIComponent(fromIso)}&window=${windowMinutes}&limit=200`);
  expect(res.status).toBe(200);
  const expected = expectedDepartures(raw[feed]!, rawStops, from, from + windowMinutes * 60, ZONES[feed]).slice(0, 200);
  expect(expected.length, 'a window with departures').toBeGreaterThan(0);
  expect(res.body.data.map((d: { trip_id: string; departure: string; arrival: string; stop_id: string; stop_sequence: number }) =>
    [d.trip_id, d.stop_id, d.departure, d.arrival, d.stop_sequence])).toEqual(
    expected.map((e) => [`svc:transit:trip:${feed}:${e.trip_id}`, `svc:transit:stop:${feed}:${e.stop_id}`, iso(e.departure), iso(e.arrival), e.stop_sequence]),
  );
  return res.body.data as { trip_id: string; route_id: string; departure: string; headsign: string; schedule_type: string }[];
}

describe('GET /transit/agencies', () => {
  it('lists every agency of the enabled release with meta combining the feeds', async () => {
    const res = await stack.get('/transit/agencies');
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: { id: string }) => a.id).sort()).toEqual([
      'svc:transit:agency:stq:STQ',
      'svc:transit:agency:trimet:PSC',
      'svc:transit:agency:trimet:TRIMET',
      'svc:transit:agency:vancouver-bus:LMB',
      'svc:transit:agency:via:VIA',
    ]);
    const stq = res.body.data.find((a: { id: string }) => a.id === 'svc:transit:agency:stq:STQ');
    expect(stq).toMatchObject({ feed_id: 'stq', name: 'Société des Traversiers du Québec', timezone: 'America/Montreal', lang: 'fr' });
    const meta = res.body.meta;
    expect(meta).toMatchObject({
      data_version: release.id,
      svc_updated_at: release.manifest.created_at,
      status: 'current',
      schedule_type: 'scheduled',
      content_hash: release.contentHash,
    });
    expect(meta.feeds.map((f: { feed_id: string }) => f.feed_id)).toEqual(['stq', 'trimet', 'vancouver-bus', 'via']);
    expect(meta.attribution).toBe('attribution of stq; attribution of trimet; attribution of vancouver-bus; attribution of via');
    expect(meta.source.split('; ')).toEqual(meta.feeds.map((f: { source: string }) => f.source));
    // sources as written in the feeds list, never the host paths they were read from
    expect(meta.feeds.map((f: { source: string }) => f.source)).toEqual([SOURCES.stq, SOURCES.trimet, SOURCES['vancouver-bus'], SOURCES.via]);
    // STQ's feed_info.feed_version
    expect(meta.feeds[0].source_version).toBe('2026-02-25T11:22:27Z');
    for (const f of meta.feeds) {
      expect(f.content_hash).toBe(release.manifest.inputs.find((i) => i.name === f.feed_id)!.sha256);
    }
  });
});

describe('GET /transit/stops/{id} and /transit/routes/{id}', () => {
  it('returns a stop by its URL-encoded service id with its feed\'s meta', async () => {
    const res = await stack.get(stopPath('svc:transit:stop:via:TRTO'));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: 'svc:transit:stop:via:TRTO', feed_id: 'via', name: 'Toronto', code: 'TRTO',
      lat: 43.645195, location_type: 'stop', parent_id: null, children: [],
    });
    expect(res.body.data.routes).toContain('svc:transit:route:via:CAN');
    const input = release.manifest.inputs.find((i) => i.name === 'via')!;
    expect(res.body.meta).toMatchObject({
      source: input.source, content_hash: input.sha256, attribution: 'attribution of via',
      data_version: release.id, status: 'current', schedule_type: 'scheduled',
    });
    expect(res.body.meta.feeds).toHaveLength(1);
    // raw colons in the segment are the same id
    expect((await stack.get('/transit/stops/svc:transit:stop:via:TRTO')).body.data.id).toBe('svc:transit:stop:via:TRTO');
  });

  it('gives a station its child platforms and their routes', async () => {
    const stops = raw.trimet!['stops.txt']!;
    const station = stops.find((s) => s.location_type === '1' && stops.filter((c) => c.parent_station === s.stop_id).length >= 2)!;
    const children = stops.filter((c) => c.parent_station === station.stop_id).map((c) => `svc:transit:stop:trimet:${c.stop_id}`);
    const res = await stack.get(stopPath(`svc:transit:stop:trimet:${station.stop_id}`));
    expect(res.status).toBe(200);
    expect(res.body.data.location_type).toBe('station');
    expect(res.body.data.children).toEqual([...children].sort());
    const childRoutes = new Set<string>();
    for (const child of children) for (const r of (await stack.get(stopPath(child))).body.data.routes) childRoutes.add(r);
    expect(childRoutes.size).toBeGreaterThan(0);
    expect(res.body.data.routes).toEqual([...childRoutes].sort());
  });

  it('returns a route', async () => {
    const res = await stack.get(routePath('svc:transit:route:stq:quebec'));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: 'svc:transit:route:stq:quebec', feed_id: 'stq', agency_id: 'svc:transit:agency:stq:STQ',
      short_name: 'QL', long_name: 'Québec – Lévis', description: null, type: 4,
      url: 'https://www.traversiers.com/fr/nos-traverses/traverse-quebec-levis/horaire', color: '009CDD', text_color: 'FFFFFF',
    });
    expect(res.body.meta.feeds.map((f: { feed_id: string }) => f.feed_id)).toEqual(['stq']);
  });

  it.each([
    ['/transit/stops/svc%3Atransit%3Astop%3Avia%3ANOPE', 'stop not found'],
    ['/transit/stops/TRTO', 'stop not found'],
    ['/transit/stops/svc%3Atransit%3Astop%3Avia%3ATRTO%2Fx', 'stop not found'],
    ['/transit/stops/%E2%9C%93%F0%9F%9A%86', 'stop not found'],
    ['/transit/stops/svc%3Atransit%3Astop%3Avia%3ANOPE/departures', 'stop not found'],
    ['/transit/routes/svc%3Atransit%3Aroute%3Astq%3Anope', 'route not found'],
    ['/transit/routes/svc%3Atransit%3Astop%3Avia%3ATRTO', 'route not found'],
  ])('answers 404 for the unknown id %s', async (url, message) => {
    const res = await stack.get(url);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: message });
  });
});

describe('GET /transit/stops?near=', () => {
  const allStops = () => (['via', 'stq', 'trimet'] as const).flatMap((feed) =>
    raw[feed]!['stops.txt']!.filter((s) => (s.location_type ?? '') === '' || s.location_type === '0' || s.location_type === '1')
      .filter((s) => s.stop_lat !== '' && s.stop_lon !== '')
      .map((s) => ({ id: `svc:transit:stop:${feed}:${s.stop_id}`, lng: Number(s.stop_lon), lat: Number(s.stop_lat) })));

  it.each([
    ['Toronto Union', -79.3806, 43.645195, 1000],
    ['Québec–Lévis', -71.195, 46.811, 2000],
    ['Portland Lloyd', -122.66, 45.53, 10_000],
    ['Portland small radius', -122.662224, 45.530095, 50],
  ])('finds exactly the stops within radius by great-circle distance, nearest first (%s)', async (_label, lng, lat, radius) => {
    const res = await stack.get(`/transit/stops?near=${lng},${lat}&radius=${radius}&limit=100`);
    expect(res.status).toBe(200);
    const expected = allStops()
      .map((s) => ({ id: s.id, d: haversineMetres(lng, lat, s.lng, s.lat) }))
      .filter((s) => s.d <= radius)
      .sort((a, b) => a.d - b.d)
      .slice(0, 100);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body.data.map((s: { id: string }) => s.id).sort()).toEqual(expected.map((s) => s.id).sort());
    const distances = res.body.data.map((s: { distance: number }) => s.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const s of res.body.data) {
      expect(Number.isInteger(s.distance)).toBe(true);
      expect(s.distance).toBe(Math.round(expected.find((e) => e.id === s.id)!.d));
    }
  });

  it('uses defaults radius 1000 and limit 20, and honours limit', async () => {
    const all = await stack.get('/transit/stops?near=-122.66,45.53&radius=10000&limit=100');
    const byDefault = await stack.get('/transit/stops?near=-122.66,45.53');
    expect(byDefault.body.data).toEqual(all.body.data.filter((s: { distance: number }) => s.distance <= 1000).slice(0, 20));
    const three = await stack.get('/transit/stops?near=-122.66,45.53&radius=10000&limit=3');
    expect(three.body.data).toEqual(all.body.data.slice(0, 3));
  });

  it('lists a station with its platforms\' routes and names the feeds of the stops found', async () => {
    const res = await stack.get('/transit/stops?near=-122.662224,45.530095&radius=300&limit=100');
    const station = res.body.data.find((s: { id: string }) => s.id === 'svc:transit:stop:trimet:landmark-119');
    expect(station).toMatchObject({ location_type: 'station', distance: 0 });
    expect(station.routes.length).toBeGreaterThan(0);
    expect(res.body.meta.feeds.map((f: { feed_id: string }) => f.feed_id)).toEqual(['trimet']);
    expect(res.body.meta.source).toBe(SOURCES.trimet);
  });

  it('answers an empty list with the full meta', async () => {
    const res = await stack.get('/transit/stops?near=-40,40&radius=10000');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const meta = res.body.meta;
    for (const member of ['source', 'source_updated_at', 'source_version', 'content_hash', 'data_version', 'svc_updated_at', 'status', 'attribution', 'schedule_type']) {
      expect(meta).toHaveProperty(member);
    }
    expect(meta).toMatchObject({ data_version: release.id, status: 'current', schedule_type: 'scheduled' });
    expect(meta.feeds).toHaveLength(4);
  });
});

describe('GET /transit/stops/{id}/departures', () => {
  it('resolves VIA Rail\'s 110:29:00 days after the service date, across a DST change', async () => {
    // Train 1313 leaves Vancouver on Fridays; service date 2025-03-07 (EST): noon − 12 h = 05:00Z,
    // + 110:29:00 = 2025-03-11T19:29:00Z (Toronto is on EDT by then; GTFS counts from the service date).
    const res = await stack.get(`${stopPath('svc:transit:stop:via:TRTO', '/departures')}?at=2025-03-11T19:00:00Z&window=60`);
    expect(res.status).toBe(200);
    const train = res.body.data.find((d: { trip_id: string }) => d.trip_id === 'svc:transit:trip:via:1313');
    expect(train).toEqual({
      stop_id: 'svc:transit:stop:via:TRTO', route_id: 'svc:transit:route:via:CAN', trip_id: 'svc:transit:trip:via:1313',
      headsign: '', arrival: '2025-03-11T19:29:00Z', departure: '2025-03-11T19:29:00Z', stop_sequence: 67, schedule_type: 'scheduled',
    });
    // Train 2011, service date 2024-11-01 (EDT): 04:00Z + 110:29:00 = 2024-11-05T18:29:00Z.
    const earlier = await stack.get(`${stopPath('svc:transit:stop:via:TRTO', '/departures')}?at=2024-11-05T13:00:00-05:00&window=60`);
    expect(earlier.body.data.find((d: { trip_id: string }) => d.trip_id === 'svc:transit:trip:via:2011')?.departure).toBe('2024-11-05T18:29:00Z');
  });

  it('does not shift instants by stop_timezone (GTFS times are in the agency zone)', async () => {
    // Vancouver's stop_timezone is Canada/Pacific, but 18:00:00 is Toronto time: 2025-03-07T23:00:00Z.
    const res = await stack.get(`${stopPath('svc:transit:stop:via:VCVR', '/departures')}?at=2025-03-07T22:30:00Z&window=60`);
    expect(res.body.data.find((d: { trip_id: string }) => d.trip_id === 'svc:transit:trip:via:1313')?.departure).toBe('2025-03-07T23:00:00Z');
    expect((await stack.get(stopPath('svc:transit:stop:via:VCVR'))).body.data.timezone).toMatch(/Pacific|Vancouver/);
  });

  it.each([
    ['2025-03-07T12:00:00Z', 240],
    ['2025-03-08T20:00:00-05:00', 240],
    ['2025-03-11T16:00:00Z', 240],
    ['2024-11-03T14:00:00Z', 240],
  ])('VIA Toronto Union from %s matches the timetable', async (from, window) => {
    await checkAgainstOracle('via', 'TRTO', ['TRTO'], from, window);
  });

  it.each([
    ['2026-03-07T10:00:00Z'], ['2026-03-07T14:00:00Z'], ['2026-03-08T03:00:00Z'], ['2026-03-08T07:00:00Z'],
    ['2026-03-08T11:00:00Z'], ['2026-03-09T10:00:00Z'], ['2026-03-09T14:00:00Z'], ['2026-02-08T10:00:00Z'],
  ])('STQ Québec terminal from %s, on both sides of the 2026-03-08 DST change, matches the timetable', async (from) => {
    const data = await checkAgainstOracle('stq', 'QUE', ['QUE'], from, 240);
    expect(data.length).toBeGreaterThan(0);
    for (const d of data) {
      expect(d.schedule_type).toBe('scheduled');
      expect(d.headsign).not.toBe('');
    }
  });

  it('pins an STQ departure before, on and after the DST change', async () => {
    // Trip QUE→LEV 06:30 runs daily in March: 11:30Z on 2026-03-07 (EST), 10:30Z on 03-08 and 03-09 (EDT).
    const trip = 'svc:transit:trip:stq:202603_quebec_QUE_LEV_063000_regular';
    for (const [day, expected] of [['2026-03-07', '2026-03-07T11:30:00Z'], ['2026-03-08', '2026-03-08T10:30:00Z'], ['2026-03-09', '2026-03-09T10:30:00Z']]) {
      const res = await stack.get(`${stopPath('svc:transit:stop:stq:QUE', '/departures')}?at=${day}T09:00:00Z&window=240&limit=200`);
      expect(res.body.data.filter((d: { trip_id: string }) => d.trip_id === trip).map((d: { departure: string }) => d.departure)).toEqual([expected]);
    }
  });

  it('resolves Blanc-Sablon-zone stops in the agency zone (Montreal), not their no-DST stop zone', async () => {
    // Pakuashipi: stop_timezone America/Blanc-Sablon (UTC−4 all year). The Saturday 13:00:00 crossing
    // on 2026-03-07 is Montreal time (EST): 18:00Z, not 17:00Z.
    const res = await stack.get(`${stopPath('svc:transit:stop:stq:PKS', '/departures')}?at=2026-03-07T16:00:00Z&window=240`);
    const crossing = res.body.data.filter((d: { trip_id: string }) => d.trip_id === 'svc:transit:trip:stq:202603_riv-st-augustin_PKS_SAG_130000_regular');
    expect(crossing.map((d: { departure: string }) => d.departure)).toEqual(['2026-03-07T18:00:00Z']);
    await checkAgainstOracle('stq', 'PKS', ['PKS'], '2026-03-07T16:00:00Z', 240);
    await checkAgainstOracle('stq', 'SAG', ['SAG'], '2026-02-16T10:00:00Z', 240);
    expect((await stack.get(stopPath('svc:transit:stop:stq:PKS'))).body.data.timezone).toBe('America/Blanc-Sablon');
  });

  it('applies calendar_dates removals and additions', async () => {
    const tripsOf = (service: string) => new Set(raw.stq!['trips.txt']!.filter((t) => t.service_id === service).map((t) => `svc:transit:trip:stq:${t.trip_id}`));
    const dayAt = async (stop: string, day: string) =>
      ((await stack.get(`${stopPath(`svc:transit:stop:stq:${stop}`, '/departures')}?at=${day}T05:00:00Z&window=240&limit=200`)).body.data as { trip_id: string }[])
        .concat((await stack.get(`${stopPath(`svc:transit:stop:stq:${stop}`, '/departures')}?at=${day}T09:00:00Z&window=240&limit=200`)).body.data)
        .concat((await stack.get(`${stopPath(`svc:transit:stop:stq:${stop}`, '/departures')}?at=${day}T13:00:00Z&window=240&limit=200`)).body.data)
        .concat((await stack.get(`${stopPath(`svc:transit:stop:stq:${stop}`, '/departures')}?at=${day}T17:00:00Z&window=240&limit=200`)).body.data)
        .concat((await stack.get(`${stopPath(`svc:transit:stop:stq:${stop}`, '/departures')}?at=${day}T21:00:00Z&window=240&limit=200`)).body.data)
        .concat((await stack.get(`${stopPath(`svc:transit:stop:stq:${stop}`, '/departures')}?at=${day}T01:00:00Z&window=240&limit=200`)).body.data);
    const stopsOf = (trips: Set<string>) => new Set(raw.stq!['stop_times.txt']!.filter((s) => trips.has(`svc:transit:trip:stq:${s.trip_id}`)).map((s) => s.stop_id!));

    // service_3b23655b runs every day of March except 2026-03-08 (exception_type 2)
    const removed = tripsOf('service_3b23655b');
    const [removedStop] = [...stopsOf(removed)];
    const count = async (day: string, trips: Set<string>, stop: string) => (await dayAt(stop, day)).filter((d) => trips.has(d.trip_id)).length;
    expect(await count('2026-03-07', removed, removedStop!)).toBeGreaterThan(0);
    expect(await count('2026-03-08', removed, removedStop!)).toBe(0);
    expect(await count('2026-03-09', removed, removedStop!)).toBeGreaterThan(0);

    // service_59e294d2 runs Monday–Saturday in February, minus 02-03 and 02-04, plus Sunday 02-08
    const added = tripsOf('service_59e294d2');
    const [addedStop] = [...stopsOf(added)];
    expect(await count('2026-02-02', added, addedStop!)).toBeGreaterThan(0);
    expect(await count('2026-02-03', added, addedStop!)).toBe(0);
    expect(await count('2026-02-08', added, addedStop!)).toBeGreaterThan(0);
    expect(await count('2026-02-15', added, addedStop!)).toBe(0);
  });

  it('answers a TriMet station with its child platforms\' departures', async () => {
    const stops = raw.trimet!['stops.txt']!;
    const timed = new Set(raw.trimet!['stop_times.txt']!.map((s) => s.stop_id));
    const station = stops.find((s) => s.location_type === '1' && stops.filter((c) => c.parent_station === s.stop_id && timed.has(c.stop_id)).length >= 2)!;
    const children = stops.filter((c) => c.parent_station === station.stop_id).map((c) => c.stop_id!);
    const data = await checkAgainstOracle('trimet', station.stop_id!, children, '2021-11-10T15:00:00Z', 120);
    const platforms = new Set(data.map((d) => (d as unknown as { stop_id: string }).stop_id));
    expect(platforms.size).toBeGreaterThanOrEqual(2);
    // also across the 2021-11-07 fall-back and late-night times
    await checkAgainstOracle('trimet', station.stop_id!, children, '2021-11-07T06:00:00Z', 240);
    await checkAgainstOracle('trimet', station.stop_id!, children, '2021-11-06T20:00:00-07:00', 240);
  });

  it('orders by departure and honours limit and window', async () => {
    const url = (q: string) => `${stopPath('svc:transit:stop:stq:QUE', '/departures')}?at=2026-03-09T10:00:00Z&${q}`;
    const all = (await stack.get(url('window=240&limit=200'))).body.data as { departure: string }[];
    expect(all.length).toBeGreaterThan(3);
    expect(all.map((d) => d.departure)).toEqual([...all.map((d) => d.departure)].sort());
    expect((await stack.get(url('window=240&limit=3'))).body.data).toEqual(all.slice(0, 3));
    const hour = (await stack.get(url('window=60&limit=200'))).body.data as { departure: string }[];
    expect(hour).toEqual(all.filter((d) => Date.parse(d.departure) / 1000 < at('2026-03-09T11:00:00Z')));
    const byDefault = (await stack.get(url(''))).body.data;
    expect(byDefault).toEqual(hour.slice(0, 50));
  });

  it('defaults at to now and answers an empty window with the full meta', async () => {
    // the sample bus leaves Granville @ Georgia at least hourly every day of 2026 and 2027
    const before = Date.now();
    const now = await stack.get(stopPath('svc:transit:stop:vancouver-bus:GRAN_GEORGIA', '/departures'));
    const after = Date.now();
    expect(now.status).toBe(200);
    expect(now.body.data.length, 'departures within the default hour from now').toBeGreaterThan(0);
    for (const d of now.body.data) {
      expect(Date.parse(d.departure)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(d.departure)).toBeLessThan(after + 60 * 60_000);
    }
    const empty = await stack.get(`${stopPath('svc:transit:stop:stq:QUE', '/departures')}?at=2001-01-01T00:00:00Z`);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.meta).toMatchObject({
      data_version: release.id, svc_updated_at: release.manifest.created_at, status: 'current',
      schedule_type: 'scheduled', attribution: 'attribution of stq', source_version: '2026-02-25T11:22:27Z',
    });
    expect(empty.body.meta).toHaveProperty('source_updated_at');
    expect(empty.body.meta.content_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('malformed parameters', () => {
  const dep = (q: string) => `${stopPath('svc:transit:stop:stq:QUE', '/departures')}?${q}`;
  it.each([
    ['/transit/stops', 'near'],
    ['/transit/stops?near=', 'near'],
    ['/transit/stops?near=abc', 'near'],
    ['/transit/stops?near=-73.5', 'near'],
    ['/transit/stops?near=200,45', 'near'],
    ['/transit/stops?near=-73.5,95', 'near'],
    ['/transit/stops?near=NaN,NaN', 'near'],
    ['/transit/stops?near=-73.5,45.5&radius=49', 'radius'],
    ['/transit/stops?near=-73.5,45.5&radius=10001', 'radius'],
    ['/transit/stops?near=-73.5,45.5&radius=abc', 'radius'],
    ['/transit/stops?near=-73.5,45.5&radius=1e999', 'radius'],
    ['/transit/stops?near=-73.5,45.5&radius=100.5', 'radius'],
    ['/transit/stops?near=-73.5,45.5&limit=0', 'limit'],
    ['/transit/stops?near=-73.5,45.5&limit=101', 'limit'],
    ['/transit/stops?near=-73.5,45.5&limit=', 'limit'],
    ['/transit/stops?near=-73.5,45.5&limit=1&limit=2', 'limit'],
    ['/transit/stops?near=1,2&near=3,4', 'near'],
    [dep('window=0'), 'window'],
    [dep('window=241'), 'window'],
    [dep('window=NaN'), 'window'],
    [dep('window=99999999999999999999'), 'window'],
    [dep('limit=0'), 'limit'],
    [dep('limit=201'), 'limit'],
    [dep('limit=-1'), 'limit'],
    [dep('at=2026-03-08T14:30:00'), 'at'],
    [dep('at=2026-03-08'), 'at'],
    [dep('at=garbage'), 'at'],
    [dep('at='), 'at'],
    [dep('at=2026-02-30T10:00:00Z'), 'at'],
    [dep('at=1&at=2'), 'at'],
  ])('%s → 400 naming %s', async (url, parameter) => {
    const res = await stack.get(url);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error).toMatch(new RegExp(`^${parameter}\\b`));
  });

  it('accepts an offset whose + arrived as a space', async () => {
    const plus = await stack.get(dep('at=2026-03-09T11:00:00%2B01:00&window=60'));
    const space = await stack.get(dep('at=2026-03-09T11:00:00+01:00&window=60'));
    const zulu = await stack.get(dep('at=2026-03-09T10:00:00Z&window=60'));
    expect(plus.status).toBe(200);
    expect(space.body.data).toEqual(zulu.body.data);
    expect(plus.body.data).toEqual(zulu.body.data);
  });

  it('never answers 500 to odd input', async () => {
    const odd = [
      '', ' ', '%00', '%F0%9F%9A%86', 'é', '-0', '0x1F', '1e309', '-1e309', '9'.repeat(300), 'null', 'undefined', '[]', '{}',
      'true', '%20%2C%20', ',', ',,', '1,2,3', 'NaN', 'Infinity', '%E2%80%AE', "'; DROP TABLE stops; --", '..%2F..',
    ];
    const urls: string[] = [];
    for (const v of odd) {
      urls.push(`/transit/stops?near=${v}`, `/transit/stops?near=-73,45&radius=${v}`, `/transit/stops?near=-73,45&limit=${v}`);
      urls.push(dep(`at=${v}`), dep(`window=${v}`), dep(`limit=${v}`));
      if (v !== '') urls.push(`/transit/stops/${v}`, `/transit/routes/${v}`, `/transit/stops/${v}/departures`);
    }
    urls.push(dep('at=9999-12-31T23:59:59Z&window=240'), dep('at=0000-01-01T00:00:00Z'), dep('at=2026-03-08T10:00:00%2B23:59'));
    urls.push('/transit/stops?near=180,90&radius=10000&limit=100', '/transit/stops?near=-180,-90&radius=10000', '/transit/stops?near=-0,-0');
    urls.push('/transit/stops/%', '/transit/stops/%E0%A4%A', `/transit/stops/${'x'.repeat(5000)}`, '/transit/routes/%2F%2F', '/transit/stops?near=-73,45&near=1,2&radius=100&radius=200');
    for (const url of urls) {
      const res = await stack.get(url);
      expect(res.status, url).toBeLessThan(500);
      expect([200, 400, 404], url).toContain(res.status);
    }
  });

  it('answers an id the router cannot take, or any unknown id, with the endpoint\'s JSON 404', async () => {
    const cases: [string, string][] = [
      ['/transit/stops/%E0%A4%A', 'stop not found'],
      ['/transit/stops/%', 'stop not found'],
      [`/transit/stops/${'x'.repeat(1025)}`, 'stop not found'],
      [`/transit/stops/${'x'.repeat(5000)}/departures`, 'stop not found'],
      [`/transit/stops/${'x'.repeat(600)}`, 'stop not found'],
      [`/transit/stops/${'x'.repeat(1024)}/departures`, 'stop not found'],
      ['/transit/routes/%zz', 'route not found'],
      [`/transit/routes/${'y'.repeat(800)}`, 'route not found'],
    ];
    for (const [url, error] of cases) {
      const res = await stack.get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.body, url).toEqual({ error });
    }
    // A path we do not serve stays the plain-text 404, even with a bad escape.
    const unserved = await stack.get('/transit/nowhere/%E0%A4%A');
    expect(unserved.status).toBe(404);
    expect(unserved.text).toBe('Not Found');
  });

  it('still requires an API key', async () => {
    const res = await stack.get('/transit/agencies', { key: null });
    expect(res.status).toBe(401);
  });
});

describe('GET /coverage.json', () => {
  it('lists every assessed feed, refused ones with their reason, and the release', async () => {
    const res = await stack.get('/coverage.json');
    expect(res.status).toBe(200);
    expect(res.body.release_id).toBe(release.id);
    expect(res.body.release_created_at).toBe(release.manifest.created_at);
    expect(res.body.feeds.map((f: { feed_id: string; status: string }) => [f.feed_id, f.status])).toEqual([
      ['via', 'included'], ['stq', 'included'], ['trimet', 'included'], ['ggl', 'refused'], ['vancouver-bus', 'included'],
    ]);
    expect(res.body.feeds.map((f: { source: string }) => f.source)).toEqual(Object.values(SOURCES));
    for (const hostPath of [feedsDir, GTFS_DIR, SAMPLES_DIR]) expect(res.text).not.toContain(hostPath);
    const ggl = res.body.feeds.find((f: { feed_id: string }) => f.feed_id === 'ggl');
    expect(ggl.reason).toMatch(/frequencies/);
    expect(ggl).toMatchObject({ licence: 'licence of ggl', attribution: 'attribution of ggl' });
    const stq = res.body.feeds.find((f: { feed_id: string }) => f.feed_id === 'stq');
    expect(stq).toMatchObject({ gap: 'winter schedule only (2026-02-01 to 2026-03-31)', source: SOURCES.stq });
  });
});

describe('OpenAPI', () => {
  it('documents the transit paths from the same schemas', async () => {
    const res = await stack.get('/openapi.json');
    expect(res.status).toBe(200);
    for (const p of ['/transit/agencies', '/transit/stops', '/transit/stops/{id}', '/transit/stops/{id}/departures', '/transit/routes/{id}', '/coverage.json']) {
      expect(res.body.paths, p).toHaveProperty([p]);
    }
    const params = res.body.paths['/transit/stops/{id}/departures'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['id', 'at', 'window', 'limit']));
  });
});

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildOutcome, PublishSpec } from '../../releases/publish.ts';
import { prepareTransitRelease, TRANSIT_BUILDER_VERSION, type TransitCoverageEntry } from '../../ingest/transit/release.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';
import { openTransit, type TransitReader } from '../support/gtfs-fixtures.ts';
import { sharedData } from '../support/paths.ts';

const DATA = sharedData('gtfs');
const feed = (id: string, file: string) => ({ id, source: path.join(DATA, file), licence: `licence of ${id}`, attribution: `© ${id}` });

const FEEDS = [
  feed('via', 'ca-via-rail-better-via-gtfs.zip'),
  feed('stq', 'ca-qc-stq-ferries.zip'),
  feed('trimet', 'transitland-trimet-2routes.zip'),
  feed('bart', 'transitland-bart.zip'),
  feed('caltrain', 'transitland-caltrain.zip'),
  feed('ct', 'transitland-ct.zip'),
  feed('caltrain2016', 'node-gtfs-caltrain_20160406.zip'),
  feed('ber', 'ber_gtfs.zip'),
  feed('cdmx', 'transitland-cdmx.zip'),
  feed('ggl', 'ggl_gtfs.zip'),
  feed('spo', 'spo_gtfs.zip'),
  feed('example', 'transitland-example.zip'),
];

const iso = (epochSeconds: number | bigint) => new Date(Number(epochSeconds) * 1000).toISOString();

let workDir: string;
let stagingDir: string;
let spec: PublishSpec;
let outcome: BuildOutcome;
let db: TransitReader;
const progress: [number, string][] = [];

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'gtfs-real-work-'));
  stagingDir = await mkdtemp(path.join(os.tmpdir(), 'gtfs-real-stage-'));
  spec = await prepareTransitRelease(FEEDS, {
    workDir, fetchTimeoutMs: 10_000, maxDownloadBytes: 100 * 1024 * 1024,
    onProgress: (fraction, message) => progress.push([fraction, message]),
  });
  outcome = await spec.build(stagingDir);
  db = await openTransit(path.join(stagingDir, TRANSIT_DATABASE_FILE));
});

afterAll(async () => {
  db?.close();
  await rm(workDir, { recursive: true, force: true });
  await rm(stagingDir, { recursive: true, force: true });
});

const coverageOf = (id: string) => (outcome.coverage as unknown as TransitCoverageEntry[]).find((c) => c.feed_id === id)!;

describe('transit release of the real feeds', () => {
  it('describes a transit publish whose inputs are exactly the included feeds', () => {
    expect(spec.kind).toBe('transit');
    expect(spec.builderVersion).toBe(TRANSIT_BUILDER_VERSION);
    expect(spec.inputs.map((i) => i.name).sort()).toEqual(['bart', 'ber', 'caltrain', 'caltrain2016', 'ct', 'stq', 'trimet', 'via']);
    for (const input of spec.inputs) {
      expect(input.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(input.source).toBe(FEEDS.find((f) => f.id === input.name)!.source);
      expect(input.licence).toBe(`licence of ${input.name}`);
      expect(input.source_updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(new Set(spec.inputs.map((i) => i.sha256)).size).toBe(spec.inputs.length);
    expect(progress.at(-1)?.[0]).toBe(1);
    expect(progress.every(([f], i) => i === 0 || f >= progress[i - 1]![0])).toBe(true);
  });

  it('leaves only transit.duckdb in the staging folder (no WAL, no spill files)', async () => {
    expect(await readdir(stagingDir)).toEqual([TRANSIT_DATABASE_FILE]);
  });

  it('refuses the four frequency-based feeds with the frequencies reason', () => {
    const counts: Record<string, number> = { cdmx: 1741, ggl: 3, spo: 704, example: 11 };
    for (const [id, rows] of Object.entries(counts)) {
      const entry = coverageOf(id);
      expect(entry.status).toBe('refused');
      expect(entry.reason).toBe(`frequencies.txt has ${rows} rows: frequency-based trips are not supported`);
      expect(entry.stop_times).toBeUndefined();
    }
    const tables = ['agencies', 'stops', 'routes', 'trips', 'feeds'];
    return Promise.all(tables.map(async (t) => {
      expect(await db.query(`SELECT * FROM ${t} WHERE feed_id IN ('cdmx', 'ggl', 'spo', 'example')`)).toEqual([]);
    }));
  });

  it('accepts bart and caltrain although they carry a header-only frequencies.txt', () => {
    expect(coverageOf('bart')).toMatchObject({ status: 'included', agencies: 1, stops: 50, routes: 6, trips: 2525, stop_times: 33167 });
    expect(coverageOf('caltrain')).toMatchObject({ status: 'included', stop_times: 2853, first_service_date: '2017-10-02', last_service_date: '2019-10-06' });
  });

  it('reports per-feed counts, terms and totals', async () => {
    const via = coverageOf('via');
    expect(via).toMatchObject({
      feed_id: 'via', source: FEEDS[0]!.source, licence: 'licence of via', attribution: '© via', status: 'included',
      agencies: 1, stops: 372, routes: 13, trips: 149, stop_times: 2213, first_service_date: '2023-10-09', last_service_date: '2059-12-31',
    });
    const [totals] = await db.query<{ stop_times: bigint; trips: bigint }>(`SELECT (SELECT count(*) FROM stop_times) AS stop_times, (SELECT count(*) FROM trips) AS trips`);
    expect(outcome.stats.stop_times).toBe(Number(totals!.stop_times));
    expect(outcome.stats.trips).toBe(Number(totals!.trips));
    expect(outcome.stats).toMatchObject({ feeds_included: 8, feeds_refused: 4 });
    expect(typeof outcome.stats.build_seconds).toBe('number');
    const feeds = await db.query<{ feed_id: string; timezone: string; content_hash: string; source_version: string | null }>(`SELECT * FROM feeds ORDER BY feed_id`);
    expect(feeds.map((f) => f.feed_id)).toEqual(['bart', 'ber', 'caltrain', 'caltrain2016', 'ct', 'stq', 'trimet', 'via']);
    expect(feeds.find((f) => f.feed_id === 'stq')).toMatchObject({ timezone: 'America/Montreal', source_version: '2026-02-25T11:22:27Z', content_hash: spec.inputs.find((i) => i.name === 'stq')!.sha256 });
  });

  it('stores VIA Rail times past 24 h as seconds (110:29:00 = 397740)', async () => {
    const rows = await db.query<{ trip_id: string; arrival_secs: number; departure_secs: number; stop_sequence: number }>(
      `SELECT trip_id, arrival_secs, departure_secs, stop_sequence FROM stop_times WHERE stop_id = 'svc:transit:stop:via:TRTO' AND departure_secs = 397740 ORDER BY trip_id`);
    expect(rows).toEqual([
      { trip_id: 'svc:transit:trip:via:1313', arrival_secs: 397740, departure_secs: 397740, stop_sequence: 67 },
      { trip_id: 'svc:transit:trip:via:2011', arrival_secs: 397740, departure_secs: 397740, stop_sequence: 67 },
    ]);
    const [first] = await db.query(`SELECT departure_secs FROM stop_times WHERE trip_id = 'svc:transit:trip:via:2130' AND stop_sequence = 1`);
    expect(first).toEqual({ departure_secs: 9 * 3600 + 55 * 60 }); // "9:55:00", one-digit hour
    const [stats] = await db.query<{ max_secs: number }>(`SELECT max_secs FROM feed_stats WHERE feed_id = 'via'`);
    expect(stats!.max_secs).toBeGreaterThanOrEqual(397740);
  });

  it('keeps VIA stop_timezone values, old zone names included', async () => {
    const zones = await db.query<{ timezone: string; n: bigint }>(`SELECT timezone, count(*) AS n FROM stops WHERE feed_id = 'via' GROUP BY 1 ORDER BY 1`);
    expect(Object.fromEntries(zones.map((z) => [z.timezone, Number(z.n)]))).toEqual({
      'Canada/Atlantic': 13, 'Canada/Central': 65, 'Canada/Eastern': 210, 'Canada/Mountain': 7, 'Canada/Pacific': 47, 'Canada/Saskatchewan': 14, 'US/Eastern': 16,
    });
    const [montreal] = await db.query(`SELECT id, name, lat, lon, timezone, location_type FROM stops WHERE id = 'svc:transit:stop:via:MTRL'`);
    expect(montreal).toEqual({ id: 'svc:transit:stop:via:MTRL', name: 'Montreal', lat: 45.5001121, lon: -73.5665224, timezone: 'Canada/Eastern', location_type: 0 });
  });

  it('resolves STQ departures across the 2026-03-08 DST change in the agency zone', async () => {
    const rows = await db.query<{ trip_id: string; service_date: string; base_epoch: bigint }>(`
      SELECT st.trip_id, strftime(sd.service_date, '%Y-%m-%d') AS service_date, sd.base_epoch
      FROM stop_times st JOIN trips t ON t.id = st.trip_id
      JOIN service_days sd ON sd.feed_id = t.feed_id AND sd.service_id = t.service_id
      WHERE t.feed_id = 'stq' AND st.departure_secs = 8 * 3600 AND st.stop_sequence = 1
        AND sd.service_date IN (DATE '2026-03-07', DATE '2026-03-09')
      ORDER BY st.trip_id, sd.service_date`);
    const byTrip = new Map<string, typeof rows>();
    for (const row of rows) byTrip.set(row.trip_id, [...(byTrip.get(row.trip_id) ?? []), row]);
    const both = [...byTrip.values()].filter((days) => days.length === 2);
    expect(both.length).toBeGreaterThan(0);
    for (const [before, after] of both) {
      // 08:00 in America/Montreal: EST (UTC-5) on the 7th, EDT (UTC-4) on the 9th
      expect(iso(before!.base_epoch + 28800n)).toBe('2026-03-07T13:00:00.000Z');
      expect(iso(after!.base_epoch + 28800n)).toBe('2026-03-09T12:00:00.000Z');
    }
    // base = noon minus 12 h: on the change day noon is EDT (16:00Z), so the base is 04:00Z (23:00 EST the day before)
    const [changeDay] = await db.query<{ base_epoch: bigint }>(`SELECT DISTINCT base_epoch FROM service_days WHERE feed_id = 'stq' AND service_date = DATE '2026-03-08'`);
    expect(iso(changeDay!.base_epoch)).toBe('2026-03-08T04:00:00.000Z');
  });

  it('keeps STQ post-midnight times and Blanc-Sablon stops in their own zone', async () => {
    const [late] = await db.query<{ n: bigint }>(`SELECT count(*) AS n FROM stop_times WHERE stop_id LIKE 'svc:transit:stop:stq:%' AND departure_secs = 28 * 3600 + 10 * 60`);
    expect(Number(late!.n)).toBeGreaterThan(0);
    const zones = await db.query(`SELECT stop_id, timezone FROM stops WHERE feed_id = 'stq' AND timezone <> 'America/Montreal' ORDER BY stop_id`);
    expect(zones).toEqual([
      { stop_id: 'CAM', timezone: 'America/Halifax' },
      { stop_id: 'CHE', timezone: 'America/Blanc-Sablon' },
      { stop_id: 'HHB', timezone: 'America/Blanc-Sablon' },
      { stop_id: 'IEN', timezone: 'America/Halifax' },
      { stop_id: 'PKS', timezone: 'America/Blanc-Sablon' },
      { stop_id: 'SAG', timezone: 'America/Blanc-Sablon' },
    ]);
  });

  it('applies calendar_dates removals and additions to service_days', async () => {
    const has = async (feedId: string, service: string, date: string) =>
      (await db.query(`SELECT 1 FROM service_days WHERE feed_id = '${feedId}' AND service_id = '${service}' AND service_date = DATE '${date}'`)).length === 1;
    // STQ: service_1c10a874 runs daily in February but is removed on the 8th
    expect(await has('stq', 'service_1c10a874', '2026-02-07')).toBe(true);
    expect(await has('stq', 'service_1c10a874', '2026-02-08')).toBe(false);
    // service_59e294d2 does not run on Sundays but is added on Sunday 2026-02-08, removed on the 3rd and 4th
    expect(await has('stq', 'service_59e294d2', '2026-02-08')).toBe(true);
    expect(await has('stq', 'service_59e294d2', '2026-02-15')).toBe(false);
    expect(await has('stq', 'service_59e294d2', '2026-02-03')).toBe(false);
    expect(await has('stq', 'service_59e294d2', '2026-02-05')).toBe(true);
    // BART Memorial Day: weekday service removed, Sunday service added
    expect(await has('bart', 'WKDY', '2018-05-28')).toBe(false);
    expect(await has('bart', 'SUN', '2018-05-28')).toBe(true);
    expect(await has('bart', 'WKDY', '2018-05-29')).toBe(true);
    expect(await has('bart', 'SUN', '2018-06-04')).toBe(false);
  });

  it('links TriMet platforms to their parent stations', async () => {
    const stations = await db.query<{ id: string; children: bigint }>(`
      SELECT p.id, count(c.id) AS children FROM stops p LEFT JOIN stops c ON c.parent_id = p.id
      WHERE p.feed_id = 'trimet' AND p.location_type = 1 GROUP BY p.id ORDER BY p.id`);
    expect(stations).toHaveLength(15);
    expect(stations.every((s) => Number(s.children) > 0)).toBe(true);
    const children = await db.query<{ location_type: number }>(`SELECT DISTINCT c.location_type FROM stops c JOIN stops p ON p.id = c.parent_id WHERE c.feed_id = 'trimet'`);
    expect(children).toEqual([{ location_type: 0 }]);
    const [convention] = await db.query<{ name: string; parent_id: string | null }>(`SELECT name, parent_id FROM stops WHERE id = 'svc:transit:stop:trimet:landmark-119'`);
    expect(convention).toEqual({ name: 'Convention Center MAX Station', parent_id: null });
  });

  it('gives routes the svc id of their agency, with one or several agencies', async () => {
    const routes = await db.query(`SELECT id, agency_id FROM routes WHERE feed_id IN ('trimet', 'caltrain2016') ORDER BY id`);
    expect(routes).toContainEqual({ id: 'svc:transit:route:trimet:193', agency_id: 'svc:transit:agency:trimet:PSC' });
    expect(routes).toContainEqual({ id: 'svc:transit:route:trimet:200', agency_id: 'svc:transit:agency:trimet:TRIMET' });
    // caltrain 2016's routes.txt has no agency_id column: the feed's only agency
    expect(routes.filter((r) => (r.id as string).includes(':caltrain2016:')).every((r) => r.agency_id === 'svc:transit:agency:caltrain2016:CT')).toBe(true);
    const [ber] = await db.query<{ n: bigint }>(`SELECT count(*) AS n FROM agencies WHERE feed_id = 'ber' AND id LIKE 'svc:transit:agency:ber:%'`);
    expect(Number(ber!.n)).toBe(37);
  });

  it('keeps Berlin while dropping parent links to stations it lacks, with a warning', async () => {
    expect(coverageOf('ber').warnings?.[0]).toMatch(/^stops\.txt: 211 stop\(s\) name a parent_station that is not in stops\.txt/);
    const [orphans] = await db.query<{ n: bigint }>(`SELECT count(*) AS n FROM stops WHERE feed_id = 'ber' AND parent_id IS NOT NULL`);
    expect(Number(orphans!.n)).toBe(0);
    expect(coverageOf('ber').agencies).toBe(37);
  });

  it('reads a zip with bytes after its end record (transitland-ct) and its parent stations', async () => {
    expect(coverageOf('ct').status).toBe('included');
    const [linked] = await db.query<{ n: bigint }>(`SELECT count(*) AS n FROM stops WHERE feed_id = 'ct' AND parent_id IS NOT NULL`);
    expect(Number(linked!.n)).toBeGreaterThan(0);
  });

  it('writes every table sorted by its lookup key', async () => {
    const keys: Record<string, string> = {
      agencies: 'id', stops: 'id', routes: 'id', trips: 'id',
      service_days: 'feed_id, service_id, service_date', stop_times: 'stop_id, departure_secs', transfers: 'from_stop_id, to_stop_id',
    };
    for (const [table, key] of Object.entries(keys)) {
      const [row] = await db.query<{ unsorted: bigint }>(`
        SELECT count(*) AS unsorted FROM (
          SELECT (${key}) AS k, lag((${key})) OVER (ORDER BY rowid) AS prev FROM ${table})
        WHERE prev IS NOT NULL AND k < prev`);
      expect(Number(row!.unsorted), table).toBe(0);
    }
  });
});

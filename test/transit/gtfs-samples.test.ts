// The bundled sample feeds (samples/gtfs), read as files the way any GTFS consumer would:
// GTFS reference conformance, referential integrity, round-the-clock departures at one stop per
// feed, generator output in sync, and a real transit build that includes all five feeds.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareTransitRelease, loadFeedsList, type LocatedFeed, type TransitCoverageEntry } from '../../ingest/transit/release.ts';
import { renderSamples } from '../../samples/gtfs/generate.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';
import { repoPath } from '../support/paths.ts';

const SAMPLES_DIR = repoPath('samples/gtfs');
const FEEDS_JSON = path.join(SAMPLES_DIR, 'feeds.json');

/** What each sample feed must be (the README's table, as assertions). */
const EXPECTED: Record<string, { timezone: string; centre: [number, number]; roundTheClockStop: string }> = {
  'vancouver-bus': { timezone: 'America/Vancouver', centre: [49.25, -123.12], roundTheClockStop: 'GRAN_GEORGIA' },
  'toronto-rail': { timezone: 'America/Toronto', centre: [43.65, -79.38], roundTheClockStop: 'UNION' },
  'montreal-bus': { timezone: 'America/Montreal', centre: [45.5, -73.57], roundTheClockStop: 'BERRI' },
  'halifax-ferry': { timezone: 'America/Halifax', centre: [44.65, -63.57], roundTheClockStop: 'ALDERNEY' },
  'stjohns-bus': { timezone: 'America/St_Johns', centre: [47.56, -52.73], roundTheClockStop: 'WATER_PRESCOTT' },
};

/** GTFS reference (gtfs.org/documentation/schedule/reference): required and known columns per file. */
const GTFS_FILES: Record<string, { required: string[]; known: string[] }> = {
  'agency.txt': {
    required: ['agency_id', 'agency_name', 'agency_url', 'agency_timezone'],
    known: ['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang', 'agency_phone', 'agency_fare_url', 'agency_email', 'cemv_support'],
  },
  'stops.txt': {
    required: ['stop_id', 'stop_name', 'stop_lat', 'stop_lon'],
    known: ['stop_id', 'stop_code', 'stop_name', 'tts_stop_name', 'stop_desc', 'stop_lat', 'stop_lon', 'zone_id', 'stop_url', 'location_type',
      'parent_station', 'stop_timezone', 'wheelchair_boarding', 'level_id', 'platform_code', 'stop_access'],
  },
  'routes.txt': {
    required: ['route_id', 'agency_id', 'route_type'],
    known: ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_desc', 'route_type', 'route_url', 'route_color',
      'route_text_color', 'route_sort_order', 'continuous_pickup', 'continuous_drop_off', 'network_id', 'cemv_support'],
  },
  'trips.txt': {
    required: ['route_id', 'service_id', 'trip_id'],
    known: ['route_id', 'service_id', 'trip_id', 'trip_headsign', 'trip_short_name', 'direction_id', 'block_id', 'shape_id',
      'wheelchair_accessible', 'bikes_allowed', 'cars_allowed'],
  },
  'stop_times.txt': {
    required: ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'],
    known: ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'location_group_id', 'location_id', 'stop_sequence', 'stop_headsign',
      'start_pickup_drop_off_window', 'end_pickup_drop_off_window', 'pickup_type', 'drop_off_type', 'continuous_pickup',
      'continuous_drop_off', 'shape_dist_traveled', 'timepoint', 'pickup_booking_rule_id', 'drop_off_booking_rule_id'],
  },
  'calendar.txt': {
    required: ['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'],
    known: ['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'],
  },
  'calendar_dates.txt': { required: ['service_id', 'date', 'exception_type'], known: ['service_id', 'date', 'exception_type'] },
  'feed_info.txt': {
    required: ['feed_publisher_name', 'feed_publisher_url', 'feed_lang', 'feed_version'],
    known: ['feed_publisher_name', 'feed_publisher_url', 'feed_lang', 'default_lang', 'feed_start_date', 'feed_end_date', 'feed_version',
      'feed_contact_email', 'feed_contact_url'],
  },
};
const ALWAYS_PRESENT = ['agency.txt', 'stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt', 'calendar.txt', 'feed_info.txt'];

const FIRST_DAY = '20260101';
const LAST_DAY = '20271231';
const TIME = /^\d{1,3}:[0-5]\d:[0-5]\d$/;
const DATE = /^\d{8}$/;

type Row = Record<string, string>;
interface Table { header: string[]; rows: Row[] }
type Feed = Map<string, Table>;

/** RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string, file: string): Table {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') { record.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field); records.push(record); record = []; field = '';
    } else field += ch;
  }
  if (quoted) throw new Error(`${file}: unterminated quoted field`);
  if (field !== '' || record.length > 0) { record.push(field); records.push(record); }
  const [header = [], ...body] = records;
  const rows = body.map((fields, n) => {
    if (fields.length !== header.length) throw new Error(`${file} row ${n + 2} has ${fields.length} fields, header has ${header.length}`);
    return Object.fromEntries(header.map((name, i) => [name, fields[i]!]));
  });
  return { header, rows };
}

async function readFeed(dir: string): Promise<Feed> {
  const feed: Feed = new Map();
  for (const name of (await readdir(dir)).sort()) {
    feed.set(name, parseCsv(await readFile(path.join(dir, name), 'utf8'), `${path.basename(dir)}/${name}`));
  }
  return feed;
}

const rowsOf = (feed: Feed, file: string): Row[] => feed.get(file)?.rows ?? [];

function dayNumber(yyyymmdd: string): number {
  const time = Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)));
  const back = new Date(time).toISOString().slice(0, 10).replace(/-/g, '');
  if (back !== yyyymmdd) throw new Error(`${yyyymmdd} is not a calendar date`);
  return time / 86_400_000;
}

function minutesOf(time: string): number {
  const [h, m, s] = time.split(':').map(Number) as [number, number, number];
  return h * 60 + m + s / 60;
}

function distanceKm([lat1, lon1]: [number, number], [lat2, lon2]: [number, number]): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

/** service_id → the day numbers it runs on (calendar weekdays within its range, plus/minus calendar_dates). */
function serviceDays(feed: Feed): Map<string, Set<number>> {
  const days = new Map<string, Set<number>>();
  const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  for (const row of rowsOf(feed, 'calendar.txt')) {
    const set = new Set<number>();
    for (let d = dayNumber(row.start_date!); d <= dayNumber(row.end_date!); d++) {
      const isoWeekday = (new Date(d * 86_400_000).getUTCDay() + 6) % 7;
      if (row[weekdays[isoWeekday]!] === '1') set.add(d);
    }
    days.set(row.service_id!, set);
  }
  for (const row of rowsOf(feed, 'calendar_dates.txt')) {
    const set = days.get(row.service_id!) ?? new Set<number>();
    days.set(row.service_id!, set);
    if (row.exception_type === '1') set.add(dayNumber(row.date!));
    else set.delete(dayNumber(row.date!));
  }
  return days;
}

/**
 * The longest stretch (minutes, local service time) without a departure from `stopId` or its
 * child stops between the first and the last day of the sample period. A departure is any
 * stop_time but the last of its trip; post-midnight times count on the next calendar day.
 */
function longestGapWithoutDeparture(feed: Feed, stopId: string): { minutes: number; after: string } {
  const served = new Set([stopId, ...rowsOf(feed, 'stops.txt').filter((s) => s.parent_station === stopId).map((s) => s.stop_id!)]);
  const tripService = new Map(rowsOf(feed, 'trips.txt').map((t) => [t.trip_id!, t.service_id!]));
  const lastSequence = new Map<string, number>();
  for (const st of rowsOf(feed, 'stop_times.txt')) lastSequence.set(st.trip_id!, Math.max(lastSequence.get(st.trip_id!) ?? -1, Number(st.stop_sequence)));
  const running = serviceDays(feed);
  const first = dayNumber(FIRST_DAY);
  const last = dayNumber(LAST_DAY);
  const instants: number[] = [];
  for (const st of rowsOf(feed, 'stop_times.txt')) {
    if (!served.has(st.stop_id!) || Number(st.stop_sequence) === lastSequence.get(st.trip_id!)) continue;
    for (const day of running.get(tripService.get(st.trip_id!)!) ?? []) instants.push(day * 1440 + minutesOf(st.departure_time!));
  }
  instants.sort((a, b) => a - b);
  // the first day's early hours would need the (absent) day before's late trips: start the check a day in
  let previous = (first + 1) * 1440;
  let worst = { minutes: 0, after: '' };
  for (const t of [...instants.filter((x) => x >= previous && x <= (last + 1) * 1440), (last + 1) * 1440]) {
    if (t - previous > worst.minutes) {
      const day = Math.floor(previous / 1440);
      const clock = previous - day * 1440;
      worst = { minutes: t - previous, after: `${new Date(day * 86_400_000).toISOString().slice(0, 10)} ${String(Math.floor(clock / 60)).padStart(2, '0')}:${String(Math.round(clock % 60)).padStart(2, '0')}` };
    }
    previous = t;
  }
  return worst;
}

let feedSpecs: LocatedFeed[];
const feeds = new Map<string, Feed>();

beforeAll(async () => {
  feedSpecs = await loadFeedsList(FEEDS_JSON);
  for (const spec of feedSpecs) feeds.set(spec.id, await readFeed(spec.location!));
});

describe('sample feeds list', () => {
  it('lists the five sample feeds, each a folder next to feeds.json, with the sample licence and attribution', async () => {
    expect(feedSpecs.map((f) => f.id).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const spec of feedSpecs) {
      expect(spec.source).toBe(`./${spec.id}`);
      expect(spec.location).toBe(path.join(SAMPLES_DIR, spec.id));
      expect((await stat(spec.location!)).isDirectory()).toBe(true);
      expect(spec.licence).toBe('CC0-1.0 (canmap sample data)');
      expect(spec.attribution).toMatch(/illustrative schedule, not a real timetable/);
    }
  });

  it('matches the generator output byte for byte, with no stray files', async () => {
    const generated = renderSamples();
    for (const [relative, text] of generated) expect(await readFile(path.join(SAMPLES_DIR, relative), 'utf8'), relative).toBe(text);
    for (const spec of feedSpecs) {
      for (const name of await readdir(spec.location!)) expect(generated.has(`${spec.id}/${name}`), `${spec.id}/${name}`).toBe(true);
    }
  });

  it('stays small: under 300 KB in all, at most 1,000 stop_times per feed', async () => {
    let bytes = 0;
    for (const spec of feedSpecs) {
      for (const name of await readdir(spec.location!)) bytes += (await stat(path.join(spec.location!, name))).size;
      expect(rowsOf(feeds.get(spec.id)!, 'stop_times.txt').length).toBeLessThanOrEqual(1000);
    }
    expect(bytes).toBeLessThan(300 * 1024);
  });
});

describe.each(Object.keys(EXPECTED))('sample feed %s', (feedId) => {
  const expected = EXPECTED[feedId]!;
  const feed = () => feeds.get(feedId)!;

  it('has the GTFS files with the reference columns, no frequencies.txt and no unknown file or column', () => {
    const names = [...feed().keys()];
    for (const name of ALWAYS_PRESENT) expect(names).toContain(name);
    for (const name of names) expect(Object.keys(GTFS_FILES), `unexpected file ${name}`).toContain(name);
    for (const [name, table] of feed()) {
      const spec = GTFS_FILES[name]!;
      expect(new Set(table.header).size, `${name} repeats a column`).toBe(table.header.length);
      for (const column of spec.required) expect(table.header, `${name} lacks ${column}`).toContain(column);
      for (const column of table.header) expect(spec.known, `${name} has unknown column ${column}`).toContain(column);
      expect(table.rows.length, `${name} is empty`).toBeGreaterThan(0);
    }
  });

  it('has one agency time zone, the expected one, and unique agency ids', () => {
    const agencies = rowsOf(feed(), 'agency.txt');
    expect(new Set(agencies.map((a) => a.agency_timezone))).toEqual(new Set([expected.timezone]));
    expect(new Set(agencies.map((a) => a.agency_id)).size).toBe(agencies.length);
    for (const a of agencies) {
      expect(a.agency_id).not.toBe('');
      expect(a.agency_name).not.toBe('');
      expect(a.agency_url).toMatch(/^https:\/\//);
    }
  });

  it('has stops with unique ids and coordinates near the city, and valid parent stations', () => {
    const stops = rowsOf(feed(), 'stops.txt');
    const byId = new Map(stops.map((s) => [s.stop_id!, s]));
    expect(byId.size).toBe(stops.length);
    for (const s of stops) {
      expect(s.stop_name, s.stop_id).not.toBe('');
      const lat = Number(s.stop_lat);
      const lon = Number(s.stop_lon);
      expect(s.stop_lat, s.stop_id).toMatch(/^-?\d+\.\d+$/);
      expect(s.stop_lon, s.stop_id).toMatch(/^-?\d+\.\d+$/);
      expect(distanceKm([lat, lon], expected.centre), `${s.stop_id} is far from the city`).toBeLessThan(60);
      expect(['', '0', '1'], `${s.stop_id} location_type`).toContain(s.location_type ?? '');
      if (s.location_type === '1') expect(s.parent_station ?? '', `station ${s.stop_id} has a parent`).toBe('');
      if (s.parent_station) {
        expect(byId.get(s.parent_station)?.location_type, `parent of ${s.stop_id}`).toBe('1');
        expect(s.location_type ?? '', `${s.stop_id} under a station must be a stop/platform`).not.toBe('1');
      }
    }
  });

  it('has routes whose agency_id resolves, with a valid route_type and a name', () => {
    const agencyIds = new Set(rowsOf(feed(), 'agency.txt').map((a) => a.agency_id));
    const routes = rowsOf(feed(), 'routes.txt');
    expect(new Set(routes.map((r) => r.route_id)).size).toBe(routes.length);
    for (const r of routes) {
      expect(agencyIds.has(r.agency_id), `route ${r.route_id} agency ${r.agency_id}`).toBe(true);
      expect(['0', '1', '2', '3', '4', '5', '6', '7', '11', '12']).toContain(r.route_type);
      expect(`${r.route_short_name ?? ''}${r.route_long_name ?? ''}`).not.toBe('');
      if (r.route_color) expect(r.route_color).toMatch(/^[0-9A-F]{6}$/);
      if (r.route_text_color) expect(r.route_text_color).toMatch(/^[0-9A-F]{6}$/);
    }
  });

  it('has calendars covering 2026-01-01..2027-12-31 and well-formed calendar_dates', () => {
    const calendar = rowsOf(feed(), 'calendar.txt');
    expect(new Set(calendar.map((c) => c.service_id)).size).toBe(calendar.length);
    for (const c of calendar) {
      for (const day of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']) expect(['0', '1']).toContain(c[day]);
      expect(c.start_date).toMatch(DATE);
      expect(c.end_date).toMatch(DATE);
      expect(dayNumber(c.start_date!)).toBeLessThanOrEqual(dayNumber(FIRST_DAY));
      expect(dayNumber(c.end_date!)).toBeGreaterThanOrEqual(dayNumber(LAST_DAY));
    }
    const seen = new Set<string>();
    for (const d of rowsOf(feed(), 'calendar_dates.txt')) {
      expect(d.date).toMatch(DATE);
      dayNumber(d.date!);
      expect(['1', '2']).toContain(d.exception_type);
      expect(seen.has(`${d.service_id} ${d.date}`), `${d.service_id} ${d.date} twice`).toBe(false);
      seen.add(`${d.service_id} ${d.date}`);
    }
  });

  it('has trips whose route and service resolve, every service and route used', () => {
    const routeIds = new Set(rowsOf(feed(), 'routes.txt').map((r) => r.route_id));
    const serviceIds = new Set([...rowsOf(feed(), 'calendar.txt'), ...rowsOf(feed(), 'calendar_dates.txt')].map((c) => c.service_id));
    const trips = rowsOf(feed(), 'trips.txt');
    expect(new Set(trips.map((t) => t.trip_id)).size).toBe(trips.length);
    for (const t of trips) {
      expect(routeIds.has(t.route_id), `trip ${t.trip_id} route ${t.route_id}`).toBe(true);
      expect(serviceIds.has(t.service_id), `trip ${t.trip_id} service ${t.service_id}`).toBe(true);
      expect(['', '0', '1']).toContain(t.direction_id ?? '');
    }
    expect(new Set(trips.map((t) => t.route_id))).toEqual(routeIds);
    expect(new Set(trips.map((t) => t.service_id))).toEqual(serviceIds);
  });

  it('has stop_times on real stops, H:MM:SS times, increasing stop_sequence and non-decreasing times', () => {
    const stops = new Map(rowsOf(feed(), 'stops.txt').map((s) => [s.stop_id!, s]));
    const tripIds = new Set(rowsOf(feed(), 'trips.txt').map((t) => t.trip_id!));
    const byTrip = new Map<string, Row[]>();
    for (const st of rowsOf(feed(), 'stop_times.txt')) {
      expect(tripIds.has(st.trip_id!), `stop_time trip ${st.trip_id}`).toBe(true);
      const stop = stops.get(st.stop_id!);
      expect(stop, `stop_time stop ${st.stop_id}`).toBeDefined();
      expect(stop!.location_type ?? '', `${st.trip_id} stops at station ${st.stop_id}`).not.toBe('1');
      expect(st.arrival_time).toMatch(TIME);
      expect(st.departure_time).toMatch(TIME);
      expect(st.stop_sequence).toMatch(/^\d+$/);
      expect(minutesOf(st.departure_time!)).toBeGreaterThanOrEqual(minutesOf(st.arrival_time!));
      byTrip.set(st.trip_id!, [...(byTrip.get(st.trip_id!) ?? []), st]);
    }
    expect(new Set(byTrip.keys())).toEqual(tripIds);
    for (const [tripId, rows] of byTrip) {
      expect(rows.length, `trip ${tripId} has fewer than 2 stops`).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < rows.length; i++) {
        expect(Number(rows[i]!.stop_sequence), `trip ${tripId} stop_sequence`).toBeGreaterThan(Number(rows[i - 1]!.stop_sequence));
        expect(minutesOf(rows[i]!.arrival_time!), `trip ${tripId} goes back in time`).toBeGreaterThanOrEqual(minutesOf(rows[i - 1]!.departure_time!));
      }
    }
  });

  it('names canmap sample data as publisher, with a feed_version', () => {
    const [info, ...more] = rowsOf(feed(), 'feed_info.txt');
    expect(more).toHaveLength(0);
    expect(info!.feed_publisher_name).toBe('canmap sample data');
    expect(info!.feed_version).not.toBe('');
    expect(info!.feed_start_date).toBe(FIRST_DAY);
    expect(info!.feed_end_date).toBe(LAST_DAY);
  });

  it(`has a departure from ${expected.roundTheClockStop} at least every 60 minutes, every day of 2026-2027`, () => {
    const gap = longestGapWithoutDeparture(feed(), expected.roundTheClockStop);
    expect(gap.minutes, `no departure for ${gap.minutes} min after ${gap.after}`).toBeLessThanOrEqual(60);
    expect(gap.minutes).toBeGreaterThan(0);
  });
});

describe('what each sample feed is there to exercise', () => {
  it('toronto-rail: a parent station with at least two child platforms that trains use', () => {
    const feed = feeds.get('toronto-rail')!;
    const used = new Set(rowsOf(feed, 'stop_times.txt').map((st) => st.stop_id));
    const stations = rowsOf(feed, 'stops.txt').filter((s) => s.location_type === '1');
    const busiest = Math.max(...stations.map((station) => rowsOf(feed, 'stops.txt').filter((s) => s.parent_station === station.stop_id && used.has(s.stop_id)).length));
    expect(busiest).toBeGreaterThanOrEqual(2);
  });

  it('montreal-bus: French names, a removed and an added service day, a service known only from calendar_dates', () => {
    const feed = feeds.get('montreal-bus')!;
    expect(rowsOf(feed, 'agency.txt')[0]!.agency_lang).toBe('fr');
    expect(rowsOf(feed, 'stops.txt').some((s) => /[éèàç]/.test(s.stop_name!))).toBe(true);
    expect(rowsOf(feed, 'stops.txt').some((s) => s.stop_name!.includes(','))).toBe(true);
    const exceptions = rowsOf(feed, 'calendar_dates.txt');
    expect(exceptions.some((e) => e.exception_type === '1')).toBe(true);
    expect(exceptions.some((e) => e.exception_type === '2')).toBe(true);
    const days = serviceDays(feed);
    const christmas = dayNumber('20261225');
    expect(days.get('SEM')!.has(christmas)).toBe(false);
    expect(days.get('FDS')!.has(christmas)).toBe(true);
    const calendarIds = new Set(rowsOf(feed, 'calendar.txt').map((c) => c.service_id));
    expect(exceptions.some((e) => !calendarIds.has(e.service_id))).toBe(true);
  });

  it('halifax-ferry: trips past midnight (24:15:00, 25:05:00)', () => {
    const times = rowsOf(feeds.get('halifax-ferry')!, 'stop_times.txt').map((st) => st.departure_time);
    expect(times).toContain('24:15:00');
    expect(times).toContain('25:05:00');
  });
});

describe('transit build of the sample feeds', () => {
  let workDir: string;
  let stagingDir: string;
  let coverage: TransitCoverageEntry[];
  let inputs: string[];

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-samples-work-'));
    stagingDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-samples-staging-'));
    const spec = await prepareTransitRelease(feedSpecs, { workDir, fetchTimeoutMs: 10_000, maxDownloadBytes: 10 * 1024 * 1024 });
    inputs = spec.inputs.map((i) => i.name);
    const outcome = await spec.build(stagingDir);
    coverage = (outcome.coverage ?? []) as unknown as TransitCoverageEntry[];
  });

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
    if (stagingDir) await rm(stagingDir, { recursive: true, force: true });
  });

  it('includes all five feeds (none refused) with every stop_time', () => {
    expect(inputs.sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(coverage.filter((c) => c.status !== 'included')).toEqual([]);
    for (const entry of coverage) {
      expect(entry.stop_times).toBe(rowsOf(feeds.get(entry.feed_id)!, 'stop_times.txt').length);
      expect(entry.first_service_date).toBe('2026-01-01');
    }
    expect(existsSync(path.join(stagingDir, TRANSIT_DATABASE_FILE))).toBe(true);
  });

  it('resolves sample departures to the UTC instants their time zones give', async () => {
    const instance = await DuckDBInstance.create(path.join(stagingDir, TRANSIT_DATABASE_FILE), { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const departureUtc = async (feed: string, stop: string, trip: string, date: string): Promise<string | undefined> => {
      const reader = await connection.runAndReadAll(`
        SELECT strftime(to_timestamp(d.base_epoch + st.departure_secs) AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS utc
        FROM stop_times st JOIN trips t ON t.id = st.trip_id
        JOIN service_days d ON d.feed_id = t.feed_id AND d.service_id = t.service_id
        WHERE st.stop_id = 'svc:transit:stop:${feed}:${stop}' AND st.trip_id = 'svc:transit:trip:${feed}:${trip}' AND d.service_date = DATE '${date}'`);
      return (reader.getRowObjectsJS()[0] as { utc: string } | undefined)?.utc;
    };
    try {
      // British Columbia stays at UTC−7 after 2026-03-08: 07:49 on a November Monday is 14:49Z, not 15:49Z
      expect(await departureUtc('vancouver-bus', 'GRAN_GEORGIA', '10-DAILY-0-0745', '2026-11-23')).toBe('2026-11-23T14:49:00Z');
      expect(await departureUtc('toronto-rail', 'UNION_P1', 'LW-WKDY-0-0815', '2026-11-23')).toBe('2026-11-23T13:15:00Z');
      expect(await departureUtc('toronto-rail', 'UNION_P1', 'LW-WKDY-0-0815', '2026-07-06')).toBe('2026-07-06T12:15:00Z');
      // Christmas 2026 is a Friday: the weekday service is removed, the weekend one added
      expect(await departureUtc('montreal-bus', 'SHER_ATWATER', '24-SEM-0-0800', '2026-12-25')).toBeUndefined();
      expect(await departureUtc('montreal-bus', 'SHER_ATWATER', '24-FDS-0-0800', '2026-12-25')).toBe('2026-12-25T13:00:00Z');
      expect(await departureUtc('montreal-bus', 'BERRI', '777-NAVETTE-0-2500', '2026-12-31')).toBe('2027-01-01T06:00:00Z');
      // the Friday-night 24:53 crossing leaves at 00:53 Saturday, Atlantic time
      expect(await departureUtc('halifax-ferry', 'HFX_DOCK', 'ALD-LATE-0-2453', '2026-11-27')).toBe('2026-11-28T04:53:00Z');
      expect(await departureUtc('halifax-ferry', 'HFX_DOCK', 'ALD-LATE-0-2453', '2026-11-26')).toBeUndefined();
      expect(await departureUtc('stjohns-bus', 'WATER_PRESCOTT', '1-DAILY-0-0845', '2026-11-23')).toBe('2026-11-23T12:15:00Z');
      expect(await departureUtc('stjohns-bus', 'WATER_PRESCOTT', '1-DAILY-0-0845', '2026-07-06')).toBe('2026-07-06T11:15:00Z');
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});

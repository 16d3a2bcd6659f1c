import { mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../ingest/errors.ts';
import { loadFeedsList, prepareTransitRelease, type TransitCoverageEntry } from '../../ingest/transit/release.ts';
import { FeedRefusedError } from '../../ingest/transit/refusal.ts';
import { extractFeedZip } from '../../ingest/transit/unzip.ts';
import type { FeedSpec } from '../../schemas/transit-feeds.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';
import { openTransit, smallFeed, writeFeedDir, writeFeedZip, writeZip, type FeedTexts } from '../support/gtfs-fixtures.ts';

let root: string;
const opts = () => ({ workDir: path.join(root, `work-${Math.random().toString(36).slice(2)}`), fetchTimeoutMs: 5000, maxDownloadBytes: 50 * 1024 * 1024 });
const spec = (id: string, source: string): FeedSpec => ({ id, source, licence: 'test licence', attribution: 'test attribution' });

function edit(changes: FeedTexts, base: FeedTexts = smallFeed()): FeedTexts {
  const feed = { ...base, ...changes };
  for (const [name, text] of Object.entries(changes)) if (text === '') delete feed[name];
  return feed;
}

/** Bad feeds, each with the reason it must be refused with. */
async function badFeeds(): Promise<{ id: string; source: string; reason: RegExp }[]> {
  const zip = (name: string) => path.join(root, `${name}.zip`);
  const good = smallFeed();
  const cases: { id: string; source: string; reason: RegExp }[] = [];
  const add = (id: string, source: string, reason: RegExp) => cases.push({ id, source, reason });

  await writeFile(zip('notzip'), 'agency_id,agency_name\nthis is a CSV file, not a zip archive\n');
  add('notzip', zip('notzip'), /^not a zip file: End of central dir/);

  // 20 MB of zeros deflate to ~20 kB (about 1000:1), and the header says so
  const zeros = Buffer.alloc(20 * 1024 * 1024, 0x30);
  await writeZip(zip('bomb'), [...Object.entries(good).map(([name, data]) => ({ name, data })).filter((e) => e.name !== 'shapes.txt'), { name: 'shapes.txt', data: zeros }]);
  add('bomb', zip('bomb'), /^zip entry shapes\.txt claims 20971520 bytes from \d+ compressed \(over 200:1\): refused as a zip bomb$/);

  // same bytes, but the header claims 30 kB: caught while inflating
  await writeZip(zip('liar'), [...Object.entries(good).map(([name, data]) => ({ name, data })), { name: 'shapes.txt', data: zeros, declaredSize: 30_000 }]);
  add('liar', zip('liar'), /^zip entry shapes\.txt inflates to more than the 30000 bytes its header claims: refused as a zip bomb$/);

  await writeZip(zip('traversal'), [...Object.entries(good).map(([name, data]) => ({ name, data })), { name: '../evil.txt', data: 'x' }]);
  add('traversal', zip('traversal'), /^zip has an unsafe entry name \(invalid relative path: \.\.\/evil\.txt\)$/);

  await writeZip(zip('absolute'), [{ name: '/etc/agency.txt', data: good['agency.txt']! }, ...Object.entries(good).filter(([n]) => n !== 'agency.txt').map(([name, data]) => ({ name, data }))]);
  add('absolute', zip('absolute'), /^zip has an unsafe entry name \(absolute path: \/etc\/agency\.txt\)$/);

  await writeZip(zip('twofolders'), Object.entries(good).map(([name, data], i) => ({ name: `${i % 2 ? 'a' : 'b'}/${name}`, data })));
  add('twofolders', zip('twofolders'), /^zip has \.txt files in 2 folders \((a|b)\/, (a|b)\/\): a feed must keep its files in one folder$/);

  add('nostops', await writeFeedZip(zip('nostops'), edit({ 'stops.txt': '' })), /^missing required file: stops\.txt$/);
  add('nocalendar', await writeFeedZip(zip('nocalendar'), edit({ 'calendar.txt': '' })), /^missing required file: calendar\.txt or calendar_dates\.txt$/);
  add('unknowntrip', await writeFeedZip(zip('unknowntrip'), edit({
    'stop_times.txt': 'trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT9,08:10:00,08:10:00,S2,2\n',
  })), /^stop_times\.txt references trip_id "T9", which is not in trips\.txt$/);
  add('unknownstop', await writeFeedZip(zip('unknownstop'), edit({
    'stop_times.txt': 'trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S7,2\n',
  })), /^stop_times\.txt: trip "T1" references stop_id "S7", which is not in stops\.txt$/);
  add('badtime', await writeFeedZip(zip('badtime'), edit({
    'stop_times.txt': 'trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,,25:6x:00,S2,2\n',
  })), /^stop_times\.txt: trip "T1" stop_sequence 2 has unparseable departure_time "25:6x:00" \(expected H:MM:SS\)$/);
  add('mars', await writeFeedZip(zip('mars'), smallFeed({ timezone: 'Mars/Olympus' })), /^agency\.txt has unknown agency_timezone "Mars\/Olympus"$/);
  add('twozones', await writeFeedZip(zip('twozones'), edit({
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nA1,One,https://a.example,America/Toronto\nA2,Two,https://b.example,America/Vancouver\n',
  })), /^agency\.txt: agencies have different timezones \(America\/Toronto, America\/Vancouver\)/);
  add('unknownagency', await writeFeedZip(zip('unknownagency'), edit({
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nA1,One,https://a.example,America/Toronto\nA2,Two,https://b.example,America/Toronto\n',
    'routes.txt': 'route_id,agency_id,route_short_name,route_type\nR1,A3,1,3\n',
  })), /^routes\.txt: route "R1" has agency_id "A3", which is not in agency\.txt$/);
  add('unknownroute', await writeFeedZip(zip('unknownroute'), edit({ 'trips.txt': 'route_id,service_id,trip_id\nR2,DAILY,T1\n' })),
    /^trips\.txt: trip "T1" has route_id "R2", which is not in routes\.txt$/);
  add('unknownservice', await writeFeedZip(zip('unknownservice'), edit({ 'trips.txt': 'route_id,service_id,trip_id\nR1,WEEKEND,T1\n' })),
    /^trips\.txt: trip "T1" has service_id "WEEKEND", which is in neither calendar\.txt nor calendar_dates\.txt$/);
  add('stopzone', await writeFeedZip(zip('stopzone'), edit({ 'stops.txt': 'stop_id,stop_name,stop_lat,stop_lon,stop_timezone\nS1,First,45,-75,Canada/Pacific\nS2,Second,45,-75,Mars/Olympus\n' })),
    /^stops\.txt: stop "S2" has unknown stop_timezone "Mars\/Olympus"$/);
  add('frequencies', await writeFeedZip(zip('frequencies'), edit({ 'frequencies.txt': 'trip_id,start_time,end_time,headway_secs\nT1,06:00:00,09:00:00,600\n' })),
    /^frequencies\.txt has 1 row: frequency-based trips are not supported$/);
  add('missingcolumn', await writeFeedZip(zip('missingcolumn'), edit({ 'routes.txt': 'route_id,route_short_name\nR1,1\n' })),
    /^routes\.txt lacks required column route_type \(header: route_id,route_short_name\)$/);
  add('baddate', await writeFeedZip(zip('baddate'), edit({ 'calendar.txt': 'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,2026-03-01,20260331\n' })),
    /^calendar\.txt: service "DAILY" has invalid start_date\/end_date "2026-03-01"\/"20260331" \(expected YYYYMMDD\)$/);
  add('missing', path.join(root, 'no-such-feed.zip'), /^source .*no-such-feed\.zip does not exist$/);
  return cases;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'gtfs-refusals-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('refused feeds', () => {
  it('refuses each bad feed with its reason and still builds the good one', async () => {
    const cases = await badFeeds();
    const goodDir = await writeFeedDir(path.join(root, 'good'), smallFeed());
    const feeds = [...cases.map((c) => spec(c.id, c.source)), { ...spec('good', goodDir), gap: 'no night buses' }];
    const publish = await prepareTransitRelease(feeds, opts());
    expect(publish.inputs.map((i) => i.name)).toEqual(['good']);
    const staging = await mkdtemp(path.join(root, 'staging-'));
    const outcome = await publish.build(staging);
    const coverage = outcome.coverage as unknown as TransitCoverageEntry[];
    expect(coverage.map((c) => c.feed_id)).toEqual(feeds.map((f) => f.id));
    for (const c of cases) {
      const entry = coverage.find((e) => e.feed_id === c.id)!;
      expect({ id: c.id, status: entry.status }).toEqual({ id: c.id, status: 'refused' });
      expect(entry.reason, c.id).toMatch(c.reason);
      expect(entry).toMatchObject({ source: c.source, licence: 'test licence', attribution: 'test attribution' });
      expect(entry.stops).toBeUndefined();
    }
    expect(coverage.at(-1)).toMatchObject({ feed_id: 'good', status: 'included', gap: 'no night buses', stops: 2, trips: 1, stop_times: 2 });
    expect(outcome.stats).toMatchObject({ feeds_included: 1, feeds_refused: cases.length, stop_times: 2 });
    // nothing escaped the extraction folders
    expect((await readdir(path.dirname(root))).includes('evil.txt')).toBe(false);
  });

  it('throws InvalidInputError naming every reason when every feed is refused', async () => {
    const mars = await writeFeedDir(path.join(root, 'mars-dir'), smallFeed({ timezone: 'Mars/Olympus' }));
    const nostops = await writeFeedDir(path.join(root, 'nostops-dir'), edit({ 'stops.txt': '' }));
    const attempt = prepareTransitRelease([spec('mars', mars), spec('nostops', nostops)], opts());
    await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
    await expect(attempt).rejects.toThrow('every feed was refused: mars: agency.txt has unknown agency_timezone "Mars/Olympus"; nostops: missing required file: stops.txt');
  });

  it('caps the total inflated size of a zip', async () => {
    const file = await writeFeedZip(path.join(root, 'cap.zip'), smallFeed());
    const dest = path.join(root, 'cap-out');
    await mkdir(dest);
    const attempt = extractFeedZip(file, dest, { maxTotalBytes: 300, maxRatio: 200, minRatioCheckBytes: 1024 * 1024 });
    await expect(attempt).rejects.toBeInstanceOf(FeedRefusedError);
    await expect(attempt).rejects.toThrow(/^zip claims \d+ uncompressed bytes, over the 300-byte limit: refused as a zip bomb$/);
  });

  it('refuses duplicate feed ids before fetching anything', async () => {
    const dir = await writeFeedDir(path.join(root, 'dup'), smallFeed());
    await expect(prepareTransitRelease([spec('a', dir), spec('a', dir)], opts())).rejects.toThrow(/entry 1: duplicate feed id "a"/);
  });
});

describe('a refused feed is read no further', () => {
  it('refuses a zip lacking a required file from its entry names, before inflating anything', async () => {
    // stop_times.txt would fail to inflate (its header understates its size), but is never read
    const feed = Object.entries(edit({ 'stops.txt': '' })).map(([name, data]) => ({ name, data }));
    const lying = feed.map((e) => (e.name === 'stop_times.txt' ? { ...e, data: e.data.repeat(100), declaredSize: 10 } : e));
    const zip = path.join(root, 'nostops-lying.zip');
    await writeZip(zip, lying);
    const attempt = prepareTransitRelease([spec('nostops', zip)], opts());
    await expect(attempt).rejects.toThrow('every feed was refused: nostops: missing required file: stops.txt');
  });

  it('stops hashing a directory feed once it is refused', async () => {
    const dir = await writeFeedDir(path.join(root, 'frequencies-dir'), edit({ 'frequencies.txt': 'trip_id,start_time,end_time,headway_secs\nT1,06:00:00,09:00:00,600\n' }));
    // 4 GiB of zeros that take no disk space: hashing them takes seconds
    const big = await open(path.join(dir, 'shapes.txt'), 'w');
    await big.truncate(4 * 1024 ** 3);
    await big.close();
    const attempt = prepareTransitRelease([spec('frequencies', dir)], opts());
    await expect(attempt).rejects.toThrow(/^every feed was refused: frequencies: frequencies\.txt has 1 row/);
    const before = await bytesRead();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await bytesRead() - before).toBeLessThan(16 * 1024 * 1024);
  });
});

/** Bytes this process has read so far (any file), from /proc/self/io. */
async function bytesRead(): Promise<number> {
  return Number(/^rchar: (\d+)$/m.exec(await readFile('/proc/self/io', 'utf8'))![1]);
}

describe('loadFeedsList', () => {
  it('validates entries and resolves relative sources against the list folder', async () => {
    const folder = path.join(root, 'lists');
    await mkdir(folder, { recursive: true });
    const file = path.join(folder, 'feeds.json');
    await writeFile(file, JSON.stringify([
      { id: 'via', source: '../data/via.zip', licence: 'OGL-Canada', attribution: 'VIA Rail', gap: 'no buses' },
      { id: 'web', source: 'https://example.org/gtfs.zip', licence: 'CC-BY', attribution: 'Example' },
    ]));
    expect(await loadFeedsList(file)).toEqual([
      { id: 'via', source: '../data/via.zip', location: path.join(root, 'data/via.zip'), licence: 'OGL-Canada', attribution: 'VIA Rail', gap: 'no buses' },
      { id: 'web', source: 'https://example.org/gtfs.zip', licence: 'CC-BY', attribution: 'Example' },
    ]);
  });

  it('publishes a relative source as written (inputs, coverage, feeds table, reasons) and reads it from its location', async () => {
    const folder = path.join(root, 'public-lists');
    await writeFeedDir(path.join(root, 'public-feed'), smallFeed());
    await mkdir(folder, { recursive: true });
    const file = path.join(folder, 'feeds.json');
    await writeFile(file, JSON.stringify([
      { id: 'good', source: '../public-feed', licence: 'x', attribution: 'y' },
      { id: 'gone', source: './no-such-folder', licence: 'x', attribution: 'y' },
    ]));
    const publish = await prepareTransitRelease(await loadFeedsList(file), opts());
    expect(publish.inputs.map((i) => [i.name, i.source])).toEqual([['good', '../public-feed']]);
    const staging = await mkdtemp(path.join(root, 'staging-'));
    const outcome = await publish.build(staging);
    expect(outcome.coverage?.map((c) => [c.feed_id, c.source, c.reason ?? c.status])).toEqual([
      ['good', '../public-feed', 'included'],
      ['gone', './no-such-folder', 'source ./no-such-folder does not exist'],
    ]);
    expect(JSON.stringify({ publish, outcome })).not.toContain(root);
    const db = await openTransit(path.join(staging, TRANSIT_DATABASE_FILE));
    try {
      expect(await db.query('SELECT feed_id, source FROM feeds')).toEqual([{ feed_id: 'good', source: '../public-feed' }]);
    } finally {
      db.close();
    }
  });

  it('refuses a location written in the file itself (it is derived from the source)', async () => {
    const file = path.join(root, 'with-location.json');
    await writeFile(file, JSON.stringify([{ id: 'a', source: 'a.zip', location: '/elsewhere/a.zip', licence: 'x', attribution: 'y' }]));
    await expect(loadFeedsList(file)).rejects.toThrow(/^feeds list .*with-location\.json: entry 0 \(id "a"\)/);
  });

  it('names the entry and field of a bad value', async () => {
    const file = path.join(root, 'bad-id.json');
    await writeFile(file, JSON.stringify([
      { id: 'ok', source: 'a.zip', licence: 'x', attribution: 'y' },
      { id: 'Bad Id', source: 'b.zip', licence: 'x', attribution: 'y' },
    ]));
    const attempt = loadFeedsList(file);
    await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
    await expect(attempt).rejects.toThrow(/entry 1 \(id "Bad Id"\), field "id": Expected string to match .*\(got "Bad Id"\)/);

    await writeFile(file, JSON.stringify([{ id: 'ok', source: 'a.zip', attribution: 'y' }]));
    await expect(loadFeedsList(file)).rejects.toThrow(/entry 0 \(id "ok"\), field "licence": .*\(missing\)/);

    await writeFile(file, JSON.stringify([{ id: 'a', source: 'a.zip', licence: 'x', attribution: 'y' }, { id: 'a', source: 'b.zip', licence: 'x', attribution: 'y' }]));
    await expect(loadFeedsList(file)).rejects.toThrow(/entry 1: duplicate feed id "a"/);

    await writeFile(file, '[{"id": ');
    await expect(loadFeedsList(file)).rejects.toThrow(/is not valid JSON/);
  });
});

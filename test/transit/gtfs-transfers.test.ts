import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransitData } from '../../engines/transit/data.ts';
import { openTransitRelease } from '../../engines/transit/release.ts';
import type { TransitCoverageEntry } from '../../ingest/transit/release.ts';
import type { BuildOutcome } from '../../releases/publish.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';
import { openTransit, smallFeed, writeFeedDir, type FeedTexts } from '../support/gtfs-fixtures.ts';
import { buildTransitRelease, openChangedCopy, testManifest } from '../support/transit-builds.ts';
import { sharedData } from '../support/paths.ts';
import { readGtfsZip } from '../support/transit-api-oracle.ts';

/*
 * transfers.txt through the real builder into the `transfers` table, and from there into
 * TransitData.transfers: TriMet's real type-0 rules, and a small feed whose transfers.txt has every
 * kind of row the builder keeps, resolves, leaves out silently, or leaves out with a warning.
 */

const TRIMET_ZIP = sharedData('gtfs', 'transitland-trimet-2routes.zip');

/** smallFeed plus a third stop and a transfers.txt of kept, duplicate, invalid and unused rows. */
function transfersFeed(): FeedTexts {
  const feed = smallFeed();
  feed['stops.txt'] += 'S3,Third,45.2,-75.2\n';
  feed['transfers.txt'] = [
    'from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_route_id,to_route_id,from_trip_id,to_trip_id',
    'S1,S2,2,120,,,,', // duplicate S1→S2: the largest time wins
    'S1,S2,2,300,,,,',
    'S1,S2,,,,,,',
    'S2,S1,1,,,,,', // duplicate S2→S1: type 3 wins
    'S2,S1,3,,,,,',
    'S2,S1,2,600,,,,',
    'S1,S1,,,,,,', // empty type is 0
    'S3,S1,0,60,,,,',
    'S3,S3,2,90,,,,',
    'S1,S9,0,,,,,', // unknown stops
    'S9,S1,0,,,,,',
    ',S1,0,,,,,',
    'S2,S3,7,,,,,', // bad types
    'S2,S3,x,,,,,',
    'S3,S2,2,-5,,,,', // bad times
    'S3,S2,2,1.5,,,,',
    'S1,S3,2,180,R1,,,', // route- and trip-qualified, in-seat: not used, no warning
    'S1,S3,1,,,,T1,',
    'S1,S3,4,,,,T1,T1',
    ',,5,,,,T1,T1',
    'S9,S3,0,,,R1,,',
  ].join('\n') + '\n';
  return feed;
}

let root: string;
let outcome: BuildOutcome;
let staging: string;
let data: TransitData;

/** The transfers of one feed as (raw from, raw to, type, min secs), read back from TransitData. */
function loadedTransfers(loaded: TransitData, feedId: string): [string, string, number, number][] {
  const prefix = `svc:transit:stop:${feedId}:`;
  const rows: [string, string, number, number][] = [];
  const { from, to, type, minSeconds } = loaded.transfers;
  for (let i = 0; i < from.length; i++) {
    const fromId = loaded.stops[from[i]!]!.id;
    if (fromId.startsWith(prefix)) rows.push([fromId.slice(prefix.length), loaded.stops[to[i]!]!.id.slice(prefix.length), type[i]!, minSeconds[i]!]);
  }
  return rows;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'gtfs-transfers-'));
  ({ outcome, staging } = await buildTransitRelease(root, 'main', [
    { id: 'trimet', source: TRIMET_ZIP },
    { id: 'mini', source: await writeFeedDir(path.join(root, 'mini'), transfersFeed()) },
  ]));
  data = await openTransitRelease(staging, testManifest('transfers-test'));
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('transfers table', () => {
  it('keeps valid stop-to-stop rules, one per stop pair, sorted by from and to stop', async () => {
    const db = await openTransit(path.join(staging, TRANSIT_DATABASE_FILE));
    try {
      const mini = await db.query(`SELECT * FROM transfers WHERE from_stop_id LIKE 'svc:transit:stop:mini:%' ORDER BY rowid`);
      const s = (id: string) => `svc:transit:stop:mini:${id}`;
      expect(mini).toEqual([
        { from_stop_id: s('S1'), to_stop_id: s('S1'), transfer_type: 0, min_transfer_secs: null },
        { from_stop_id: s('S1'), to_stop_id: s('S2'), transfer_type: 2, min_transfer_secs: 300 },
        { from_stop_id: s('S2'), to_stop_id: s('S1'), transfer_type: 3, min_transfer_secs: null },
        { from_stop_id: s('S3'), to_stop_id: s('S1'), transfer_type: 0, min_transfer_secs: 60 },
        { from_stop_id: s('S3'), to_stop_id: s('S3'), transfer_type: 2, min_transfer_secs: 90 },
      ]);

      // TriMet's transfers.txt, read independently: type 0 stop-to-stop rules, all kept
      const raw = (await readGtfsZip(TRIMET_ZIP))['transfers.txt']!;
      const expected = raw.map((r) => ({
        from_stop_id: `svc:transit:stop:trimet:${r.from_stop_id}`, to_stop_id: `svc:transit:stop:trimet:${r.to_stop_id}`,
        transfer_type: Number(r.transfer_type || 0), min_transfer_secs: r.min_transfer_time ? Number(r.min_transfer_time) : null,
      })).sort((a, b) => (a.from_stop_id + '\0' + a.to_stop_id < b.from_stop_id + '\0' + b.to_stop_id ? -1 : 1));
      expect(raw).toHaveLength(57);
      const trimet = await db.query(`SELECT * FROM transfers WHERE from_stop_id LIKE 'svc:transit:stop:trimet:%' ORDER BY rowid`);
      expect(trimet).toEqual(expected);
      expect(trimet).toContainEqual({ from_stop_id: 'svc:transit:stop:trimet:7608', to_stop_id: 'svc:transit:stop:trimet:13123', transfer_type: 0, min_transfer_secs: null });

      const [unsorted] = await db.query<{ n: bigint }>(`SELECT count(*) AS n FROM (
        SELECT (from_stop_id, to_stop_id) AS k, lag((from_stop_id, to_stop_id)) OVER (ORDER BY rowid) AS prev FROM transfers)
        WHERE prev IS NOT NULL AND k <= prev`);
      expect(Number(unsorted!.n)).toBe(0);
    } finally {
      db.close();
    }
    expect(outcome.stats).toMatchObject({ transfers: 57 + 5 });
  });

  it('warns of the rows left out as invalid, not of route/trip-qualified or in-seat rows', () => {
    const coverage = outcome.coverage as unknown as TransitCoverageEntry[];
    expect(coverage.find((c) => c.feed_id === 'mini')!.warnings).toEqual([
      'transfers.txt: 7 row(s) left out (3 with a stop that is not in stops.txt, 2 with an invalid transfer_type, 2 with an invalid min_transfer_time)',
    ]);
    expect(coverage.find((c) => c.feed_id === 'trimet')!.warnings).toBeUndefined();
  });
});

describe('TransitData.transfers', () => {
  it('holds the rules as stop indexes sorted by from stop, −1 for no min_transfer_time', () => {
    const { from, to, type, minSeconds } = data.transfers;
    expect([from.length, to.length, type.length, minSeconds.length]).toEqual([62, 62, 62, 62]);
    expect(type).toBeInstanceOf(Int8Array);
    for (let i = 1; i < from.length; i++) expect(from[i - 1]! < from[i]! || (from[i - 1] === from[i] && to[i - 1]! < to[i]!)).toBe(true);
    expect(loadedTransfers(data, 'mini')).toEqual([
      ['S1', 'S1', 0, -1],
      ['S1', 'S2', 2, 300],
      ['S2', 'S1', 3, -1],
      ['S3', 'S1', 0, 60],
      ['S3', 'S3', 2, 90],
    ]);
    const trimet = loadedTransfers(data, 'trimet');
    expect(trimet).toHaveLength(57);
    expect(trimet).toContainEqual(['7608', '13123', 0, -1]);
    expect(trimet).toContainEqual(['7608', '7608', 0, -1]);
  });

  it('is empty for a feed without transfers.txt', async () => {
    const plain = await buildTransitRelease(root, 'plain', [{ id: 'plain', source: await writeFeedDir(path.join(root, 'plain'), smallFeed()) }]);
    expect(plain.outcome.stats).toMatchObject({ transfers: 0 });
    expect(plain.outcome.coverage?.[0]).not.toHaveProperty('warnings');
    const loaded = await openTransitRelease(plain.staging, testManifest('plain'));
    expect(loaded.transfers).toEqual({ from: new Int32Array(0), to: new Int32Array(0), type: new Int8Array(0), minSeconds: new Int32Array(0) });
  });

  it('is empty for a schema-1 release, which has no transfers table', async () => {
    const loaded = await openChangedCopy(root, staging, 'schema1', ['DROP TABLE transfers']);
    expect(loaded.transfers.from).toHaveLength(0);
    expect(loaded.transfers.minSeconds).toHaveLength(0);
    expect(loaded.stops).toHaveLength(data.stops.length);
    expect(loaded.stopTimes.trip).toHaveLength(data.stopTimes.trip.length);
  });
});

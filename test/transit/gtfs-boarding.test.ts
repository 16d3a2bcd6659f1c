import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DROP_OFF, NO_PICKUP, type TransitData } from '../../engines/transit/data.ts';
import { openTransitRelease } from '../../engines/transit/release.ts';
import type { TransitCoverageEntry } from '../../ingest/transit/release.ts';
import type { BuildOutcome } from '../../releases/publish.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';
import { openTransit, smallFeed, writeFeedDir, type FeedTexts } from '../support/gtfs-fixtures.ts';
import { buildTransitRelease, openChangedCopy, testManifest } from '../support/transit-builds.ts';
import { sharedData } from '../support/paths.ts';
import { readGtfsZip, type Table } from '../support/transit-api-oracle.ts';

/*
 * stop_times.txt pickup_type / drop_off_type through the real builder into the `stop_times`
 * table, and from there into TransitData.stopTimes.boarding: TriMet's real values (read from the
 * zip independently), a small feed with every kind of value (empty, 0–3, out of range, not a
 * number), a feed without the columns, and a release written before the columns existed.
 */

const TRIMET_ZIP = sharedData('gtfs', 'transitland-trimet-2routes.zip');

/** [pickup_type, drop_off_type] of the small feed's one trip, by stop_sequence 1…8. */
const MINI_VALUES: [string, string][] = [
  ['', ''],
  ['0', '1'],
  ['1', '0'],
  ['2', '3'],
  ['3', '2'],
  ['7', 'x'], // both invalid: one row
  ['x', '7'],
  ['1', '1'],
];
/** What the table holds for them: empty and invalid are 0. */
const MINI_TABLE: [number, number][] = [[0, 0], [0, 1], [1, 0], [2, 3], [3, 2], [0, 0], [0, 0], [1, 1]];
/** The loaded bits: only type 1 counts. */
const MINI_BITS = [0, NO_DROP_OFF, NO_PICKUP, 0, 0, 0, 0, NO_PICKUP | NO_DROP_OFF];

/** smallFeed whose one trip stops 8 times (alternately at S1 and S2) with MINI_VALUES. */
function boardingFeed(): FeedTexts {
  const feed = smallFeed();
  feed['stop_times.txt'] = [
    'trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type',
    ...MINI_VALUES.map(([pickup, dropOff], i) => {
      const time = `08:0${i}:00`;
      return `T1,${time},${time},S${(i % 2) + 1},${i + 1},${pickup},${dropOff}`;
    }),
  ].join('\n') + '\n';
  return feed;
}

let root: string;
let outcome: BuildOutcome;
let staging: string;
let data: TransitData;
let trimetStopTimes: Table;

/** The boarding bits of one feed's loaded stop times, keyed by raw trip_id and stop_sequence. */
function loadedBoarding(loaded: TransitData, feedId: string): Map<string, number> {
  const prefix = `svc:transit:trip:${feedId}:`;
  const bits = new Map<string, number>();
  const { trip, sequence, boarding } = loaded.stopTimes;
  for (let i = 0; i < trip.length; i++) {
    const tripId = loaded.trips.ids[trip[i]!]!;
    if (!tripId.startsWith(prefix)) continue;
    const key = `${tripId.slice(prefix.length)}#${sequence[i]}`;
    expect(bits.has(key), key).toBe(false);
    bits.set(key, boarding[i]!);
  }
  return bits;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'gtfs-boarding-'));
  ({ outcome, staging } = await buildTransitRelease(root, 'main', [
    { id: 'trimet', source: TRIMET_ZIP },
    { id: 'mini', source: await writeFeedDir(path.join(root, 'mini'), boardingFeed()) },
    { id: 'plain', source: await writeFeedDir(path.join(root, 'plain'), smallFeed()) },
  ]));
  data = await openTransitRelease(staging, testManifest('boarding-test'));
  trimetStopTimes = (await readGtfsZip(TRIMET_ZIP))['stop_times.txt']!;
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('stop_times pickup_type / drop_off_type', () => {
  it('keeps 0–3 and reads empty or invalid values as 0', async () => {
    const db = await openTransit(path.join(staging, TRANSIT_DATABASE_FILE));
    try {
      const mini = await db.query<{ pickup_type: number; drop_off_type: number }>(`
        SELECT pickup_type, drop_off_type FROM stop_times WHERE trip_id = 'svc:transit:trip:mini:T1' ORDER BY stop_sequence`);
      expect(mini.map((r) => [r.pickup_type, r.drop_off_type])).toEqual(MINI_TABLE);
      const plain = await db.query<{ pickup_type: number; drop_off_type: number }>(`
        SELECT pickup_type, drop_off_type FROM stop_times WHERE trip_id = 'svc:transit:trip:plain:T1' ORDER BY stop_sequence`);
      expect(plain).toEqual([{ pickup_type: 0, drop_off_type: 0 }, { pickup_type: 0, drop_off_type: 0 }]);
      const [types] = await db.query<{ pickup: string; drop_off: string }>(`
        SELECT typeof(any_value(pickup_type)) AS pickup, typeof(any_value(drop_off_type)) AS drop_off FROM stop_times`);
      expect(types).toEqual({ pickup: 'TINYINT', drop_off: 'TINYINT' });

      // TriMet's stop_times.txt, read independently
      const none = (column: 'pickup_type' | 'drop_off_type') => trimetStopTimes.filter((r) => r[column] === '1').length;
      expect([trimetStopTimes.length, none('pickup_type'), none('drop_off_type')]).toEqual([43_813, 699, 703]);
      const counts = await db.query<Record<string, bigint>>(`
        SELECT count(*) AS n, count(*) FILTER (WHERE pickup_type = 1) AS no_pickup, count(*) FILTER (WHERE drop_off_type = 1) AS no_drop_off,
               count(*) FILTER (WHERE pickup_type = 0) AS pickup_0, count(*) FILTER (WHERE drop_off_type = 0) AS drop_off_0
        FROM stop_times WHERE trip_id LIKE 'svc:transit:trip:trimet:%'`);
      const regular = (column: 'pickup_type' | 'drop_off_type') => trimetStopTimes.filter((r) => (r[column] || '0') === '0').length;
      expect(counts.map((c) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Number(v)])))).toEqual([{
        n: 43_813, no_pickup: 699, no_drop_off: 703, pickup_0: regular('pickup_type'), drop_off_0: regular('drop_off_type'),
      }]);
    } finally {
      db.close();
    }
  });

  it('warns of the rows with a value other than 0–3, once per row', () => {
    const coverage = outcome.coverage as unknown as TransitCoverageEntry[];
    expect(coverage.find((c) => c.feed_id === 'mini')!.warnings).toEqual([
      'stop_times.txt: 2 row(s) have a pickup_type or drop_off_type other than 0–3; read as 0 (regular)',
    ]);
    expect(coverage.find((c) => c.feed_id === 'trimet')!.warnings).toBeUndefined();
    expect(coverage.find((c) => c.feed_id === 'plain')!.warnings).toBeUndefined();
  });
});

describe('TransitData.stopTimes.boarding', () => {
  it('has NO_PICKUP where pickup_type is 1 and NO_DROP_OFF where drop_off_type is 1, row by row', () => {
    const { trip, boarding } = data.stopTimes;
    expect(boarding).toBeInstanceOf(Uint8Array);
    expect(boarding).toHaveLength(trip.length);
    expect([NO_PICKUP, NO_DROP_OFF]).toEqual([1, 2]);

    const trimet = loadedBoarding(data, 'trimet');
    expect(trimet.size).toBe(trimetStopTimes.length);
    let noPickup = 0;
    let noDropOff = 0;
    for (const r of trimetStopTimes) {
      const expected = (r.pickup_type === '1' ? NO_PICKUP : 0) | (r.drop_off_type === '1' ? NO_DROP_OFF : 0);
      const key = `${r.trip_id}#${Number(r.stop_sequence)}`;
      expect(trimet.get(key), key).toBe(expected);
    }
    for (const bits of trimet.values()) {
      if (bits & NO_PICKUP) noPickup++;
      if (bits & NO_DROP_OFF) noDropOff++;
    }
    expect([noPickup, noDropOff]).toEqual([699, 703]);

    const mini = loadedBoarding(data, 'mini');
    expect(MINI_VALUES.map((_, i) => mini.get(`T1#${i + 1}`))).toEqual(MINI_BITS);
    expect([...loadedBoarding(data, 'plain').values()]).toEqual([0, 0]);
  });

  it('is all zeros for a release written before the columns existed', async () => {
    const loaded = await openChangedCopy(root, staging, 'no-boarding', ['ALTER TABLE stop_times DROP COLUMN pickup_type', 'ALTER TABLE stop_times DROP COLUMN drop_off_type']);
    expect(loaded.stopTimes.trip).toHaveLength(data.stopTimes.trip.length);
    expect(loaded.stopTimes.boarding).toHaveLength(data.stopTimes.trip.length);
    expect(loaded.stopTimes.boarding.every((b) => b === 0)).toBe(true);
  });

  it('keeps the pickup bits of a release with pickup_type only', async () => {
    const loaded = await openChangedCopy(root, staging, 'pickup-only', ['ALTER TABLE stop_times DROP COLUMN drop_off_type']);
    const mini = loadedBoarding(loaded, 'mini');
    expect(MINI_VALUES.map((_, i) => mini.get(`T1#${i + 1}`))).toEqual(MINI_BITS.map((b) => b & NO_PICKUP));
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';
import { openTransit, smallFeed, writeFeedDir, type TransitReader } from '../support/gtfs-fixtures.ts';

/**
 * Departure instants through the builder's own time-zone path (DuckDB ICU), for days where the
 * UTC offset changes. Expected instants are worked out by hand, never with Intl (Node 20's zone
 * data predates British Columbia's 2026 switch to permanent UTC-7).
 */
let root: string;
let db: TransitReader;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'gtfs-time-'));
  const toronto = smallFeed({ timezone: 'America/Toronto', startDate: '20261030', endDate: '20261103' });
  // 00:30 and 01:30 after "noon minus 12 h" of 2026-11-01 are both 01:30 on the wall clock
  toronto['stop_times.txt'] = 'trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,00:30:00,00:30:00,S1,1\nT1,01:30:00,01:30:00,S2,2\n';
  const feeds = [
    { id: 'toronto', dir: await writeFeedDir(path.join(root, 'toronto'), toronto) },
    { id: 'vancouver', dir: await writeFeedDir(path.join(root, 'vancouver'), smallFeed({ timezone: 'America/Vancouver', startDate: '20260301', endDate: '20261130' })) },
    { id: 'blanc', dir: await writeFeedDir(path.join(root, 'blanc'), smallFeed({ timezone: 'America/Blanc-Sablon', startDate: '20260301', endDate: '20260331' })) },
  ];
  const spec = await prepareTransitRelease(
    feeds.map((f) => ({ id: f.id, source: f.dir, licence: 'test', attribution: 'test' })),
    { workDir: path.join(root, 'work'), fetchTimeoutMs: 5000, maxDownloadBytes: 1024 * 1024 },
  );
  const staging = await mkdtemp(path.join(root, 'staging-'));
  await spec.build(staging);
  db = await openTransit(path.join(staging, TRANSIT_DATABASE_FILE));
});

afterAll(async () => {
  db?.close();
  await rm(root, { recursive: true, force: true });
});

async function instant(feedId: string, date: string, secs: number): Promise<string> {
  const rows = await db.query<{ base_epoch: bigint }>(`SELECT base_epoch FROM service_days WHERE feed_id = '${feedId}' AND service_id = 'DAILY' AND service_date = DATE '${date}'`);
  expect(rows, `${feedId} ${date}`).toHaveLength(1);
  return new Date((Number(rows[0]!.base_epoch) + secs) * 1000).toISOString();
}

describe('service_days base_epoch', () => {
  it('pins America/Vancouver 2026-11-15 08:00 local at 15:00Z (UTC-7 after 2026-03-08)', async () => {
    const [row] = await db.query<{ departure_secs: number }>(`SELECT departure_secs FROM stop_times WHERE stop_id = 'svc:transit:stop:vancouver:S1'`);
    expect(row!.departure_secs).toBe(8 * 3600);
    expect(await instant('vancouver', '2026-11-15', row!.departure_secs)).toBe('2026-11-15T15:00:00.000Z');
    expect(await instant('vancouver', '2026-03-07', 8 * 3600)).toBe('2026-03-07T16:00:00.000Z');
    expect(await instant('vancouver', '2026-03-09', 8 * 3600)).toBe('2026-03-09T15:00:00.000Z');
  });

  it('uses noon minus 12 h on the 2026-11-01 fall-back day in America/Toronto (01:30 happens twice)', async () => {
    // noon EST = 17:00Z, minus 12 h = 05:00Z, which is 01:00 EDT
    const [base] = await db.query<{ base_epoch: bigint }>(`SELECT base_epoch FROM service_days WHERE feed_id = 'toronto' AND service_date = DATE '2026-11-01'`);
    expect(base!.base_epoch).toBe(BigInt(Date.UTC(2026, 10, 1, 5, 0, 0) / 1000));
    expect(await instant('toronto', '2026-11-01', 30 * 60)).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT
    expect(await instant('toronto', '2026-11-01', 90 * 60)).toBe('2026-11-01T06:30:00.000Z'); // 01:30 EST
    expect(await instant('toronto', '2026-10-31', 0)).toBe('2026-10-31T04:00:00.000Z');
    expect(await instant('toronto', '2026-11-02', 0)).toBe('2026-11-02T05:00:00.000Z');
  });

  it('keeps America/Blanc-Sablon at UTC-4 across the 2026-03-08 change', async () => {
    expect(await instant('blanc', '2026-03-07', 8 * 3600)).toBe('2026-03-07T12:00:00.000Z');
    expect(await instant('blanc', '2026-03-08', 8 * 3600)).toBe('2026-03-08T12:00:00.000Z');
    expect(await instant('blanc', '2026-03-09', 8 * 3600)).toBe('2026-03-09T12:00:00.000Z');
  });

  it('has one row per calendar day within the service window', async () => {
    const rows = await db.query<{ feed_id: string; n: bigint; first: string; last: string }>(`
      SELECT feed_id, count(*) AS n, strftime(min(service_date), '%Y-%m-%d') AS first, strftime(max(service_date), '%Y-%m-%d') AS last
      FROM service_days GROUP BY feed_id ORDER BY feed_id`);
    expect(rows.map((r) => ({ ...r, n: Number(r.n) }))).toEqual([
      { feed_id: 'blanc', n: 31, first: '2026-03-01', last: '2026-03-31' },
      { feed_id: 'toronto', n: 5, first: '2026-10-30', last: '2026-11-03' },
      { feed_id: 'vancouver', n: 275, first: '2026-03-01', last: '2026-11-30' },
    ]);
  });
});

describe('calendar spans', () => {
  it('expands a calendar row to at most 50 years of dates and says so in the coverage warnings', async () => {
    const forever = smallFeed({ startDate: '20260101', endDate: '99991231' });
    forever['calendar.txt'] += 'LONG,1,1,1,1,1,1,1,20240101,20731231\n'; // just under 50 years: kept whole
    forever['trips.txt'] += 'R1,LONG,T2,Second\n';
    forever['stop_times.txt'] += 'T2,09:00:00,09:00:00,S1,1\nT2,09:10:00,09:10:00,S2,2\n';
    const spec = await prepareTransitRelease(
      [{ id: 'forever', source: await writeFeedDir(path.join(root, 'forever'), forever), licence: 'test', attribution: 'test' }],
      { workDir: path.join(root, 'work-forever'), fetchTimeoutMs: 5000, maxDownloadBytes: 1024 * 1024 },
    );
    const staging = await mkdtemp(path.join(root, 'staging-'));
    const outcome = await spec.build(staging);
    expect(outcome.coverage?.[0]).toMatchObject({
      feed_id: 'forever', status: 'included', first_service_date: '2024-01-01', last_service_date: '2075-12-31',
      warnings: ['calendar.txt: 1 service(s) run more than 50 years (e.g. "DAILY" until 99991231); only the first 50 years from their start_date are served'],
    });
    const capped = await openTransit(path.join(staging, TRANSIT_DATABASE_FILE));
    try {
      const rows = await capped.query<{ service_id: string; n: bigint; first: string; last: string }>(`
        SELECT service_id, count(*) AS n, strftime(min(service_date), '%Y-%m-%d') AS first, strftime(max(service_date), '%Y-%m-%d') AS last
        FROM service_days GROUP BY service_id ORDER BY service_id`);
      // 2026-01-01 .. 2075-12-31 (12 leap days) and 2024-01-01 .. 2073-12-31 (13): 50 years each
      expect(rows.map((r) => ({ ...r, n: Number(r.n) }))).toEqual([
        { service_id: 'DAILY', n: 50 * 365 + 12, first: '2026-01-01', last: '2075-12-31' },
        { service_id: 'LONG', n: 50 * 365 + 13, first: '2024-01-01', last: '2073-12-31' },
      ]);
    } finally {
      capped.close();
    }
  });
});

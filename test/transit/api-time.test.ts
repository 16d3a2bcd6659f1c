import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { writeFeedDir, type FeedTexts } from '../support/gtfs-fixtures.ts';
import { feedSpec, stopPath, TransitApiStack } from '../support/transit-api-stack.ts';

/*
 * Time edge cases through the whole API, on small feeds this test writes: the 2026-11-01
 * fall-back night in Toronto (01:30 happens twice), British Columbia's permanent UTC−7 from
 * 2026-03-08 (Node's own Intl still says UTC−8), stop times without a time, and the 503 while no
 * transit release is enabled.
 */

/** Opaque source ids can be long; URL-encoded as a path segment this one is ~190 characters. */
const LONG_STOP_ID = `urn:stop:${'0123456789'.repeat(14)}:platform/A`;

const CALENDAR_HEADER = 'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date';

/** America/Toronto. 2026-10-31 is a Saturday (EDT), 2026-11-01 the Sunday clocks fall back. */
function fallBackFeed(): FeedTexts {
  return {
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nFB,Fall Back Transit,https://example.org,America/Toronto\n',
    'stops.txt': `stop_id,stop_name,stop_lat,stop_lon\nS1,First,43.65,-79.38\nS2,Second,43.66,-79.39\nS3,Third,43.67,-79.40\n${LONG_STOP_ID},Long Id,43.68,-79.41\n`,
    'routes.txt': 'route_id,agency_id,route_short_name,route_type\nR1,FB,1,3\n',
    'trips.txt': [
      'route_id,service_id,trip_id,trip_headsign',
      'R1,OCT31,T_2530,Second', // 25:30 of the Saturday: 01:30 EDT, the first 01:30
      'R1,OCT31,T_0130_SAT,Second',
      'R1,NOV1,T_0030,Second', // 00:30 after "noon minus 12 h" of the Sunday = 01:30 EDT as well
      'R1,NOV1,T_0130,Second', // 01:30 after noon minus 12 h: 01:30 EST, the second 01:30
      'R1,NOV1,T_2530_SUN,Second',
      'R1,NOV1,T_MID,Third',
    ].join('\n') + '\n',
    'stop_times.txt': [
      'trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign',
      'T_2530,25:30:00,25:30:00,S1,1,',
      'T_2530,25:50:00,25:50:00,S2,2,',
      'T_0130_SAT,01:30:00,01:30:00,S1,1,',
      'T_0130_SAT,01:50:00,01:50:00,S2,2,',
      'T_0030,00:30:00,00:30:00,S1,1,Via Second',
      'T_0030,00:50:00,00:50:00,S2,2,',
      'T_0130,01:25:00,01:30:00,S1,1,',
      'T_0130,01:50:00,01:50:00,S2,2,',
      'T_2530_SUN,25:30:00,25:30:00,S1,1,',
      'T_2530_SUN,25:50:00,25:50:00,S2,2,',
      'T_MID,01:00:00,01:00:00,S2,1,',
      'T_MID,,,S1,2,', // not a timepoint: no departure at S1
      'T_MID,01:40:00,01:40:00,S3,3,',
    ].join('\n') + '\n',
    'calendar.txt': `${CALENDAR_HEADER}\nOCT31,0,0,0,0,0,1,0,20261031,20261031\nNOV1,0,0,0,0,0,0,1,20261101,20261101\n`,
  };
}

/** America/Vancouver: UTC−8 in January 2026, UTC−7 all year after 2026-03-08 (BC's change). */
function vancouverFeed(): FeedTexts {
  return {
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nVAN,Vancouver Test,https://example.org,America/Vancouver\n',
    'stops.txt': 'stop_id,stop_name,stop_lat,stop_lon\nV1,Waterfront,49.2856,-123.1115\nV2,Lonsdale,49.3096,-123.0830\n',
    'routes.txt': 'route_id,agency_id,route_short_name,route_type\nSEA,VAN,SB,4\n',
    'trips.txt': 'route_id,service_id,trip_id,trip_headsign\nSEA,DAYS,T0800,Lonsdale\n',
    'stop_times.txt': 'trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT0800,08:00:00,08:00:00,V1,1\nT0800,08:15:00,08:15:00,V2,2\n',
    'calendar.txt': `${CALENDAR_HEADER}\nDAYS,0,0,0,0,0,0,0,20260101,20261231\n`,
    'calendar_dates.txt': 'service_id,date,exception_type\nDAYS,20260115,1\nDAYS,20260715,1\nDAYS,20261115,1\n',
  };
}

let stack: TransitApiStack;
let feedsDir: string;
let release: RegisteredRelease;

beforeAll(async () => {
  stack = await TransitApiStack.create('transit_api_time');
  feedsDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-transit-api-time-'));
  await stack.start();
}, 120_000);

afterAll(async () => {
  await stack?.close();
  if (feedsDir) await rm(feedsDir, { recursive: true, force: true });
});

describe('before any transit release is enabled', () => {
  it.each(['/transit/agencies', '/transit/stops?near=-79.38,43.65', '/transit/stops/x', '/transit/routes/x', '/transit/stops/x/departures', '/coverage.json'])(
    '%s answers 503, retryable, Retry-After 5',
    async (url) => {
      const res = await stack.get(url);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'transit data temporarily unavailable', code: 'service_unavailable', retryable: true });
      expect(res.headers['retry-after']).toBe('5');
    },
  );

  it('still reports a malformed parameter as 400', async () => {
    const res = await stack.get('/transit/stops?near=x');
    expect(res.status).toBe(400);
  });
});

describe('once a release is enabled', () => {
  beforeAll(async () => {
    const fb = await writeFeedDir(path.join(feedsDir, 'fallback'), fallBackFeed());
    const van = await writeFeedDir(path.join(feedsDir, 'vancouver'), vancouverFeed());
    release = await stack.publishAndEnable([
      { ...feedSpec('fb', 'unused.zip'), source: fb },
      { ...feedSpec('van', 'unused.zip'), source: van },
    ]);
    await stack.waitForRelease(release.id);
  }, 120_000);

  const departures = async (stop: string, query: string) => {
    const res = await stack.get(`${stopPath(stop, '/departures')}?${query}`);
    expect(res.status).toBe(200);
    return res.body.data as { trip_id: string; departure: string; arrival: string; headsign: string; stop_id: string }[];
  };
  const brief = (list: { trip_id: string; departure: string }[]) => list.map((d) => [d.trip_id.split(':').pop(), d.departure]);

  it('serves the newly enabled release without a restart', async () => {
    const res = await stack.get('/transit/agencies');
    expect(res.status).toBe(200);
    expect(res.body.meta.data_version).toBe(release.id);
  });

  it('resolves both 01:30s of the Toronto fall-back night', async () => {
    // 2026-11-01: noon EST is 17:00Z, so "noon minus 12 h" is 05:00Z (01:00 EDT).
    const list = await departures('svc:transit:stop:fb:S1', 'at=2026-11-01T05:00:00Z&window=120');
    expect(brief(list)).toEqual([
      ['T_0030', '2026-11-01T05:30:00Z'], // 01:30 EDT
      ['T_2530', '2026-11-01T05:30:00Z'], // 25:30 of Saturday, also 01:30 EDT; tie broken by trip id
      ['T_0130', '2026-11-01T06:30:00Z'], // 01:30 EST
    ]);
    expect(list[2]!.arrival).toBe('2026-11-01T06:25:00Z');
    expect(list[0]!.headsign).toBe('Via Second'); // stop_headsign wins over trip_headsign
    expect(list[1]!.headsign).toBe('Second');
    // the same instant written with the EDT offset, then one hour later with the EST offset
    expect(await departures('svc:transit:stop:fb:S1', 'at=2026-11-01T01:00:00-04:00&window=120')).toEqual(list);
    expect(brief(await departures('svc:transit:stop:fb:S1', 'at=2026-11-01T01:00:00-05:00&window=60'))).toEqual([['T_0130', '2026-11-01T06:30:00Z']]);
  });

  it('runs Saturday\'s trips past midnight and Sunday\'s 25:30 into Monday', async () => {
    expect(brief(await departures('svc:transit:stop:fb:S1', 'at=2026-10-31T05:00:00Z&window=60'))).toEqual([['T_0130_SAT', '2026-10-31T05:30:00Z']]);
    // Sunday's base is 05:00Z; + 25:30:00 = Monday 06:30Z (01:30 EST).
    expect(brief(await departures('svc:transit:stop:fb:S1', 'at=2026-11-02T06:00:00Z&window=60'))).toEqual([['T_2530_SUN', '2026-11-02T06:30:00Z']]);
  });

  it('skips stop times without a departure time', async () => {
    const s2 = await departures('svc:transit:stop:fb:S2', 'at=2026-11-01T05:00:00Z&window=240');
    expect(brief(s2)).toContainEqual(['T_MID', '2026-11-01T06:00:00Z']);
    const s1 = await departures('svc:transit:stop:fb:S1', 'at=2026-11-01T00:00:00Z&window=240&limit=200');
    expect(s1.map((d) => d.trip_id)).not.toContain('svc:transit:trip:fb:T_MID');
    const s3 = await departures('svc:transit:stop:fb:S3', 'at=2026-11-01T05:00:00Z&window=240');
    expect(brief(s3)).toEqual([['T_MID', '2026-11-01T06:40:00Z']]);
  });

  it('serves a stop whose encoded id is long, and the id with a slash in it', async () => {
    const id = `svc:transit:stop:fb:${LONG_STOP_ID}`;
    const res = await stack.get(stopPath(id));
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(id);
    expect((await stack.get(stopPath(id, '/departures'))).status).toBe(200);
  });

  it('pins America/Vancouver 2026-11-15T08:00 local = 15:00Z (permanent UTC−7)', async () => {
    expect(brief(await departures('svc:transit:stop:van:V1', 'at=2026-11-15T14:00:00Z&window=120'))).toEqual([['T0800', '2026-11-15T15:00:00Z']]);
    expect(brief(await departures('svc:transit:stop:van:V1', 'at=2026-07-15T14:00:00Z&window=120'))).toEqual([['T0800', '2026-07-15T15:00:00Z']]);
    // before the change: PST, UTC−8
    expect(brief(await departures('svc:transit:stop:van:V1', 'at=2026-01-15T15:00:00Z&window=120'))).toEqual([['T0800', '2026-01-15T16:00:00Z']]);
    // only dates of calendar_dates additions run
    expect(await departures('svc:transit:stop:van:V1', 'at=2026-11-16T14:00:00Z&window=120')).toEqual([]);
  });

  it('swaps to a newly enabled release', async () => {
    const van = path.join(feedsDir, 'vancouver');
    const next = await stack.publishAndEnable([{ ...feedSpec('van', 'unused.zip'), source: van }]);
    expect(next.id).not.toBe(release.id);
    await stack.waitForRelease(next.id);
    const agencies = await stack.get('/transit/agencies');
    expect(agencies.body.meta.data_version).toBe(next.id);
    expect(agencies.body.data.map((a: { id: string }) => a.id)).toEqual(['svc:transit:agency:van:VAN']);
    expect((await stack.get(stopPath('svc:transit:stop:fb:S1'))).status).toBe(404);
    expect((await stack.get('/coverage.json')).body.release_id).toBe(next.id);
  });
});

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parcelsOpener, type ParcelCorpus } from '../../engines/parcels/release.ts';
import { interiorPoint } from '../../ingest/parcels/interior-point.ts';
import { parseWktPolygon } from '../../ingest/parcels/wkt.ts';
import { enqueueIngest } from '../../jobs/enqueue.ts';
import { parcelsKind, type ParcelsPayload } from '../../jobs/kinds/parcels.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { getEnabledRelease, getRelease, listReleases } from '../../releases/registry.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';

const SAMPLE = repoPath('samples/parcels/parcels-abbotsford.csv');

let t: TestEnv;
let pool: Pool;
let redis: Redis;
let queue: Queue;
let workers: RunningWorkers;
let scratch: string;
let corpus: ParcelCorpus;

beforeAll(async () => {
  t = await createTestEnv('parcels_job');
  pool = createPool(t.config.databaseUrl);
  redis = createRedis(t.config.redisUrl);
  queue = openQueue(t.config, parcelsKind.kind, redis);
  workers = await startWorkers(t.config, { kinds: [parcelsKind], log: () => {} });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-parcels-job-'));
});

afterAll(async () => {
  await workers?.close();
  await queue?.close();
  redis?.disconnect();
  await pool?.end();
  await t?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function ingest(files: string[], enable: boolean) {
  const payload: ParcelsPayload = { ...(await parcelsKind.cli.toPayload([], { parcels: files })), enable };
  const { jobId } = await enqueueIngest(t.config, queue, parcelsKind, payload);
  return waitForJob(queue, jobId, () => {}, 100);
}

/** Whether a point is inside a polygon's outer ring and outside its holes (even-odd). */
function inside(point: [number, number], rings: number[][][]): boolean {
  let odd = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i] as [number, number];
      const [xj, yj] = ring[j] as [number, number];
      if ((yi > point[1]) !== (yj > point[1]) && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) odd = !odd;
    }
  }
  return odd;
}

describe('canmap ingest parcels, through the queue', () => {
  it('publishes and enables a release of the sample, counting Crown parcels without a PID', async () => {
    const outcome = await ingest([SAMPLE], true);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect((await getEnabledRelease(pool, 'parcels'))?.id).toBe(outcome.result.release);
    const release = (await getRelease(pool, outcome.result.release))!;
    expect(release.manifest.stats).toMatchObject({ rows: 30, parcels: 27, without_pid: 3, distinct_pids: 27 });
    expect(release.manifest.artifacts.map((a) => a.path)).toEqual(['parcels.duckdb']);
    corpus = await parcelsOpener.open(release.path, release.manifest);
    expect([corpus.releaseId, corpus.province]).toEqual([release.id, 'BC']);
  }, 60_000);

  it('fails a file with a bad PID or geometry, naming the row, and leaves no release', async () => {
    const lines = (await readFile(SAMPLE, 'utf8')).split('\n');
    const before = await listReleases(pool, 'parcels');
    const badPid = path.join(scratch, 'bad-pid.csv');
    await writeFile(badPid, [...lines.slice(0, 4), lines[4]!.replace('009-123-111', '009-123-1111'), ...lines.slice(5)].join('\n'));
    expect(await ingest([badPid], true)).toEqual({
      ok: false,
      reason: `parcels file ${badPid} (ParcelMap BC form), data row 4: PID 009-123-1111 has 10 digits; a BC PID has nine, such as 012-345-678`,
    });
    const badGeometry = path.join(scratch, 'bad-geometry.csv');
    await writeFile(badGeometry, [...lines.slice(0, 2), lines[2]!.replace('POLYGON ((-122.197258', 'POLYGON ((-222.197258'), ...lines.slice(3)].join('\n'));
    const outcome = await ingest([badGeometry], true);
    expect(outcome.ok === false && outcome.reason).toMatch(/data row 2: geometry: a polygon ring must end where it starts/);
    expect(await listReleases(pool, 'parcels')).toEqual(before);
    expect(await readdir(path.join(t.config.releasesDir, 'parcels'))).toHaveLength(1);
    expect((await readdir(t.config.releasesDir)).filter((name) => name.includes('parcels-'))).toEqual([]);
  }, 60_000);
});

describe('the parcel corpus of the sample release', () => {
  it('finds a parcel by its nine digits, with its polygon, bbox and a point inside', () => {
    const [parcel, ...more] = corpus.byPid('009123000');
    expect(more).toEqual([]);
    expect(parcel).toMatchObject({
      id: 'svc:parcels:bc:5200100', pid: '009-123-000', name: 'Lot 1 Section 10 Township 16 NWD (sample)', planNumber: 'NWP1200',
      municipality: 'City of Abbotsford', regionalDistrict: 'Fraser Valley Regional District', source: 'parcelmap-bc', sourceId: '5200100',
      geometry: { type: 'Polygon' },
    });
    expect(parcel!.bbox).toEqual([-122.2, 49.06, -122.197313, 49.063525]);
    expect(corpus.byPid('009-123-000')).toEqual([parcel]);
    expect(corpus.byPid('000000000')).toEqual([]);
  });

  it('puts the point inside a parcel with a hole and on a piece of a MultiPolygon', () => {
    const holed = corpus.byPid('009123259')[0]!;
    expect(holed.geometry.type).toBe('Polygon');
    expect(inside([holed.lng, holed.lat], (holed.geometry as GeoJSON.Polygon).coordinates)).toBe(true);
    const split = corpus.byPid(String(9123000 + 13 * 37).padStart(9, '0'))[0]!;
    expect(split.geometry.type).toBe('MultiPolygon');
    expect((split.geometry as GeoJSON.MultiPolygon).coordinates.some((rings) => inside([split.lng, split.lat], rings))).toBe(true);
  });
});

describe('the WKT reader and the interior point', () => {
  it('reads POLYGON and MULTIPOLYGON and refuses other text', () => {
    expect(parseWktPolygon('POLYGON((0 0, 1 0, 1 1, 0 0))')).toEqual({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] });
    expect(parseWktPolygon('multipolygon (((0 0,1 0,1 1,0 0)),((2 2,3 2,3 3,2 2)))').type).toBe('MultiPolygon');
    expect(() => parseWktPolygon('POINT (1 2)')).toThrow('POINT is not a POLYGON or MULTIPOLYGON');
    expect(() => parseWktPolygon('POLYGON ((0 0, 1 0, 1 1))')).toThrow('at least four points');
  });

  it('keeps out of a hole that covers the middle of the box', () => {
    const geometry = parseWktPolygon('POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 8, 8 8, 8 2, 2 2))');
    const point = interiorPoint(geometry)!;
    expect(inside(point, (geometry as GeoJSON.Polygon).coordinates)).toBe(true);
  });
});

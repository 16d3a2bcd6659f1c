import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { energyOpener, type EnergyCorpus } from '../../engines/energy/release.ts';
import { UwiParseError } from '../../engines/energy/uwi.ts';
import { parseDls } from '../../engines/survey/dls.ts';
import { parseNts } from '../../engines/survey/nts.ts';
import { readFacilityFile } from '../../ingest/energy/facilities.ts';
import { openDuckDb } from '../../lib/duckdb.ts';
import { enqueueIngest } from '../../jobs/enqueue.ts';
import { energyKind, type EnergyPayload } from '../../jobs/kinds/energy.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { getEnabledRelease, getRelease, listReleases } from '../../releases/registry.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';

const WELLS = ['wells-ab-st37.csv', 'wells-sk-st37.csv', 'wells-bc.csv'].map((f) => repoPath('samples/energy', f));
const FACILITIES = repoPath('samples/energy/facilities-ab-st102.csv');

let t: TestEnv;
let pool: Pool;
let redis: Redis;
let queue: Queue;
let workers: RunningWorkers;
let scratch: string;
let corpus: EnergyCorpus;

beforeAll(async () => {
  t = await createTestEnv('energy_job');
  pool = createPool(t.config.databaseUrl);
  redis = createRedis(t.config.redisUrl);
  queue = openQueue(t.config, energyKind.kind, redis);
  workers = await startWorkers(t.config, { kinds: [energyKind], log: () => {} });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-energy-job-'));
});

afterAll(async () => {
  await workers?.close();
  await queue?.close();
  redis?.disconnect();
  await pool?.end();
  await t?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function ingest(options: Record<string, unknown>, enable: boolean) {
  const payload: EnergyPayload = { ...(await energyKind.cli.toPayload([], options)), enable };
  const { jobId } = await enqueueIngest(t.config, queue, energyKind, payload);
  return waitForJob(queue, jobId, () => {}, 100);
}

describe('canmap ingest energy, through the queue', () => {
  it('publishes and enables a release of the samples, which the opener serves', async () => {
    const outcome = await ingest({ wells: WELLS, facilities: [FACILITIES] }, true);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result).toMatchObject({ reused: false, enabled: true });
    expect((await getEnabledRelease(pool, 'energy'))?.id).toBe(outcome.result.release);
    const release = (await getRelease(pool, outcome.result.release))!;
    expect(release.manifest.stats).toMatchObject({
      wells: 61, wells_by_province: { AB: 40, SK: 10, BC: 11 }, wells_by_system: { DLS: 54, NTS: 7 }, facilities: 15,
    });
    expect(release.manifest.artifacts.map((a) => a.path)).toEqual(['energy.duckdb']);
    expect(release.manifest.inputs.every((i) => i.attribution?.includes('written by this project'))).toBe(true);
    corpus = await energyOpener.open(release.path, release.manifest);
    expect(corpus.releaseId).toBe(release.id);
  }, 60_000);

  it('reuses the release for the same files in another order', async () => {
    const outcome = await ingest({ wells: [...WELLS].reverse(), facilities: [FACILITIES] }, false);
    expect(outcome.ok && outcome.result.reused).toBe(true);
  }, 60_000);

  it('fails a file with a bad UWI once, naming the row and the part, and leaves no release', async () => {
    const text = await readFile(WELLS[0]!, 'utf8');
    const bad = path.join(scratch, 'wells-bad.csv');
    await writeFile(bad, text.replace('100/01-12-049-08W5/00', '100/01-37-049-08W5/00'));
    const before = await listReleases(pool, 'energy');
    const outcome = await ingest({ wells: [bad] }, true);
    expect(outcome).toEqual({
      ok: false,
      reason: `wells file ${bad} (AER ST37 list of wells form), data row 3: UWI "100/01-37-049-08W5/00" (section): UWI section 37 is out of range (1 to 36)`,
    });
    expect(await listReleases(pool, 'energy')).toEqual(before);
    expect(await readdir(path.join(t.config.releasesDir, 'energy'))).toHaveLength(1);
    expect((await readdir(t.config.releasesDir)).filter((name) => name.includes('energy-'))).toEqual([]);
  }, 60_000);

  it('refuses a header of neither well form, and a facility with neither coordinates nor a legal location it can place', async () => {
    const odd = path.join(scratch, 'odd.csv');
    await writeFile(odd, 'Name,Lat,Lon\nA,50,-110\n');
    const outcome = await ingest({ wells: [odd] }, false);
    expect(outcome.ok === false && outcome.reason).toContain('is in neither well form');
    const facilities = path.join(scratch, 'facilities.csv');
    await writeFile(facilities, 'Facility ID,Facility Name,Operator Name,Facility Location,Latitude,Longitude\nABBT0000001,X,Y,06-37-048-07W5,,\n');
    expect(await ingest({ facilities: [facilities] }, false)).toEqual({
      ok: false,
      reason: `facilities file ${facilities} (AER ST102 form), data row 1: no latitude/longitude, and legal location "06-37-048-07W5" is neither a DLS description (section 37 is out of range (1 to 36)) nor an NTS reference`,
    });
  }, 60_000);

  it('places a facility given only its legal location (as ST102 publishes it) at the centre of that cell', async () => {
    const facilities = path.join(scratch, 'located.csv');
    await writeFile(facilities, 'Facility ID,Facility Name,Operator Name,Facility Location\nABBT0000002,X,Y,06-32-048-07W5\nBCGP0000003,Z,Y,B-001-L/093-F-10\n');
    const spill = await mkdtemp(path.join(os.tmpdir(), 'canmap-facility-test-'));
    const db = await openDuckDb(':memory:', { memoryLimit: '256MB', tempDirectory: spill, threads: 1 });
    try {
      const [lsd, unit] = (await readFacilityFile(db.connection, facilities)).facilities;
      expect([lsd!.lng, lsd!.lat]).toEqual(parseDls('06-32-048-07W5').centre);
      const [w, s, e, n] = parseNts('B-001-L/093-F-10').bounds;
      expect([unit!.lng, unit!.lat]).toEqual([(w + e) / 2, (s + n) / 2]);
    } finally {
      db.close();
      await rm(spill, { recursive: true, force: true });
    }
  });
});

describe('the energy corpus of the sample release', () => {
  it('finds wells by compact UWI, with canonical UWIs, provinces and sources', () => {
    expect(corpus.wellsByUwi('100143608517W600')).toEqual([expect.objectContaining({
      kind: 'well', uwi: '100/14-36-085-17W6/00', compact: '100143608517W600', province: 'BC', licence: '31001', source: 'bcer-wells', sourceId: '31001',
    })]);
    expect(corpus.wellsByUwi('200d096h094a1500')[0]).toMatchObject({ uwi: '200/D-096-H/094-A-15/00', province: 'BC' });
    expect(corpus.wellsByUwi('1AA072209208W400')[0]).toMatchObject({ name: 'SUNCOR LEWIS 7-22-92-8', province: 'AB', source: 'aer-st37' });
    expect(corpus.wellsByUwi('141010200304W200')[0]).toMatchObject({ province: 'SK' });
    expect(corpus.wellsByUwi('100010100101W400')).toEqual([]);
    const lewis = corpus.wellsByUwi('1AA072209208W400')[0]!;
    expect(lewis.lat).toBeCloseTo(56.98, 1);
    expect(lewis.lng).toBeCloseTo(-111.22, 1);
  });

  it('searches exact UWI, licence and facility id first, then names by tokens', () => {
    const layers = ['well', 'facility'] as const;
    expect(corpus.search('100/14-36-085-17W6/00', { layers, limit: 5 }).map((r) => [r.id, r.score])).toEqual([
      ['svc:energy:well:bcer-wells:100143608517W600', 1],
    ]);
    expect(corpus.search('abbt 0100001', { layers, limit: 5 })[0]).toMatchObject({ kind: 'facility', facilityId: 'ABBT0100001', score: 1 });
    expect(corpus.search('4000103', { layers, limit: 5 })[0]).toMatchObject({ uwi: '100/01-12-049-08W5/00', score: 0.95 });
    const pembina = corpus.search('sample pembina', { layers, limit: 10 });
    expect(pembina.map((r) => r.name)).toEqual(['SAMPLE PEMBINA 6-32 BATTERY', 'SAMPLE PEMBINA 1-12-49-8', 'SAMPLE PEMBINA 6-32-48-7', 'SAMPLE PEMBINA 6-32-48-7']);
    expect(pembina.every((r, i) => i === 0 || r.score <= pembina[i - 1]!.score)).toBe(true);
    expect(corpus.search('suncor lew', { layers, limit: 5 }).map((r) => r.name)).toEqual(['SUNCOR LEWIS 7-22-92-8']);
    expect(corpus.search('SÜNCOR', { layers, limit: 5 }).map((r) => r.name)).toEqual(['SUNCOR LEWIS 7-22-92-8']);
    expect(corpus.search('pemb sample', { layers, limit: 5 })).toEqual([]);
  });

  it('filters by layer, region and bbox, and refuses a bad UWI or region', () => {
    expect(corpus.search('sample pembina', { layers: ['facility'], limit: 10 }).map((r) => r.kind)).toEqual(['facility']);
    expect(corpus.search('sample', { layers: ['well'], limit: 100, region: 'Saskatchewan' })).toHaveLength(10);
    expect(corpus.search('sample', { layers: ['well', 'facility'], limit: 100, region: 'bc' }).every((r) => r.province === 'BC')).toBe(true);
    const inBox = corpus.search('sample', { layers: ['well'], limit: 100, bbox: [-115.5, 53, -114.5, 53.5] });
    expect(inBox.length).toBeGreaterThan(3);
    expect(inBox.length).toBeLessThan(10);
    expect(inBox.every((r) => r.lng >= -115.5 && r.lng <= -114.5 && r.lat >= 53 && r.lat <= 53.5)).toBe(true);
    expect(inBox.map((r) => r.name)).toContain('SAMPLE PEMBINA 6-32-48-7');
    expect(corpus.search('sample', { layers: ['well'], limit: 3 })).toHaveLength(3);
    expect(() => corpus.search('100/14-37-085-17W6/00', { layers: ['well'], limit: 5 })).toThrow(UwiParseError);
    expect(() => corpus.search('x', { layers: ['well'], limit: 5, region: 'Atlantis' })).toThrow('unknown region "Atlantis"');
  });
});

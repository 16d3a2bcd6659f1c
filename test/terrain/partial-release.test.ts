import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hgtBytes } from '../../engines/terrain/dem-file.ts';
import { HGT_VOID } from '../../engines/terrain/hgt.ts';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { tileAt } from './dem-fixture.ts';
import { ApiStack } from '../support/api-stack.ts';
import { prepareTerrainRelease } from '../../ingest/terrain/release.ts';

/**
 * A DEM of sea only: a 3″ tile N10E010 void but for a 0 m patch in its south-west corner. It has
 * terrain tiles but no contour line (the coast is not a contour), so the release has no contour
 * archive.
 */
let stack: ApiStack;
let dir: string;
let release: RegisteredRelease;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-terrain-sea-'));
  const size = 1201;
  const samples = new Int16Array(size * size).fill(HGT_VOID);
  for (let row = size - 120; row < size; row++) samples.fill(0, row * size, row * size + 120);
  const file = path.join(dir, 'N10E010.hgt.gz');
  await writeFile(file, gzipSync(hgtBytes({ name: 'N10E010', south: 10, west: 10, size, samples })));
  stack = await ApiStack.create('terrain_sea');
  release = await stack.publish(() => prepareTerrainRelease([file]));
  await stack.start();
  await stack.enable(release);
}, 180_000);

afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a terrain release without contours', () => {
  it('serves its terrain tiles and answers the contour routes with the JSON 404 of an unconfigured archive', async () => {
    // below z4 no pixel centre of a 256 px tile falls on the 0.1° patch: those tiles have no data
    expect(release.manifest.stats).toMatchObject({ contours: null, terrarium: { minzoom: 4, maxzoom: 12 } });
    expect(release.manifest.artifacts.map((a) => a.path)).toEqual(['dem/N10E010.hgt.gz', 'terrain.json', 'terrarium.pmtiles']);
    const { x, y } = tileAt(10.05, 10.05, 12);
    const png = await stack.getBytes(`/terrain/4/12/${x}/${y}.png`);
    expect([png.status, png.headers['content-type']]).toEqual([200, 'image/png']);
    for (const url of [`/contours/4/12/${x}/${y}`, `/contours/12/${x}/${y}`]) {
      expect(await stack.get(url)).toMatchObject({ status: 404, body: { error: 'contour archive not configured' } });
    }
    expect(await stack.get('/elevation?at=10.05,10.05')).toMatchObject({ status: 200, body: { elevation: 0 } });
    expect(await stack.get('/elevation?at=10.5,10.5')).toMatchObject({ status: 200, body: { elevation: null } });
  });

  it('gives the outdoor style svc_dem but not svc_contours', async () => {
    const { body } = await stack.get('/styles/outdoor.json');
    expect(Object.keys(body.sources).sort()).toEqual(['svc', 'svc_dem']);
    expect(body.layers.some((l: { source?: string }) => l.source === 'svc_contours')).toBe(false);
  });
});

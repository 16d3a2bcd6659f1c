import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileToArchive, TilesTooLargeError, type TileBudget, type TilerFeature } from '../../engines/tiles/tiler.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';
import { layerFeatures, openArchive, project } from './read-archive.ts';

/*
 * The tiler's limits for uploads (issue 28): a tile over the byte cap simplified harder before its
 * features are dropped (`budget.coarsen`), and a cap on the bytes of all tiles (`maxTileBytes`)
 * that stops the tiling with its scratch files removed.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-tile-limits-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const Z = 10;
const [TX, TY] = project(Z, -75.7, 45.4);
const lon = (fx: number) => ((TX + fx) / 2 ** Z) * 360 - 180;
const lat = (fy: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * (TY + fy)) / 2 ** Z))) * 180) / Math.PI;

/** One line of 60,000 random vertices inside the z10 tile: about 240 KB of tile compressed. */
function scribble(): TilerFeature {
  const next = random(9);
  const coordinates = Array.from({ length: 60_000 }, () => [lon(0.1 + next() * 0.8), lat(0.1 + next() * 0.8)]);
  return { type: 'Feature', id: 1, properties: { name: 'scribble' }, geometry: { type: 'LineString', coordinates } };
}

async function tile(name: string, budget: TileBudget) {
  const file = path.join(dir, `${name}.pmtiles`);
  // Zoom 10 simplifies (tolerance 3), so vertices carry the ranks simplifying harder reads.
  // Points beside it keep a tile in the archive whatever happens to the line.
  const points = Array.from({ length: 20 }, (_, i): TilerFeature => ({ type: 'Feature', properties: { name: `point ${i}` }, geometry: { type: 'Point', coordinates: [lon(0.3 + i / 50), lat(0.5)] } }));
  const report = await tileToArchive({ layers: [{ spec: { id: name, minZoom: Z, maxZoom: Z + 1 }, features: [scribble(), ...points] }], archivePath: file, workDir: dir, budget });
  const reader = openArchive(file);
  try {
    const inTile = layerFeatures(await reader.tile(Z, TX, TY), name);
    const features = inTile.filter((f) => f.properties.name === 'scribble');
    return { report, features, all: inTile.length, bytes: (await reader.bytes(Z, TX, TY))?.length ?? 0 };
  } finally {
    await reader.close();
  }
}

describe('tile limits', () => {
  it('drops the one feature of a tile over the byte cap by default', async () => {
    const { report, features } = await tile('dropped', { maxBytes: 50_000 });
    expect(features).toHaveLength(0);
    expect(report.dropped.find((d) => d.zoom === Z)).toMatchObject({ tilesOverBudget: 1 });
  });

  it('with coarsen, simplifies the feature harder until the tile fits instead', async () => {
    const { report, features, all, bytes } = await tile('coarsened', { maxBytes: 50_000, coarsen: 1024 });
    expect(features).toHaveLength(1);
    expect(features[0]!.properties.name).toBe('scribble');
    expect(all).toBe(21);
    expect(bytes).toBeLessThanOrEqual(50_000);
    expect(report.dropped.filter((d) => d.zoom === Z)).toEqual([]);
  });

  it.each([
    ['on one thread', {}],
    ['on three threads, from partition files', { threads: 2, inMemoryBytes: 1 << 20 }],
  ])('stops with TilesTooLargeError past maxTileBytes %s, leaving no scratch or archive file', async (_name, threading) => {
    const out = await mkdtemp(path.join(dir, 'capped-'));
    const archivePath = path.join(out, 'capped.pmtiles');
    await expect(tileToArchive({
      layers: [{ spec: { id: 'capped', minZoom: 0, maxZoom: 12 }, features: [scribble()] }], archivePath, workDir: out, maxTileBytes: 100_000, ...threading,
    })).rejects.toBeInstanceOf(TilesTooLargeError);
    expect(await readdir(out)).toEqual([]);
  });
});

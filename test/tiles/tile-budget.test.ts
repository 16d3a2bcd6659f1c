import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileToArchive, type TileBudget, type TilerFeature } from '../../engines/tiles/tiler.ts';
import { layerFeatures, openArchive, project } from './read-archive.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-budget-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// One z10 tile over Ottawa; everything below sits well inside it (no buffer copies in neighbours).
const Z = 10;
const [TX, TY] = project(Z, -75.7, 45.4);
const tileLon = (x: number) => (x / 2 ** Z) * 360 - 180;
const tileLat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** Z))) * 180) / Math.PI;
/** A lon/lat at fraction (fx, fy) across the tile. */
const at = (fx: number, fy: number): [number, number] => [tileLon(TX + fx), tileLat(TY + fy)];

/** 300 squares on a 20×15 grid, square i (id i + 1) with a side of 40 + 2i metres: larger ids are larger. */
function squares(fatProperty = false): TilerFeature[] {
  const next = random(5);
  return Array.from({ length: 300 }, (_, i) => {
    const [lon, lat] = at(0.1 + (i % 20) * 0.04, 0.1 + Math.floor(i / 20) * 0.05);
    const half = (40 + 2 * i) / 2 / 111_320;
    const dLon = half / Math.cos((lat * Math.PI) / 180);
    const noise = fatProperty ? { noise: Array.from({ length: 300 }, () => Math.floor(next() * 36).toString(36)).join('') } : {};
    return {
      type: 'Feature', id: i + 1, properties: { i, ...noise },
      geometry: { type: 'Polygon', coordinates: [[[lon - dLon, lat - half], [lon + dLon, lat - half], [lon + dLon, lat + half], [lon - dLon, lat + half], [lon - dLon, lat - half]]] },
    };
  });
}

async function tile(name: string, features: TilerFeature[], budget?: TileBudget) {
  const file = path.join(dir, `${name}.pmtiles`);
  const report = await tileToArchive({
    layers: [{ spec: { id: name, minZoom: Z, maxZoom: Z }, features }], archivePath: file, workDir: dir, ...(budget ? { budget } : {}),
  });
  const reader = openArchive(file);
  try {
    const raw = await reader.bytes(Z, TX, TY);
    const ids = layerFeatures(await reader.tile(Z, TX, TY), name).map((f) => Number(f.id));
    return { report, ids, gzipBytes: raw ? gzipSync(raw).length : 0 };
  } finally {
    await reader.close();
  }
}

describe('tile budget', () => {
  it('under budget: nothing is dropped and nothing is reported', async () => {
    const { report, ids } = await tile('roomy', squares());
    expect(ids).toHaveLength(300);
    expect(report.dropped).toEqual([]);
  });

  it('over the feature cap: the smallest polygons go first, the exact count reported', async () => {
    const { report, ids } = await tile('crowded', squares(), { maxFeatures: 100 });
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => 201 + i));
    expect(report.dropped).toEqual([{ zoom: Z, tilesOverBudget: 1, featuresDropped: 200 }]);
    expect(report.zooms).toEqual([{ zoom: Z, tiles: 1, features: 100 }]);
  });

  it('over the byte cap: encoded again, smallest first, until the gzip tile fits', async () => {
    const { report, ids, gzipBytes } = await tile('heavy', squares(true), { maxBytes: 20_000 });
    const kept = ids.length;
    expect(kept).toBeGreaterThan(20);
    expect(kept).toBeLessThan(300);
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: kept }, (_, i) => 301 - kept + i));
    expect(gzipBytes).toBeLessThanOrEqual(20_000);
    expect(report.dropped).toEqual([{ zoom: Z, tilesOverBudget: 1, featuresDropped: 300 - kept, bytesBefore: expect.any(Number) }]);
    expect(report.dropped[0]!.bytesBefore).toBeGreaterThan(20_000);
  });

  it('a feature alone over the byte cap: its tile is left out, and that is reported too', async () => {
    const next = random(11);
    const [big, small] = squares().slice(0, 2);
    big!.properties = { text: Array.from({ length: 6000 }, () => Math.floor(next() * 36).toString(36)).join('') };
    const [x, y] = at(0.5, 0.5);
    const elsewhere = { ...small!, geometry: { type: 'Point', coordinates: [x + 3, y] } } as TilerFeature;
    const { report, ids } = await tile('oversized', [big!, elsewhere], { maxBytes: 2_000 });
    expect(ids).toEqual([]);
    expect(report.dropped).toEqual([{ zoom: Z, tilesOverBudget: 1, featuresDropped: 1, bytesBefore: expect.any(Number) }]);
    expect(report.zooms).toEqual([{ zoom: Z, tiles: 1, features: 1 }]);
  });

  it('points: the densest place is thinned, isolated points stay', async () => {
    const next = random(9);
    const point = (id: number, [lon, lat]: [number, number]): TilerFeature => ({ type: 'Feature', id, properties: {}, geometry: { type: 'Point', coordinates: [lon, lat] } });
    // Ten points on a ring around the cluster, a fifth of a tile apart; 400 in a 1%-wide square.
    const isolated = Array.from({ length: 10 }, (_, i) => point(i + 1, at(0.5 + 0.35 * Math.cos(i * 0.628), 0.5 + 0.35 * Math.sin(i * 0.628))));
    const cluster = Array.from({ length: 400 }, (_, i) => point(1000 + i, at(0.5 + next() * 0.01, 0.5 + next() * 0.01)));
    const { report, ids } = await tile('stations', [...cluster, ...isolated], { maxFeatures: 50 });
    expect(ids).toHaveLength(50);
    expect(ids.filter((id) => id <= 10).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(report.dropped).toEqual([{ zoom: Z, tilesOverBudget: 1, featuresDropped: 360 }]);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GeoJSONVT, type GeoJSONVTFeature } from '@maplibre/geojson-vt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileToArchive, type TilerFeature } from '../../engines/tiles/tiler.ts';
import { layerFeatures, openArchive, type OpenArchive } from './read-archive.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

/**
 * Our cutting against an independent one: geojson-vt (which the tiler's clipping follows) slices
 * the same features; with simplification off, every tile must hold the same features, each vertex
 * of ours within one tile unit of one of geojson-vt's and the other way round.
 */

const MAX_ZOOM = 7;
let dir: string;
let reader: OpenArchive;
const features: TilerFeature[] = [];

function ring(next: () => number, cx: number, cy: number, r: number, n: number): number[][] {
  const points = Array.from({ length: n }, (_, k) => {
    const a = (k / n) * 2 * Math.PI;
    const rr = r * (0.6 + 0.4 * next());
    return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)];
  });
  return [...points, points[0]!];
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-reference-'));
  const next = random(3);
  for (let i = 1; i <= 150; i += 1) {
    const [cx, cy] = [-120 + next() * 60, 42 + next() * 14];
    const r = 0.05 + next() * 3;
    const kind = i % 3;
    const geometry: GeoJSON.Geometry = kind === 0
      ? { type: 'Polygon', coordinates: [ring(next, cx, cy, r, 8 + Math.floor(next() * 40)), ring(next, cx, cy, r / 4, 6).reverse()] }
      : kind === 1
        ? { type: 'LineString', coordinates: Array.from({ length: 30 }, (_, k) => [cx + (k - 15) * r * 0.2, cy + Math.sin(k) * r * 0.3]) }
        : { type: 'MultiPoint', coordinates: Array.from({ length: 5 }, () => [cx + (next() - 0.5) * r, cy + (next() - 0.5) * r]) };
    features.push({ type: 'Feature', id: i, properties: { kind }, geometry });
  }
  const file = path.join(dir, 'ours.pmtiles');
  await tileToArchive({
    layers: [{ spec: { id: 'mixed', minZoom: 0, maxZoom: MAX_ZOOM, simplification: 0 }, features }], archivePath: file, workDir: dir, inMemoryFeatures: 40,
  });
  reader = openArchive(file);
});
afterAll(async () => {
  await reader?.close();
  await rm(dir, { recursive: true, force: true });
});

function within(a: number[][], b: number[][]): boolean {
  return a.every(([x, y]) => b.some(([u, v]) => Math.abs(u! - x!) <= 1 && Math.abs(v! - y!) <= 1));
}

describe('clipping, compared with geojson-vt', () => {
  it('every tile has the same features, each with the same vertices within one unit', async () => {
    const index = new GeoJSONVT({ type: 'FeatureCollection', features }, { maxZoom: MAX_ZOOM, tolerance: 0, buffer: 64, extent: 4096, indexMaxZoom: MAX_ZOOM, wrap: false });
    let tiles = 0;
    let compared = 0;
    let frontier: [number, number][] = [[0, 0]];
    for (let z = 0; z <= MAX_ZOOM; z += 1) {
      const next: [number, number][] = [];
      for (const [x, y] of frontier) {
        const theirs = index.getTile(z, x, y);
        const mine = layerFeatures(await reader.tile(z, x, y), 'mixed');
        if (!theirs || theirs.features.length === 0) {
          expect(mine).toEqual([]);
          continue;
        }
        tiles += 1;
        next.push([2 * x, 2 * y], [2 * x + 1, 2 * y], [2 * x, 2 * y + 1], [2 * x + 1, 2 * y + 1]);
        const byNumber = (a: number, b: number) => a - b;
        expect(mine.map((f) => Number(f.id)).sort(byNumber)).toEqual(theirs.features.map((f: GeoJSONVTFeature) => Number(f.id)).sort(byNumber));
        for (const f of theirs.features) {
          const theirPoints = (f.type === 1 ? f.geometry : f.geometry.flat()) as number[][];
          const myPoints = mine.find((m) => m.id === f.id)!.loadGeometry().flat().map((p) => [p.x, p.y]);
          expect(within(myPoints, theirPoints) && within(theirPoints, myPoints), `feature ${f.id} in ${z}/${x}/${y}`).toBe(true);
          compared += 1;
        }
      }
      frontier = next;
    }
    expect(tiles).toBeGreaterThan(200);
    expect(compared).toBeGreaterThan(1000);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toleranceAt } from '../../engines/tiles/layer-spec.ts';
import { tileToArchive, type LayerSpec, type TilerFeature } from '../../engines/tiles/tiler.ts';
import { layerFeatures, openArchive, project, vertexCount } from './read-archive.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-simplify-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A lake-like polygon: 3,000 vertices on a wobbly circle of ~6 km around Lac Saint-Jean's middle.
const [lon0, lat0] = [-72.0, 48.6];
const lake: TilerFeature = {
  type: 'Feature', id: 1, properties: { name: 'lac' },
  geometry: {
    type: 'Polygon',
    coordinates: [Array.from({ length: 3001 }, (_, i) => {
      const a = ((i % 3000) / 3000) * 2 * Math.PI;
      const r = 0.06 * (1 + 0.08 * Math.sin(a * 37) + 0.03 * Math.sin(a * 211));
      return [lon0 + (r / Math.cos((lat0 * Math.PI) / 180)) * Math.cos(a), lat0 + r * Math.sin(a)];
    })],
  },
};

/** Vertices of the lake in the tile holding its centre at each zoom (it fits one tile up to z9). */
async function verticesPerZoom(spec: LayerSpec): Promise<number[]> {
  const file = path.join(dir, `${spec.id}.pmtiles`);
  await tileToArchive({ layers: [{ spec, features: [lake] }], archivePath: file, workDir: dir });
  const reader = openArchive(file);
  try {
    const counts: number[] = [];
    for (let z = spec.minZoom; z <= spec.maxZoom; z += 1) {
      const [x, y] = project(z, lon0, lat0);
      const [feature] = layerFeatures(await reader.tile(z, x, y), spec.id);
      counts.push(feature ? vertexCount(feature) : 0);
    }
    return counts;
  } finally {
    await reader.close();
  }
}

describe('simplification per zoom', () => {
  it('takes the nearest lower key, the default below the first key, and none at the max zoom', () => {
    const spec: LayerSpec = { id: 'l', minZoom: 0, maxZoom: 14, simplification: { 10: 2, 0: 8, 14: 0 } };
    expect(Array.from({ length: 15 }, (_, z) => toleranceAt(spec, z))).toEqual([8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 2, 2, 2, 2, 0]);
    expect(toleranceAt({ id: 'l', minZoom: 0, maxZoom: 12, simplification: { 6: 1 } }, 3)).toBe(3);
    expect(toleranceAt({ id: 'l', minZoom: 0, maxZoom: 12, simplification: 5 }, 11)).toBe(5);
    expect(toleranceAt({ id: 'l', minZoom: 0, maxZoom: 12, simplification: 5 }, 12)).toBe(0);
  });

  it('changes the vertex count at the zooms it changes, and only there', async () => {
    const corners = [[-72.1, 48.52], [-71.9, 48.68]].map(([lon, lat]) => project(9, lon!, lat!).slice(0, 2).join('/'));
    expect(new Set(corners).size).toBe(1); // the lake is inside one tile up to z9
    const even = await verticesPerZoom({ id: 'even', minZoom: 4, maxZoom: 9, simplification: 1 });
    const coarseFrom7 = await verticesPerZoom({ id: 'coarse', minZoom: 4, maxZoom: 9, simplification: { 0: 1, 7: 12 } });
    // z4-6: same tolerance, same vertices; z7-8: 12 units instead of 1, far fewer; z9 (max): every vertex.
    expect(coarseFrom7.slice(0, 3)).toEqual(even.slice(0, 3));
    for (const z of [7, 8]) {
      expect(coarseFrom7[z - 4]).toBeGreaterThan(3);
      expect(coarseFrom7[z - 4]! * 2).toBeLessThan(even[z - 4]!);
    }
    expect(coarseFrom7[5]).toBe(3001);
    expect(even[5]).toBe(3001);
    // More detail with each zoom under one tolerance, as the lake grows on the tile grid.
    for (let i = 1; i < 6; i += 1) expect(even[i]).toBeGreaterThanOrEqual(even[i - 1]!);
  });

  it('a polygon smaller than the tolerance squared vanishes at that zoom, tolerance 0 keeps it', async () => {
    const tiny: TilerFeature = {
      type: 'Feature', id: 2, properties: {},
      geometry: { type: 'Polygon', coordinates: [[[-72, 48.6], [-71.9999, 48.6], [-71.9999, 48.6001], [-72, 48.6001], [-72, 48.6]]] },
    };
    const tile = async (spec: LayerSpec) => {
      const file = path.join(dir, `tiny-${spec.id}.pmtiles`);
      const report = await tileToArchive({ layers: [{ spec, features: [tiny, lake] }], archivePath: file, workDir: dir });
      return report.zooms.map((z) => z.features);
    };
    // ~7 m square: at z8 it is ~0.1 tile units across; the lake stays either way.
    expect(await tile({ id: 'default', minZoom: 8, maxZoom: 9 })).toEqual([1, 2]);
    expect(await tile({ id: 'exact', minZoom: 8, maxZoom: 9, simplification: 0 })).toEqual([2, 2]);
  });
});

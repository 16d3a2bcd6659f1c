import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureStore } from '../../engines/catalog/feature-store.ts';
import { FeatureStoreWriter } from '../../engines/catalog/feature-store-writer.ts';
import { geometryContains, geometryTouchesBox, toGeoJson } from '../../engines/catalog/geometry-codec.ts';

const geometries: GeoJSON.Geometry[] = [
  { type: 'Point', coordinates: [-114.07, 51.05] },
  { type: 'MultiPoint', coordinates: [[-114, 51], [-113.5, 51.5]] },
  { type: 'LineString', coordinates: [[-120, 50], [-119, 50.5], [-118, 50]] },
  { type: 'MultiLineString', coordinates: [[[-100, 50], [-99, 50]], [[-100, 51], [-99, 51]]] },
  { type: 'Polygon', coordinates: [[[-80, 40], [-70, 40], [-70, 50], [-80, 50], [-80, 40]], [[-76, 44], [-76, 46], [-74, 46], [-74, 44], [-76, 44]]] },
  { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]], [[[2, 2], [3, 2], [3, 3], [2, 3], [2, 2]]]] },
];

describe('catalog feature store (engines/catalog)', () => {
  let dir = '';
  let store: FeatureStore;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-feature-store-'));
    const writer = await FeatureStoreWriter.create(dir, 'test.layer');
    for (const [i, geometry] of geometries.entries()) await writer.add({ id: `f${i}`, name: `Feature ${i}`, province: 'ON', rank: i, note: 'é ᐃᖃᓗᐃᑦ' }, geometry);
    expect(await writer.finish()).toMatchObject({ features: geometries.length });
    store = await FeatureStore.open(dir, 'test.layer');
  });

  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves only the store and its index behind', async () => {
    expect((await readdir(dir)).sort()).toEqual(['test.layer.features', 'test.layer.flatbush']);
  });

  it('gives back every record and geometry as written', async () => {
    expect(store.count).toBe(geometries.length);
    for (const [i, geometry] of geometries.entries()) {
      const feature = await store.read(i);
      expect(feature.properties).toEqual({ id: `f${i}`, name: `Feature ${i}`, province: 'ON', rank: i, note: 'é ᐃᖃᓗᐃᑦ' });
      expect(toGeoJson(feature.geometry)).toEqual(geometry);
    }
  });

  it('finds records by bbox and tests them exactly', async () => {
    expect(store.search(-75, 45, -75, 45)).toEqual([4]);
    const polygon = await store.read(4);
    expect(geometryContains(polygon.geometry, -75, 45)).toBe(false); // in the hole
    expect(geometryContains(polygon.geometry, -78, 45)).toBe(true);
    const multi = await store.read(5);
    expect(geometryContains(multi.geometry, 2.5, 2.5)).toBe(true);
    expect(geometryContains(multi.geometry, 1.5, 1.5)).toBe(false);
    const line = await store.read(2);
    expect(geometryContains(line.geometry, -119, 50.5)).toBe(false); // lines have no inside
    expect(geometryTouchesBox(line.geometry, [-119.5, 50.1, -119.4, 50.4])).toBe(true);
    const points = await store.read(1);
    expect(geometryTouchesBox(points.geometry, [-113.8, 51.2, -113.6, 51.3])).toBe(false); // between the points
    expect(geometryTouchesBox(points.geometry, [-113.6, 51.4, -113.4, 51.6])).toBe(true);
  });

  it('opens an empty layer that matches nothing', async () => {
    const writer = await FeatureStoreWriter.create(dir, 'empty');
    await writer.finish();
    const empty = await FeatureStore.open(dir, 'empty');
    expect(empty.count).toBe(0);
    expect(empty.search(-180, -90, 180, 90)).toEqual([]);
    await empty.close();
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSource } from '../../engines/tiles/pmtiles/file-source.ts';
import { PMTilesWriter } from '../../engines/tiles/pmtiles/writer.ts';
import { TILE_EXTENT, writeTiles, type TilerFeature, type TilingReport } from '../../engines/tiles/tiler.ts';

let dir: string;
let archive: PMTiles;
let source: FileSource;
let report: TilingReport;

// Stanley Park with a lagoon as its hole, two SkyTrain stations (one only from zoom 13), a line.
const park: TilerFeature = {
  type: 'Feature',
  properties: { name: 'Stanley Park', name_fr: 'parc Stanley', area_ha: 405, internal: 'drop me' },
  geometry: { type: 'Polygon', coordinates: [
    [[-123.1600, 49.2920], [-123.1150, 49.2920], [-123.1150, 49.3150], [-123.1600, 49.3150], [-123.1600, 49.2920]],
    [[-123.1450, 49.2980], [-123.1350, 49.2980], [-123.1350, 49.3040], [-123.1450, 49.3040], [-123.1450, 49.2980]],
  ] },
};
const waterfront: TilerFeature = { type: 'Feature', properties: { name: 'Waterfront', busy: true }, geometry: { type: 'Point', coordinates: [-123.11185, 49.28587] } };
const burrard: TilerFeature = {
  type: 'Feature', properties: { name: 'Burrard' }, geometry: { type: 'Point', coordinates: [-123.12009, 49.28562] }, tippecanoe: { minzoom: 13 },
};
const seawall: TilerFeature = {
  type: 'Feature', properties: { name: 'Seawall' },
  geometry: { type: 'LineString', coordinates: [[-123.1400, 49.2900], [-123.1300, 49.2950], [-123.1200, 49.2990]] },
};

/** A lon/lat in the units of the tile that holds it at zoom z: [tile x, tile y, local x, local y]. */
function project(z: number, lon: number, lat: number): [number, number, number, number] {
  const n = 2 ** z;
  const wx = ((lon + 180) / 360) * n;
  const s = Math.sin((lat * Math.PI) / 180);
  const wy = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n;
  return [Math.floor(wx), Math.floor(wy), (wx - Math.floor(wx)) * TILE_EXTENT, (wy - Math.floor(wy)) * TILE_EXTENT];
}

async function decode(z: number, x: number, y: number): Promise<VectorTile | null> {
  const tile = await archive.getZxy(z, x, y);
  return tile ? new VectorTile(new PbfReader(new Uint8Array(tile.data))) : null;
}

function features(tile: VectorTile, layer: string): VectorTileFeature[] {
  const l = tile.layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-tiler-'));
  const file = path.join(dir, 'vancouver.pmtiles');
  const writer = await PMTilesWriter.create(file);
  report = await writeTiles([
    { spec: { id: 'parks', minZoom: 0, maxZoom: 14, exclude: ['internal'], simplification: 0 }, features: [park, seawall] },
    { spec: { id: 'stations', minZoom: 10, maxZoom: 14, include: ['name'] }, features: [waterfront, burrard] },
  ], writer);
  await writer.finish({ metadata: { vector_layers: report.vectorLayers } });
  source = new FileSource(file);
  archive = new PMTiles(source);
});
afterAll(async () => {
  await source?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('writeTiles', () => {
  it('puts each layer in its zoom band, with its attributes filtered and its vector_layers entry', async () => {
    expect(report.vectorLayers).toEqual([
      { id: 'parks', fields: { name: 'String', name_fr: 'String', area_ha: 'Number' }, minzoom: 0, maxzoom: 14 },
      { id: 'stations', fields: { name: 'String' }, minzoom: 10, maxzoom: 14 },
    ]);
    expect(report.zooms.map((z) => z.zoom)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect((await archive.getHeader())).toMatchObject({ minZoom: 0, maxZoom: 14, clustered: true });
    const [x9, y9] = project(9, -123.12, 49.29);
    const z9 = (await decode(9, x9, y9))!;
    expect(Object.keys(z9.layers)).toEqual(['parks']);
    const parkAt9 = features(z9, 'parks').find((f) => f.properties.name === 'Stanley Park')!;
    expect(parkAt9.properties).toEqual({ name: 'Stanley Park', name_fr: 'parc Stanley', area_ha: 405 });
    const [x12, y12] = project(12, -123.11185, 49.28587);
    const z12 = (await decode(12, x12, y12))!;
    expect(features(z12, 'stations').map((f) => f.properties)).toEqual([{ name: 'Waterfront' }]);
    const [x13, y13] = project(13, -123.11185, 49.28587);
    expect(features((await decode(13, x13, y13))!, 'stations').map((f) => f.properties.name).sort()).toEqual(['Burrard', 'Waterfront']);
    expect(await archive.getZxy(15, 0, 0)).toBeUndefined();
  });

  it('at the max zoom every vertex is within one tile unit of the input, the hole included', async () => {
    const [x, y] = project(14, -123.1450, 49.2980);
    const tile = (await decode(14, x, y))!;
    const parkFeature = features(tile, 'parks').find((f) => f.properties.name === 'Stanley Park')!;
    expect(parkFeature.type).toBe(3);
    const rings = parkFeature.loadGeometry();
    const hole = park.geometry.type === 'Polygon' ? park.geometry.coordinates[1]! : [];
    // The lagoon's corners that fall in this tile are vertices of one of the tile's rings.
    const corners = hole.map(([lon, lat]) => project(14, lon!, lat!)).filter(([tx, ty]) => tx === x && ty === y);
    expect(corners.length).toBeGreaterThan(0);
    for (const [, , lx, ly] of corners) {
      const nearest = Math.min(...rings.flat().map((p) => Math.hypot(p.x - lx, p.y - ly)));
      expect(nearest).toBeLessThanOrEqual(1);
    }
    const [sx, sy, px, py] = project(14, -123.12009, 49.28562);
    const station = features((await decode(14, sx, sy))!, 'stations').find((f) => f.properties.name === 'Burrard')!;
    const point = station.loadGeometry()[0]![0];
    expect(Math.hypot(point!.x - px, point!.y - py)).toBeLessThanOrEqual(1);
  });
});

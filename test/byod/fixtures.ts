import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTilesWriter } from '../../engines/tiles/pmtiles/writer.ts';
import { writeTiles, type TilerFeature } from '../../engines/tiles/tiler.ts';

/** Test data of the byod suite: GeoJSON of Vancouver, PMTiles archives made by our writer, tile math. */

export const PARK: TilerFeature = {
  type: 'Feature',
  id: 7,
  properties: { name: 'Stanley Park', area_ha: 405 },
  geometry: { type: 'Polygon', coordinates: [[[-123.16, 49.292], [-123.115, 49.292], [-123.115, 49.315], [-123.16, 49.315], [-123.16, 49.292]]] },
};
export const STATION: TilerFeature = {
  type: 'Feature',
  properties: { name: 'Waterfront', busy: true },
  geometry: { type: 'Point', coordinates: [-123.11185, 49.28587] },
};
export const SEAWALL: TilerFeature = {
  type: 'Feature',
  properties: { name: 'Seawall' },
  geometry: { type: 'LineString', coordinates: [[-123.14, 49.29], [-123.13, 49.295], [-123.12, 49.299]] },
};

export const VANCOUVER = { type: 'FeatureCollection', features: [PARK, STATION, SEAWALL] };
export const vancouverGeoJson = () => JSON.stringify(VANCOUVER);

/** The tile holding lon/lat at zoom z. */
export function tileOf(z: number, lon: number, lat: number): [number, number] {
  const n = 2 ** z;
  const s = Math.sin((lat * Math.PI) / 180);
  return [Math.floor(((lon + 180) / 360) * n), Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)];
}

export function decodeTile(bytes: Buffer, gzip: boolean): VectorTile {
  return new VectorTile(new PbfReader(new Uint8Array(gzip ? gunzipSync(bytes) : bytes)));
}

/** A PMTiles archive of the Vancouver features (layer `places`, zooms 0-12), made by our writer and tiler. */
export async function vancouverArchive(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-byod-fixture-'));
  try {
    const file = path.join(dir, 'vancouver.pmtiles');
    const writer = await PMTilesWriter.create(file);
    const report = await writeTiles([{ spec: { id: 'places', minZoom: 0, maxZoom: 12 }, features: [PARK, STATION, SEAWALL] }], writer);
    await writer.finish({ metadata: { vector_layers: report.vectorLayers } });
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

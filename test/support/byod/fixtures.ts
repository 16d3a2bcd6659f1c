import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTilesWriter } from '../../../engines/tiles/pmtiles/writer.ts';
import { writeTiles, type TilerFeature } from '../../../engines/tiles/tiler.ts';
import { seededRandom } from '../../../lib/seeded-random.ts';

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

/**
 * Issue 28's upload: one LineString of `points` positions in whole degrees (0-9), each a step of
 * a random walk to a neighbouring position, so 870,000 of them fill 5.2 MB ([d,d], six bytes each)
 * and the line scribbles over a 9° square, crossing every tile of it hundreds of times.
 */
export function denseLineGeoJson(points = 870_000, seed = 28): string {
  const random = seededRandom(seed);
  const step = (v: number) => Math.min(9, Math.max(0, v + Math.floor(random() * 3) - 1));
  const parts: string[] = new Array(points);
  let [x, y] = [4, 4];
  for (let i = 0; i < points; i += 1) {
    [x, y] = [step(x), step(y)];
    parts[i] = `[${x},${y}]`;
  }
  return `{"type":"LineString","coordinates":[${parts.join(',')}]}`;
}

/** A GPS-like track: `points` positions of 5 decimals, about 10 m apart, wandering east from Vancouver. */
export function trackGeoJson(points = 200_000, seed = 7): string {
  const random = seededRandom(seed);
  const parts: string[] = new Array(points);
  let [lon, lat, heading] = [-123.1, 49.25, 0];
  for (let i = 0; i < points; i += 1) {
    heading += (random() - 0.5) * 0.6;
    lon += Math.cos(heading) * 0.00012 + 0.00004;
    lat += Math.sin(heading) * 0.00008;
    parts[i] = `[${lon.toFixed(5)},${lat.toFixed(5)}]`;
  }
  return JSON.stringify({ type: 'Feature', properties: { name: 'track' }, geometry: { type: 'LineString', coordinates: [] } })
    .replace('"coordinates":[]', `"coordinates":[${parts.join(',')}]`);
}

/** `count` points scattered over British Columbia, each with a name and a number. */
export function scatteredPointsGeoJson(count = 35_000, seed = 3): string {
  const random = seededRandom(seed);
  const features = Array.from({ length: count }, (_, i) => ({
    type: 'Feature', properties: { name: `site ${i}`, value: Math.round(random() * 1000) },
    geometry: { type: 'Point', coordinates: [+(-139 + random() * 25).toFixed(5), +(48.3 + random() * 11.7).toFixed(5)] },
  }));
  return JSON.stringify({ type: 'FeatureCollection', features });
}

/**
 * A file no limit lets through: one polygon over most of Canada carrying a 200 KB property that
 * does not compress, so each of its thousands of tiles holds ~150 KB: gigabytes of tiles from
 * 270 KB (only the archive's size limit stops it).
 */
export function heavyPolygonGeoJson(seed = 11): string {
  const random = seededRandom(seed);
  const noise = Array.from({ length: 200_000 }, () => String.fromCharCode(35 + Math.floor(random() * 90))).join('').replace(/\\/g, '/');
  return JSON.stringify({
    type: 'Feature', properties: { name: 'Canada', notes: noise },
    geometry: { type: 'Polygon', coordinates: [[[-140, 42], [-52, 42], [-52, 70], [-140, 70], [-140, 42]]] },
  });
}

/**
 * Basemap tiles to request, drawn (seeded) from the tiles the archive has: z0–8 anywhere in the
 * archive's bounds (the coarse national layers), z9–14 inside the OSM extract's bbox, weighted
 * towards z12–14 as a city map session asks for them.
 */
import type { Box } from '../../lib/geo/clip-box.ts';
import { TileArchive } from '../../engines/tiles/pmtiles/archive-reader.ts';
import { seededRandom, weightedTable } from '../../lib/seeded-random.ts';
import { tilesInBox } from './tile-census.ts';

export type Zxy = [z: number, x: number, y: number];

/** Share of requests per zoom: z0–8 10 % in all, z9–11 15 %, z12 20 %, z13 25 %, z14 30 %. */
export const ZOOM_WEIGHTS: readonly (readonly [number, number])[] = [
  ...Array.from({ length: 9 }, (_, z) => [z, 10 / 9] as const),
  [9, 5], [10, 5], [11, 5], [12, 20], [13, 25], [14, 30],
];
const COARSE_MAX_ZOOM = 8;

export async function sampleTiles(archive: TileArchive, osmBox: Box, count: number, seed = 7): Promise<{ tiles: Zxy[]; available: Map<number, number> }> {
  const h = archive.header;
  const archiveBox: Box = [h.minLon, h.minLat, h.maxLon, h.maxLat];
  const byZoom = new Map<number, Zxy[]>();
  for (const [z] of ZOOM_WEIGHTS) {
    const found = await tilesInBox(archive, z <= COARSE_MAX_ZOOM ? archiveBox : osmBox, z);
    if (found.length) byZoom.set(z, found.map((t) => [z, t.x, t.y]));
  }
  const table = weightedTable(ZOOM_WEIGHTS.filter(([z]) => byZoom.has(z)));
  const random = seededRandom(seed);
  const tiles = Array.from({ length: count }, () => random.pick(byZoom.get(random.weighted(table))!));
  return { tiles, available: new Map([...byZoom].map(([z, list]) => [z, list.length])) };
}

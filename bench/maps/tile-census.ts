/**
 * Tiles an archive holds per zoom, and their stored (gzip) bytes: all of them from the build's
 * per-zoom report, or only those that intersect a box, by asking the archive for every tile of
 * the box's range (a city extract's box spans a few hundred tiles at z14).
 */
import type { Box } from '../../lib/geo/clip-box.ts';
import { TileArchive } from '../../engines/tiles/pmtiles/archive-reader.ts';
import { tileContaining } from '../../engines/tiles/tile-feature.ts';

export interface ZoomCensus {
  z: number;
  tiles: number;
  bytes: number;
}

/** x and y ranges (inclusive) of the tiles at `z` that intersect `box`. */
export function tileRange(box: Box, z: number): { x0: number; x1: number; y0: number; y1: number } {
  const [x0, y0] = tileContaining(box[0], box[3], z);
  const [x1, y1] = tileContaining(box[2], box[1], z);
  return { x0, x1, y0, y1 };
}

/** Every stored tile of the archive at `z` intersecting `box`, with its bytes. */
export async function tilesInBox(archive: TileArchive, box: Box, z: number): Promise<{ x: number; y: number; bytes: number }[]> {
  const { x0, x1, y0, y1 } = tileRange(box, z);
  const found: { x: number; y: number; bytes: number }[] = [];
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      const tile = await archive.tile(z, x, y);
      if (tile) found.push({ x, y, bytes: tile.length });
    }
  }
  return found;
}

/** Per zoom from minZoom to maxZoom: the archive's tiles intersecting `box`. */
export async function censusInBox(archivePath: string, box: Box, minZoom: number, maxZoom: number): Promise<ZoomCensus[]> {
  const archive = await TileArchive.open(archivePath);
  try {
    const zooms: ZoomCensus[] = [];
    for (let z = minZoom; z <= maxZoom; z++) {
      const tiles = await tilesInBox(archive, box, z);
      zooms.push({ z, tiles: tiles.length, bytes: tiles.reduce((sum, t) => sum + t.bytes, 0) });
    }
    return zooms;
  } finally {
    await archive.close();
  }
}

export const totalTiles = (zooms: readonly ZoomCensus[]): number => zooms.reduce((sum, z) => sum + z.tiles, 0);
export const totalBytes = (zooms: readonly ZoomCensus[]): number => zooms.reduce((sum, z) => sum + z.bytes, 0);

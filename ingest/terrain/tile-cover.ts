import { zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';
import { tileContaining } from '../../engines/tiles/tile-feature.ts';
import type { DemBounds } from '../../engines/terrain/dem.ts';
import type { TileAddress } from '../../engines/terrain/web-mercator.ts';

/** Web Mercator stops here: tileContaining clamps beyond it. */
const MERCATOR_LAT = 85.05112878;

/**
 * The tiles of zoom z that meet any of the boxes (one per DEM tile square), grown by `margin`
 * tiles on each side, in PMTiles tile-id order so the archive comes out clustered.
 */
export function tilesCovering(boxes: readonly DemBounds[], z: number, margin = 0): TileAddress[] {
  const n = 2 ** z;
  const ids = new Map<number, TileAddress>();
  for (const box of boxes) {
    const north = Math.min(box.north, MERCATOR_LAT);
    const south = Math.max(box.south, -MERCATOR_LAT);
    if (south >= north) continue;
    const [x0, y0] = tileContaining(box.west, north, z);
    const [x1, y1] = tileContaining(box.east, south, z);
    for (let x = Math.max(0, x0 - margin); x <= Math.min(n - 1, x1 + margin); x++) {
      for (let y = Math.max(0, y0 - margin); y <= Math.min(n - 1, y1 + margin); y++) {
        ids.set(zxyToTileId(z, x, y), { z, x, y });
      }
    }
  }
  return [...ids.entries()].sort((a, b) => a[0] - b[0]).map(([, tile]) => tile);
}

/** The one-degree square of each DEM tile. */
export function demSquares(tiles: readonly { south: number; west: number }[]): DemBounds[] {
  return tiles.map(({ south, west }) => ({ west, south, east: west + 1, north: south + 1 }));
}

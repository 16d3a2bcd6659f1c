import { encode } from 'fast-png';
import type { Dem } from './dem.ts';
import { encodeTerrarium } from './terrarium.ts';
import { checkTileAddress, tileBounds, tileLat, tileLng, type TileAddress } from './web-mercator.ts';

export type TerrariumTileSize = 256 | 512;

/**
 * The RGBA of a pixel the DEM has no height for: 0 m in terrarium (what a map client that ignores
 * alpha draws: sea level, the right guess for the voids and the sea around Canada's coasts) and
 * alpha 0, which tells a client that looks that there is no data.
 */
export const NO_DATA_PIXEL = [...encodeTerrarium(0), 0] as const;

/**
 * The terrarium RGBA pixels of tile z/x/y: each pixel is the DEM's height at the pixel's centre
 * (Web Mercator), NO_DATA_PIXEL where there is none. Null when no pixel has data (the API's 204).
 */
export function terrariumPixels(dem: Dem, tile: TileAddress, size: TerrariumTileSize = 256): Uint8Array | null {
  checkTileAddress(tile);
  if (!dem.intersects(tileBounds(tile))) return null;
  const rgba = new Uint8Array(size * size * 4);
  let covered = 0;
  const lngs = Float64Array.from({ length: size }, (_, px) => tileLng(tile, (px + 0.5) / size));
  for (let py = 0; py < size; py++) {
    const lat = tileLat(tile, (py + 0.5) / size);
    for (let px = 0; px < size; px++) {
      const metres = dem.elevationAt(lngs[px]!, lat);
      const at = (py * size + px) * 4;
      if (metres === null) {
        rgba.set(NO_DATA_PIXEL, at);
        continue;
      }
      const [r, g, b] = encodeTerrarium(metres);
      rgba[at] = r;
      rgba[at + 1] = g;
      rgba[at + 2] = b;
      rgba[at + 3] = 255;
      covered++;
    }
  }
  return covered > 0 ? rgba : null;
}

/** Tile z/x/y as a terrarium PNG (RGBA, 8 bits), or null when the DEM has nothing in it. */
export function renderTerrariumTile(dem: Dem, tile: TileAddress, size: TerrariumTileSize = 256): Uint8Array | null {
  const rgba = terrariumPixels(dem, tile, size);
  return rgba && encode({ width: size, height: size, data: rgba, channels: 4, depth: 8 });
}

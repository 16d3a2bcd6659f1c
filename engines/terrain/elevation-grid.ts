import type { Dem } from './dem.ts';
import type { Grid } from './marching-squares.ts';
import { tileLat, tileLng, type TileAddress } from './web-mercator.ts';

export interface TileGridOptions {
  /** Grid cells across the tile (default 256). */
  cells?: number;
  /** Extra cells sampled beyond each edge, so lines run on past the tile and meet its neighbours' (default 8). */
  buffer?: number;
}

/** A grid sampled over a tile; node (col, row) lies at the tile fraction ((col − buffer) / cells, (row − buffer) / cells). */
export interface TileGrid extends Grid {
  tile: TileAddress;
  cells: number;
  buffer: number;
  /** Lowest and highest sampled height; null when no node has one. */
  range: [number, number] | null;
}

/** Samples the DEM at evenly spaced Web Mercator positions over a tile and its buffer; NaN where it has no height. */
export function sampleTileGrid(dem: Dem, tile: TileAddress, options: TileGridOptions = {}): TileGrid {
  const cells = options.cells ?? 256;
  const buffer = options.buffer ?? 8;
  const side = cells + 2 * buffer + 1;
  const values = new Float64Array(side * side);
  const lngs = Float64Array.from({ length: side }, (_, col) => tileLng(tile, (col - buffer) / cells));
  let min = Infinity;
  let max = -Infinity;
  for (let row = 0; row < side; row++) {
    const lat = tileLat(tile, (row - buffer) / cells);
    for (let col = 0; col < side; col++) {
      const metres = dem.elevationAt(lngs[col]!, lat);
      values[row * side + col] = metres ?? Number.NaN;
      if (metres !== null) {
        if (metres < min) min = metres;
        if (metres > max) max = metres;
      }
    }
  }
  return { width: side, height: side, values, tile, cells, buffer, range: min <= max ? [min, max] : null };
}

import type { TilerFeature } from '../tiles/tiler.ts';
import { contourInterval, contourLevels, isIndexContour } from './contour-interval.ts';
import type { Dem } from './dem.ts';
import { sampleTileGrid, type TileGrid, type TileGridOptions } from './elevation-grid.ts';
import { isolines } from './marching-squares.ts';
import { checkTileAddress, tileBounds, tileLat, tileLng, type TileAddress } from './web-mercator.ts';

export interface ContourProperties {
  /** The line's height in metres. */
  ele: number;
  /** Whether it is an index contour (every fifth interval). */
  index: boolean;
}

export type ContourFeature = TilerFeature & { geometry: GeoJSON.LineString; properties: ContourProperties };

export interface ContourOptions extends TileGridOptions {
  /** Metres between lines; the zoom's (contour-interval.ts) by default. */
  interval?: number;
}

/**
 * The contour lines of tile z/x/y as lng/lat LineStrings, running on into the grid's buffer so a
 * tiler clipping each tile with its own buffer joins them across tiles. Empty when the DEM has
 * nothing there.
 */
export function contourTile(dem: Dem, tile: TileAddress, options: ContourOptions = {}): ContourFeature[] {
  checkTileAddress(tile);
  const interval = options.interval ?? contourInterval(tile.z);
  const buffer = options.buffer ?? 8;
  const cells = options.cells ?? 256;
  if (!dem.intersects(tileBounds(tile, buffer / cells))) return [];
  return gridContours(sampleTileGrid(dem, tile, { cells, buffer }), interval);
}

/** The contours of an already sampled tile grid. */
export function gridContours(grid: TileGrid, interval: number): ContourFeature[] {
  if (!(interval > 0)) throw new RangeError(`contour interval ${interval} is not positive`);
  if (!grid.range) return [];
  const { tile, cells, buffer } = grid;
  const lngs = Float64Array.from({ length: grid.width }, (_, col) => tileLng(tile, (col - buffer) / cells));
  const lats = Float64Array.from({ length: grid.height }, (_, row) => tileLat(tile, (row - buffer) / cells));
  // crossings lie on grid edges: one coordinate is a whole node, the other a fraction between two
  const lng = (x: number) => (Number.isInteger(x) ? lngs[x]! : tileLng(tile, (x - buffer) / cells));
  const lat = (y: number) => (Number.isInteger(y) ? lats[y]! : tileLat(tile, (y - buffer) / cells));
  const features: ContourFeature[] = [];
  for (const level of contourLevels(grid.range[0], grid.range[1], interval)) {
    for (const line of isolines(grid, level)) {
      if (line.length < 2) continue;
      features.push({
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: line.map(([x, y]) => [lng(x), lat(y)]) },
        properties: { ele: level, index: isIndexContour(level, interval) },
      });
    }
  }
  return features;
}

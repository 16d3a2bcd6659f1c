import { PMTilesWriter, type WriterOptions } from '../../engines/tiles/pmtiles/writer.ts';
import type { TileAddress } from '../../engines/terrain/web-mercator.ts';

const BREATHE_MS = 100;

export interface ArchiveStats {
  minzoom: number;
  maxzoom: number;
  tiles: number;
  bytes: number;
  /** Tiles written per zoom. */
  tiles_per_zoom: Record<string, number>;
}

/**
 * Writes one archive from the tiles `make` answers, zoom by zoom in the order given (tile-id
 * order: clustered), one tile in memory at a time; the writer spools tile bytes to disk. Null,
 * and no file, when no tile had content.
 */
export async function writeArchive(
  file: string,
  options: WriterOptions & { metadata: Record<string, unknown> },
  zooms: readonly TileAddress[][],
  make: (tile: TileAddress) => Uint8Array | null,
  onTile: () => void,
): Promise<ArchiveStats | null> {
  const writer = await PMTilesWriter.create(file, options);
  const perZoom: Record<string, number> = {};
  let tiles = 0;
  let breathed = Date.now();
  try {
    for (const tilesOfZoom of zooms) {
      for (const tile of tilesOfZoom) {
        const bytes = make(tile);
        if (bytes) {
          await writer.addTile(tile.z, tile.x, tile.y, bytes);
          perZoom[tile.z] = (perZoom[tile.z] ?? 0) + 1;
          tiles++;
        }
        onTile();
        // tiles take milliseconds each: let the event loop run (progress reports, the job's lock renewal)
        if (Date.now() - breathed > BREATHE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          breathed = Date.now();
        }
      }
    }
    if (tiles === 0) {
      await writer.abort();
      return null;
    }
    const summary = await writer.finish({ metadata: options.metadata });
    return { minzoom: summary.minZoom, maxzoom: summary.maxZoom, tiles, bytes: summary.bytes, tiles_per_zoom: perZoom };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

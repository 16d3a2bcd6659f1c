/**
 * The uploaded overlay of the serving-cost benchmark: the demo basemap's tiles around downtown
 * Vancouver at zoom 12–14 (the 32 kB tile 14/2588/5606 among them), written as a PMTiles archive
 * with the basemap's metadata, small enough for the 5 MB upload limit.
 */
import path from 'node:path';
import { TileArchive } from '../../engines/tiles/pmtiles/archive-reader.ts';
import { PMTilesWriter } from '../../engines/tiles/pmtiles/writer.ts';

export async function writeUploadArchive(basemapArchive: string, dir: string): Promise<string> {
  const source = await TileArchive.open(basemapArchive);
  const file = path.join(dir, 'downtown.pmtiles');
  const writer = await PMTilesWriter.create(file);
  try {
    for (let z = 12; z <= 14; z++) {
      const scale = 2 ** (14 - z);
      for (let x = Math.floor(2584 / scale); x <= Math.floor(2592 / scale); x++) {
        for (let y = Math.floor(5602 / scale); y <= Math.floor(5610 / scale); y++) {
          const bytes = await source.tile(z, x, y);
          if (bytes) await writer.addTile(z, x, y, bytes);
        }
      }
    }
    await writer.finish({ metadata: (await source.metadata()) as Record<string, unknown> });
    return file;
  } finally {
    await source.close();
  }
}

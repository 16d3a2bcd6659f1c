import path from 'node:path';
import type { KindOpener } from '../../releases/reader.ts';
import { BASEMAP_ARCHIVE, BASEMAP_KIND } from '../../schemas/basemap-release.ts';
import type { HotTiles } from '../tiles/hot-tiles.ts';
import { TileArchive } from '../tiles/pmtiles/archive-reader.ts';

/** An enabled basemap release: its id names the tiles' content (ETag). */
export interface Basemap {
  id: string;
  archive: TileArchive;
}

/** The release-kind opener the API's release store uses for kind 'basemap'; its archive shares `hot`. */
export const basemapOpener = (hot: HotTiles): KindOpener<Basemap> => ({
  kind: BASEMAP_KIND,
  open: async (dir, manifest) => ({ id: manifest.id, archive: await TileArchive.open(path.join(dir, BASEMAP_ARCHIVE), hot) }),
  close: (basemap) => basemap.archive.close(),
});

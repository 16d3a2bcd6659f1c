import type { KindOpener } from '../../releases/reader.ts';
import { CATALOG_KIND } from '../../schemas/catalog-release.ts';
import type { HotTiles } from '../tiles/hot-tiles.ts';
import { Catalog } from './catalog.ts';

/** The release-kind opener the API's release store uses for kind 'catalog'; its archives share `hot`. */
export const catalogOpener = (hot: HotTiles): KindOpener<Catalog> => ({
  kind: CATALOG_KIND,
  open: (dir, manifest) => Catalog.open(dir, manifest.id, hot),
  close: (catalog) => catalog.close(),
});

import type { KindOpener } from '../../releases/reader.ts';
import { CATALOG_KIND } from '../../schemas/catalog-release.ts';
import { Catalog } from './catalog.ts';

/** The release-kind opener the API's release store uses for kind 'catalog'. */
export const catalogOpener: KindOpener<Catalog> = {
  kind: CATALOG_KIND,
  open: (dir, manifest) => Catalog.open(dir, manifest.id),
  close: (catalog) => catalog.close(),
};

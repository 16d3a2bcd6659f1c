import { Type, type Static } from '@sinclair/typebox';
import { CatalogRow } from './catalog-api.ts';

/** Layout of a catalog release directory (written by ingest/catalog, read by engines/catalog). */
export const CATALOG_KIND = 'catalog';
export const CATALOG_SCHEMA_VERSION = 1;
/** The layers of the release: their rows and what the API may do with each. */
export const CATALOG_FILE = 'catalog.json';
/** `<archive id>.pmtiles`, one per catalogued archive that has data. */
export const ARCHIVES_DIR = 'archives';
/** The feature stores of identify-capable and queryable layers (engines/catalog/feature-store-format.ts). */
export const FEATURES_DIR = 'features';

export const CatalogLayerEntry = Type.Object({
  row: CatalogRow,
  identify: Type.Boolean(),
  query: Type.Boolean(),
  /** Archive ids whose file this release holds (a catalogued archive may have none yet: 404). */
  built_archives: Type.Array(Type.String()),
  features: Type.Integer({ minimum: 0 }),
});
export type CatalogLayerEntry = Static<typeof CatalogLayerEntry>;

export const CatalogFile = Type.Object({ layers: Type.Array(CatalogLayerEntry) });
export type CatalogFile = Static<typeof CatalogFile>;

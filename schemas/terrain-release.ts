import { Type, type Static } from '@sinclair/typebox';

/** Layout of a terrain release directory (written by ingest/terrain, read by engines/terrain/release.ts). */
export const TERRAIN_KIND = 'terrain';
export const TERRAIN_SCHEMA_VERSION = 1;
/** What the release holds: its DEM tiles and archives (TerrainFile). */
export const TERRAIN_FILE = 'terrain.json';
/** Terrarium PNG tiles z0–12 (PMTiles, tile type png, stored uncompressed). */
export const TERRARIUM_ARCHIVE = 'terrarium.pmtiles';
/** Contour vector tiles z9–13 (PMTiles, gzip MVT, source layer `contours`). */
export const CONTOURS_ARCHIVE = 'contours.pmtiles';
/** The DEM tiles the archives were made from, `<SRTM name>.hgt.gz`: /elevation samples these. */
export const DEM_DIR = 'dem';

export const TERRARIUM_ZOOMS = { min: 0, max: 12 } as const;
export const CONTOUR_ZOOMS = { min: 9, max: 13 } as const;
/** The contour archive's one source layer (engines/styles/extra-layers.ts draws it). */
export const CONTOURS_LAYER = 'contours';

export const DemTileEntry = Type.Object({
  name: Type.String({ pattern: '^[NS]\\d{2}[EW]\\d{3}$', description: 'SRTM tile name: its south-west corner' }),
  /** Relative to the release directory. */
  file: Type.String(),
  posts: Type.Integer({ description: 'posts per side: 3601 (1″) or 1201 (3″)' }),
  void_fraction: Type.Number({ minimum: 0, maximum: 1 }),
});
export type DemTileEntry = Static<typeof DemTileEntry>;

export const TerrainArchiveEntry = Type.Object({
  file: Type.String(),
  minzoom: Type.Integer({ minimum: 0 }),
  maxzoom: Type.Integer({ minimum: 0 }),
  tiles: Type.Integer({ minimum: 1 }),
});
export type TerrainArchiveEntry = Static<typeof TerrainArchiveEntry>;

export const TerrainFile = Type.Object({
  dem: Type.Array(DemTileEntry, { minItems: 1 }),
  /** Null when the DEM has no height anywhere (every post void). */
  terrarium: Type.Union([TerrainArchiveEntry, Type.Null()]),
  /** Null when the DEM draws no contour line at any contour zoom (flat or all void). */
  contours: Type.Union([TerrainArchiveEntry, Type.Null()]),
});
export type TerrainFile = Static<typeof TerrainFile>;

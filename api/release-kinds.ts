import type { Config } from '../lib/config.ts';
import type { KindOpener } from '../releases/reader.ts';
import type { HotTiles } from '../engines/tiles/hot-tiles.ts';
import { assetsOpener } from '../engines/assets/release.ts';
import { basemapOpener } from '../engines/basemap/release.ts';
import { catalogOpener } from '../engines/catalog/release.ts';
import { energyOpener } from '../engines/energy/release.ts';
import { parcelsOpener } from '../engines/parcels/release.ts';
import { roadsOpener } from '../engines/routing/release.ts';
import { geocodingOpener } from '../engines/geocoding/release.ts';
import { terrainOpener } from '../engines/terrain/release.ts';
import { transitOpener } from '../engines/transit/release.ts';

/**
 * The release kinds the API serves: api/server.ts registers each opener with the ReleaseStore.
 * Add one import and one entry per kind (e.g. the transit opener). The tile archives of every kind
 * share `hot`, the process's TILE_CACHE_MB.
 */
export const releaseKinds = (config: Config, hot: HotTiles): KindOpener<unknown>[] => [
  transitOpener(config.transitRoutingFeed),
  geocodingOpener,
  catalogOpener(hot),
  basemapOpener(hot),
  terrainOpener(hot),
  roadsOpener,
  assetsOpener,
  energyOpener,
  parcelsOpener,
];

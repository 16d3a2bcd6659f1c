import type { OverlayCaller } from '../byod/index.ts';
import type { TileUrlOrigin } from '../../engines/tiles/tile-url.ts';
import type { TileJson } from '../../schemas/tiles-api.ts';
import type { ServiceDeps } from '../deps.ts';
import { basemapTileJson } from './basemap-tilejson.ts';
import { styleOverlays, type StyleOverlays } from './style-overlays.ts';

export type { StyleOverlays } from './style-overlays.ts';

/**
 * Maps: what style documents are built from beyond the request itself. Basemap and overlay tile
 * bytes stay on their lean handler paths (api/routes/basemap, api/routes/catalog/layer-tile.ts).
 */
export interface MapsService {
  /** The catalog layers and the caller's uploads a style's `overlays`/`profile` may name; 404 for an upload not the caller's. */
  styleOverlays(caller: OverlayCaller | null, overlays: string | undefined, profile: string | undefined): Promise<StyleOverlays>;
  /** The basemap's TileJSON 3.0.0, its tile URLs at `origin`; 503 while no basemap is served. */
  basemapTileJson(origin: TileUrlOrigin): Promise<TileJson>;
}

export function createMapsService(deps: ServiceDeps): MapsService {
  return {
    styleOverlays: (caller, overlays, profile) => styleOverlays(deps, caller, overlays, profile),
    basemapTileJson: (origin) => basemapTileJson(deps, origin),
  };
}

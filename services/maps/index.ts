import type { OverlayCaller } from '../byod/index.ts';
import type { TileUrlOrigin } from '../../engines/tiles/tile-url.ts';
import type { ElevationPointResponse, ElevationProfileResponse } from '../../schemas/elevation-api.ts';
import type { TileJson } from '../../schemas/tiles-api.ts';
import type { ServiceDeps } from '../deps.ts';
import { basemapTileJson } from './basemap-tilejson.ts';
import { elevation, type ElevationRequest } from './elevation.ts';
import { styleOverlays, type StyleOverlays } from './style-overlays.ts';

export type { StyleOverlays } from './style-overlays.ts';
export type { ElevationRequest } from './elevation.ts';

/**
 * Maps: what style documents are built from beyond the request itself, and heights from the
 * terrain DEM. Basemap and overlay tile bytes stay on their lean handler paths
 * (api/routes/basemap, api/routes/catalog/layer-tile.ts).
 */
export interface MapsService {
  /** The catalog layers and the caller's uploads a style's `overlays`/`profile` may name; 404 for an upload not the caller's. */
  styleOverlays(caller: OverlayCaller | null, overlays: string | undefined, profile: string | undefined): Promise<StyleOverlays>;
  /** The basemap's TileJSON 3.0.0, its tile URLs at `origin`; 503 while no basemap is served. */
  basemapTileJson(origin: TileUrlOrigin): Promise<TileJson>;
  /** GET /elevation's answer: the height at a point or a profile along a path; 404 when no terrain is configured. */
  elevation(asked: ElevationRequest): Promise<ElevationPointResponse | ElevationProfileResponse>;
}

export function createMapsService(deps: ServiceDeps): MapsService {
  return {
    styleOverlays: (caller, overlays, profile) => styleOverlays(deps, caller, overlays, profile),
    basemapTileJson: (origin) => basemapTileJson(deps, origin),
    elevation: (asked) => elevation(deps, asked),
  };
}

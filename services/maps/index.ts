import type { OverlayCaller } from '../byod/index.ts';
import type { ServiceDeps } from '../deps.ts';
import { styleOverlays, type StyleOverlays } from './style-overlays.ts';

export type { StyleOverlays } from './style-overlays.ts';

/**
 * Maps: what style documents are built from beyond the request itself. Basemap and overlay tile
 * bytes stay on their lean handler paths (api/routes/basemap, api/routes/catalog/layer-tile.ts).
 */
export interface MapsService {
  /** The catalog layers and the caller's uploads a style's `overlays`/`profile` may name; 404 for an upload not the caller's. */
  styleOverlays(caller: OverlayCaller | null, overlays: string | undefined, profile: string | undefined): Promise<StyleOverlays>;
}

export function createMapsService(deps: ServiceDeps): MapsService {
  return {
    styleOverlays: (caller, overlays, profile) => styleOverlays(deps, caller, overlays, profile),
  };
}

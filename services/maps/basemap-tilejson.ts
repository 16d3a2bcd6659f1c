import type { Basemap } from '../../engines/basemap/release.ts';
import { buildTileJson } from '../../engines/tiles/tilejson.ts';
import { tileUrlTemplate, type TileUrlOrigin } from '../../engines/tiles/tile-url.ts';
import { BASEMAP_KIND, BASEMAP_SERVED_MAX_ZOOM } from '../../schemas/basemap-release.ts';
import type { TileJson } from '../../schemas/tiles-api.ts';
import type { ServiceDeps } from '../deps.ts';

/** The TileJSON of the enabled basemap (503 while none is): its archive's header and metadata, at GET /tiles/{z}/{x}/{y}. */
export function basemapTileJson(deps: ServiceDeps, origin: TileUrlOrigin): Promise<TileJson> {
  return deps.releases.use(BASEMAP_KIND, async (basemap: Basemap) => {
    const { header } = basemap.archive;
    return buildTileJson({
      tiles: tileUrlTemplate(origin.baseUrl, 'tiles', origin.key),
      archive: { header, metadata: await basemap.archive.metadata() },
      maxzoom: Math.min(header.maxZoom, BASEMAP_SERVED_MAX_ZOOM),
    });
  });
}

import type { BBoxTuple, Catalog, LayerFeatureResult } from '../../engines/catalog/catalog.ts';
import { RETIRED_LAYERS } from '../../engines/catalog/retired.ts';
import { buildTileJson } from '../../engines/tiles/tilejson.ts';
import { tileUrlTemplate, type TileUrlOrigin } from '../../engines/tiles/tile-url.ts';
import type { Checked } from '../../lib/checked.ts';
import { errors } from '../../lib/errors.ts';
import type { CatalogRow } from '../../schemas/catalog-api.ts';
import { CATALOG_KIND } from '../../schemas/catalog-release.ts';
import type { TileJson } from '../../schemas/tiles-api.ts';
import type { ServiceDeps } from '../deps.ts';

/** Picks the identify layers from the request once the catalog's are known (api/params/catalog.ts). */
export type IdentifyLayersCheck = (allowed: readonly string[], catalogued: (id: string) => boolean) => Checked<string[]>;

export interface DataQueryRequest {
  layer: string | undefined;
  /** Checked only after the layer is: a bad layer is what a request with both wrong hears of. */
  bbox: Checked<BBoxTuple>;
  limit: Checked<number>;
  withGeometry: boolean;
}

export interface CatalogService {
  rows(): Promise<CatalogRow[]>;
  /** One row; 410 for a retired layer, 404 for an unknown one. */
  layer(id: string): Promise<CatalogRow>;
  /** The layer's TileJSON 3.0.0, its tile URLs at `origin`; 410 retired, 404 unknown or without an archive. */
  tileJson(id: string, origin: TileUrlOrigin): Promise<TileJson>;
  identify(point: { lng: number; lat: number }, layers: IdentifyLayersCheck, withGeometry: boolean): Promise<{ at: [number, number]; results: LayerFeatureResult[] }>;
  query(request: DataQueryRequest): Promise<{ layer: string; bbox: BBoxTuple; results: LayerFeatureResult[] }>;
}

/** The layer catalog of volume 3 over the enabled 'catalog' release (503 while none is). */
export function createCatalogService(deps: ServiceDeps): CatalogService {
  const use = <T>(fn: (catalog: Catalog) => Promise<T>) => deps.releases.use(CATALOG_KIND, fn);
  return {
    rows: () => use(async (catalog) => catalog.rows()),
    layer(id) {
      const replacement = RETIRED_LAYERS.get(id);
      if (replacement) throw errors.layerRetired(id, replacement);
      return use(async (catalog) => {
        const entry = catalog.layer(id);
        if (!entry) throw errors.unknownLayer(id);
        return entry.row;
      });
    },
    tileJson(id, origin) {
      const replacement = RETIRED_LAYERS.get(id);
      if (replacement) throw errors.layerRetired(id, replacement);
      return use(async (catalog) => {
        const entry = catalog.layer(id);
        if (!entry) throw errors.unknownLayer(id);
        const band = entry.row.archives[0];
        const archive = band && catalog.archive(band.id);
        if (!band || !archive) throw errors.notFound(`layer ${id} has no tile archive yet`);
        return buildTileJson({
          tiles: tileUrlTemplate(origin.baseUrl, `layers/${encodeURIComponent(id)}`, origin.key),
          archive: { header: archive.header, metadata: await archive.metadata() },
          attribution: entry.row.attribution,
          minzoom: band.minzoom,
          maxzoom: band.maxzoom,
        });
      });
    },
    identify: (point, pickLayers, withGeometry) => use(async (catalog) => {
      const layers = pickLayers(catalog.layerIds('identify'), (id) => catalog.layer(id) !== undefined);
      if (!layers.ok) throw errors.badRequest(layers.error);
      const { lng, lat } = point;
      const results = await catalog.identify(layers.value, lng, lat, withGeometry);
      return { at: [lng, lat] as [number, number], results };
    }),
    query: ({ layer, bbox, limit, withGeometry }) => use(async (catalog) => {
      const queryable = catalog.layerIds('query');
      if (layer === undefined || layer === '') throw errors.badRequest(`layer is required: one of ${queryable.join(', ')}`);
      const entry = catalog.layer(layer);
      if (!entry) throw errors.badRequest(`unknown layer ${JSON.stringify(layer)}; queryable layers: ${queryable.join(', ')}`);
      if (!entry.query) throw errors.tileOnlyLayer(layer, queryable);
      if (!bbox.ok) throw errors.badRequest(bbox.error);
      if (!limit.ok) throw errors.badRequest(limit.error);
      const results = await catalog.query(layer, bbox.value, limit.value, withGeometry);
      return { layer, bbox: bbox.value, results };
    }),
  };
}

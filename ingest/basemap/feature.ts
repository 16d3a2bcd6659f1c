/** A feature of the basemap's Protomaps-schema source layers, on its way to the tiler. */

export const BASEMAP_LAYERS = ['earth', 'water', 'landcover', 'landuse', 'roads', 'boundaries', 'buildings', 'places', 'pois'] as const;
export type BasemapLayer = (typeof BASEMAP_LAYERS)[number];

export const BASEMAP_MAX_ZOOM = 14;

export type BasemapProperties = Record<string, string | number | boolean>;

export interface BasemapFeature {
  layer: BasemapLayer;
  /** First zoom the feature is in the tiles (also its `min_zoom` attribute, which the styles read). */
  minZoom: number;
  /** Last zoom it is in the tiles (coarse layers give way to detailed ones). */
  maxZoom?: number;
  properties: BasemapProperties;
  geometry: GeoJSON.Geometry;
}

/** What a tag rule decides about an OSM object: the feature's class attributes, zoom and extras. */
export interface Classified {
  kind: string;
  kindDetail?: string;
  minZoom: number;
  sortRank?: number;
  extra?: BasemapProperties;
}

export function feature(layer: BasemapLayer, c: Classified, geometry: GeoJSON.Geometry, names: BasemapProperties = {}): BasemapFeature {
  const properties: BasemapProperties = { kind: c.kind, min_zoom: c.minZoom, ...names, ...c.extra };
  if (c.kindDetail !== undefined) properties.kind_detail = c.kindDetail;
  if (c.sortRank !== undefined) properties.sort_rank = c.sortRank;
  return { layer, minZoom: c.minZoom, properties, geometry };
}

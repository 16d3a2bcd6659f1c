import { gzipSync } from 'node:zlib';
import { GeoJSONVT, type GeoJSONVTFeature, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { zxyToTileId } from './pmtiles/tile-id.ts';
import type { PMTilesWriter } from './pmtiles/writer.ts';

/**
 * Our vector tiler: GeoJSON features per source layer → MVT tiles (geojson-vt slicing and
 * simplification, vt-pbf encoding, gzip) → a PMTiles archive. Tiles are made zoom by zoom, every
 * layer's tiles of one zoom together, and written in tile-id order (a clustered archive).
 * Tippecanoe-like controls per layer: zoom range, attribute include/exclude, simplification; per
 * feature: `tippecanoe: {minzoom, maxzoom}` as in tippecanoe's GeoJSON.
 */

export const TILE_EXTENT = 4096;
const TILE_BUFFER = 64;
const MIN_ZOOM_KEY = '\u0000minzoom';
const MAX_ZOOM_KEY = '\u0000maxzoom';

export interface LayerSpec {
  /** The source layer's name in the tiles. */
  id: string;
  minZoom: number;
  maxZoom: number;
  /** Only these properties are kept (every one when absent). */
  include?: readonly string[];
  /** These properties are dropped. */
  exclude?: readonly string[];
  /** geojson-vt simplification tolerance, in tile units of a 4096 extent / 16 (default 3; 0 keeps every vertex). */
  simplification?: number;
}

export type TilerFeature = GeoJSON.Feature & { tippecanoe?: { minzoom?: number; maxzoom?: number } };

export interface TilerLayer {
  spec: LayerSpec;
  features: readonly TilerFeature[];
}

export interface VectorLayerMetadata {
  id: string;
  fields: Record<string, 'String' | 'Number' | 'Boolean'>;
  minzoom: number;
  maxzoom: number;
}

export interface TilingReport {
  /** Per zoom: tiles written and features in them (all layers). */
  zooms: { zoom: number; tiles: number; features: number }[];
  vectorLayers: VectorLayerMetadata[];
}

function keep(spec: LayerSpec, name: string): boolean {
  return (!spec.include || spec.include.includes(name)) && !spec.exclude?.includes(name);
}

/** The layer's features with filtered properties and their zoom band carried as hidden properties. */
function prepare(layer: TilerLayer, fields: VectorLayerMetadata['fields']): GeoJSON.FeatureCollection {
  const features = layer.features.map((f) => {
    const properties: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(f.properties ?? {})) {
      if (!keep(layer.spec, name) || value === null || value === undefined) continue;
      properties[name] = value;
      const type = typeof value === 'number' ? 'Number' : typeof value === 'boolean' ? 'Boolean' : 'String';
      fields[name] ??= type;
    }
    if (f.tippecanoe?.minzoom !== undefined) properties[MIN_ZOOM_KEY] = f.tippecanoe.minzoom;
    if (f.tippecanoe?.maxzoom !== undefined) properties[MAX_ZOOM_KEY] = f.tippecanoe.maxzoom;
    return { type: 'Feature' as const, geometry: f.geometry, properties, ...(f.id !== undefined ? { id: f.id } : {}) };
  });
  return { type: 'FeatureCollection', features };
}

/** The tile's features that belong at zoom z, without the hidden zoom properties. */
function atZoom(features: readonly GeoJSONVTFeature[], z: number): GeoJSONVTFeature[] {
  const out: GeoJSONVTFeature[] = [];
  for (const f of features) {
    const tags = f.tags as Record<string, unknown> | null;
    if (!tags || (!(MIN_ZOOM_KEY in tags) && !(MAX_ZOOM_KEY in tags))) {
      out.push(f);
      continue;
    }
    const { [MIN_ZOOM_KEY]: min, [MAX_ZOOM_KEY]: max, ...rest } = tags;
    if ((typeof min === 'number' && z < min) || (typeof max === 'number' && z > max)) continue;
    out.push({ ...f, tags: rest } as GeoJSONVTFeature);
  }
  return out;
}

export async function writeTiles(layers: readonly TilerLayer[], writer: PMTilesWriter): Promise<TilingReport> {
  const indexes = layers.map((layer) => {
    const fields: VectorLayerMetadata['fields'] = {};
    const index = new GeoJSONVT(prepare(layer, fields), {
      maxZoom: layer.spec.maxZoom,
      indexMaxZoom: Math.min(5, layer.spec.maxZoom),
      tolerance: layer.spec.simplification ?? 3,
      extent: TILE_EXTENT,
      buffer: TILE_BUFFER,
    });
    return { spec: layer.spec, index, fields, frontier: [[0, 0]] as [number, number][] };
  });
  const report: TilingReport = {
    zooms: [],
    vectorLayers: indexes.map(({ spec, fields }) => ({ id: spec.id, fields, minzoom: spec.minZoom, maxzoom: spec.maxZoom })),
  };
  const deepest = Math.max(...layers.map((l) => l.spec.maxZoom));
  for (let z = 0; z <= deepest; z += 1) {
    const tiles = new Map<number, { x: number; y: number; layers: Record<string, GeoJSONVTTile> }>();
    for (const layer of indexes) {
      if (z > layer.spec.maxZoom) continue;
      const next: [number, number][] = [];
      for (const [x, y] of layer.frontier) {
        const tile = layer.index.getTile(z, x, y);
        if (!tile || tile.features.length === 0) continue;
        next.push([2 * x, 2 * y], [2 * x + 1, 2 * y], [2 * x, 2 * y + 1], [2 * x + 1, 2 * y + 1]);
        if (z < layer.spec.minZoom) continue;
        const features = atZoom(tile.features, z);
        if (features.length === 0) continue;
        const id = zxyToTileId(z, x, y);
        const entry = tiles.get(id) ?? { x, y, layers: {} };
        entry.layers[layer.spec.id] = { ...tile, features };
        tiles.set(id, entry);
      }
      layer.frontier = next;
    }
    let features = 0;
    for (const id of [...tiles.keys()].sort((a, b) => a - b)) {
      const { x, y, layers: tileLayers } = tiles.get(id)!;
      features += Object.values(tileLayers).reduce((n, t) => n + t.features.length, 0);
      await writer.addTile(z, x, y, gzipSync(fromGeojsonVt(tileLayers, { version: 2, extent: TILE_EXTENT })));
    }
    if (tiles.size) report.zooms.push({ zoom: z, tiles: tiles.size, features });
  }
  return report;
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ARCHIVES_DIR, CatalogFile, CATALOG_FILE, FEATURES_DIR, type CatalogLayerEntry } from '../../schemas/catalog-release.ts';
import type { CatalogRow } from '../../schemas/catalog-api.ts';
import { TileArchive } from '../tiles/pmtiles/archive-reader.ts';
import { HotTiles, NO_HOT_TILES } from '../tiles/hot-tiles.ts';
import { geometryContains, geometryTouchesBox, toGeoJson } from './geometry-codec.ts';
import { FeatureStore, type StoredFeature } from './feature-store.ts';

export type BBoxTuple = [number, number, number, number];

/** One identify or query result: `{layer, id, name, province}`, the layer's fields, geometry on request. */
export type LayerFeatureResult = { layer: string; id: string; name: string; province: string; geometry?: GeoJSON.Geometry } & Record<string, unknown>;

/** Records read at a time while filling a query's limit. */
const QUERY_BATCH = 64;

function result(layer: string, feature: StoredFeature, withGeometry: boolean): LayerFeatureResult {
  const { id, name, province, ...fields } = feature.properties;
  return { layer, id, name, province, ...fields, ...(withGeometry ? { geometry: toGeoJson(feature.geometry) } : {}) };
}

/** An open catalog release: rows, tile archives and feature stores. */
export class Catalog {
  private constructor(
    readonly releaseId: string,
    private readonly entries: ReadonlyMap<string, CatalogLayerEntry>,
    private readonly archives: ReadonlyMap<string, TileArchive>,
    private readonly stores: ReadonlyMap<string, FeatureStore>,
  ) {}

  static async open(dir: string, releaseId: string, hot: HotTiles = NO_HOT_TILES): Promise<Catalog> {
    const raw = JSON.parse(await readFile(path.join(dir, CATALOG_FILE), 'utf8')) as unknown;
    const problem = Value.Errors(CatalogFile, raw).First();
    if (problem) throw new Error(`${CATALOG_FILE} does not match its schema: ${problem.path} ${problem.message}`);
    const file = raw as CatalogFile;
    const archives = new Map<string, TileArchive>();
    const stores = new Map<string, FeatureStore>();
    try {
      for (const entry of file.layers) {
        for (const id of entry.built_archives) archives.set(id, await TileArchive.open(path.join(dir, ARCHIVES_DIR, `${id}.pmtiles`), hot));
        if (entry.identify || entry.query) stores.set(entry.row.id, await FeatureStore.open(path.join(dir, FEATURES_DIR), entry.row.id));
      }
    } catch (err) {
      await Promise.allSettled([...archives.values(), ...stores.values()].map((r) => r.close()));
      throw err;
    }
    return new Catalog(releaseId, new Map(file.layers.map((e) => [e.row.id, e])), archives, stores);
  }

  rows(): CatalogRow[] {
    return [...this.entries.values()].map((e) => e.row);
  }

  layer(id: string): CatalogLayerEntry | undefined {
    return this.entries.get(id);
  }

  /** Ids of the layers /identify or /data/query serves, in catalog order. */
  layerIds(capability: 'identify' | 'query'): string[] {
    return [...this.entries.values()].filter((e) => e[capability]).map((e) => e.row.id);
  }

  /** The archive's tile bytes as stored (gzip MVT), or null: no archive, outside its zooms, or no tile there. */
  async tile(archiveId: string, z: number, x: number, y: number): Promise<Buffer | null> {
    return (await this.archives.get(archiveId)?.tile(z, x, y)) ?? null;
  }

  /** An archive of the release (its header and metadata describe its tiles), or undefined when not built. */
  archive(archiveId: string): TileArchive | undefined {
    return this.archives.get(archiveId);
  }

  hasArchive(archiveId: string): boolean {
    return this.archives.has(archiveId);
  }

  /** Polygons of each layer (in the order given) that contain the point, edges included. */
  async identify(layers: readonly string[], lng: number, lat: number, withGeometry: boolean): Promise<LayerFeatureResult[]> {
    const results: LayerFeatureResult[] = [];
    for (const layer of layers) {
      const store = this.stores.get(layer);
      if (!store) continue;
      const candidates = await Promise.all(store.search(lng, lat, lng, lat).map((i) => store.read(i)));
      for (const feature of candidates) if (geometryContains(feature.geometry, lng, lat)) results.push(result(layer, feature, withGeometry));
    }
    return results;
  }

  /** Up to limit features of the layer meeting the box, in the build's order. */
  async query(layer: string, bbox: BBoxTuple, limit: number, withGeometry: boolean): Promise<LayerFeatureResult[]> {
    const store = this.stores.get(layer);
    if (!store) return [];
    const candidates = store.search(...bbox);
    const results: LayerFeatureResult[] = [];
    for (let start = 0; start < candidates.length && results.length < limit; start += QUERY_BATCH) {
      const batch = await Promise.all(candidates.slice(start, start + QUERY_BATCH).map((i) => store.read(i)));
      for (const feature of batch) {
        if (results.length === limit) break;
        if (geometryTouchesBox(feature.geometry, bbox)) results.push(result(layer, feature, withGeometry));
      }
    }
    return results;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.archives.values(), ...this.stores.values()].map((r) => r.close()));
  }
}

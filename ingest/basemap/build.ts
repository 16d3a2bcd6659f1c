/**
 * The basemap archive: OSM detail plus the coarse national layers, tiled z0–14 into one PMTiles
 * archive in the Protomaps basemap schema. Natural Earth land is the `earth` of z0–8 over the
 * whole region. At z9–14 the earth inside the OSM extract is the land its coastlines enclose
 * (coastline.ts; Natural Earth's when the extract has no complete coast), and Natural Earth's in
 * a margin around it that fills a city view centred on the extract; beyond, the detailed zooms
 * have no data, so they have no tiles. There are no sea polygons: the styles' background is the sea.
 */
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import type { Box } from '../../lib/geo/clip-box.ts';
import { tileToArchive, type LayerSpec, type TilerFeature, type TilingProgress, type TilingReport } from '../../engines/tiles/tiler.ts';
import type { ArchiveSummary } from '../../engines/tiles/pmtiles/writer.ts';
import { countryFeatures, landFeatures, NATURAL_EARTH_ATTRIBUTION } from './coarse-land.ts';
import { GEONAMES_ATTRIBUTION, localityFeatures } from './coarse-localities.ts';
import { provinceFeatures, readProvinces } from './coarse-provinces.ts';
import { coastLand } from './coastline.ts';
import { BASEMAP_LAYERS, BASEMAP_MAX_ZOOM, feature, type BasemapFeature, type BasemapLayer } from './feature.ts';
import { FeatureLists } from './feature-lists.ts';
import { FeatureSpool } from './feature-spool.ts';
import { readOsmLayers, type OsmLayers } from './osm-layers.ts';

/** Canada with its neighbours' edges: the coarse layers are cut to this. */
export const CANADA_REGION: Box = [-145, 40, -50, 84];
const COARSE_EARTH_MAX_ZOOM = 8;
/** Degrees of land drawn at z9–14 around the OSM extract: about half a z11 view. */
const DETAIL_MARGIN = 0.3;

export const OSM_ATTRIBUTION = '© OpenStreetMap contributors (ODbL)';

export interface BasemapSources {
  pbf: string;
  provinces: string;
}

export interface BasemapBuild {
  report: TilingReport & { archive: ArchiveSummary };
  /** Features per source layer. */
  features: Record<BasemapLayer, number>;
  /** OSM objects whose geometry could not be built (clipped at the extract's edge). */
  skippedOsm: number;
  osmBounds: Box;
  /** Where the extract's land at z9–14 comes from. */
  coast: string;
  /** Disk the streamed build used before tiling: node and way tables, feature spool (0 in memory). */
  scratchBytes: { tables: number; spool: number };
}

const SIMPLIFICATION: Partial<Record<BasemapLayer, LayerSpec['simplification']>> = {
  earth: { 0: 2, 9: 1 }, water: { 0: 2, 12: 1 }, buildings: 1, boundaries: 2,
};

/** Where Natural Earth is the detailed zooms' land: the margin around the extract, and the extract itself unless its coast is known. */
function detailBoxes([w, s, e, n]: Box, coastKnown: boolean): Box[] {
  const m = DETAIL_MARGIN;
  if (!coastKnown) return [[w - m, s - m, e + m, n + m]];
  return [[w - m, n, e + m, n + m], [w - m, s - m, e + m, s], [w - m, s, w, n], [e, s, e + m, n]];
}

function tilerFeature(f: BasemapFeature): TilerFeature {
  return {
    type: 'Feature',
    properties: f.properties,
    geometry: f.geometry,
    tippecanoe: { minzoom: Math.min(f.minZoom, BASEMAP_MAX_ZOOM), maxzoom: f.maxZoom ?? BASEMAP_MAX_ZOOM },
  };
}

export interface BasemapBuildOptions {
  /** What the build may hold in memory (MiB): an eighth for node pages, an eighth for tiling in memory. */
  memoryMb: number;
  /**
   * `streamed` (the default): nodes, ways and features on disk in `workDir`, memory bounded by
   * `memoryMb` whatever the extract's size. `in-memory`: the extract's nodes and features held
   * in arrays, as before the streamed read (the same tiles; kept as its reference).
   */
  mode?: 'streamed' | 'in-memory';
  onProgress?: (fraction: number, message: string) => void;
}

const NODE_CACHE_SHARE = 1 / 8;
const TILING_SHARE = 1 / 8;
/** The tiler's in-memory cap in features, per MiB of its byte cap (its defaults: 250,000 for 256 MiB). */
const TILING_FEATURES_PER_MIB = 1000;

export async function buildBasemap(sources: BasemapSources, archivePath: string, workDir: string, options: BasemapBuildOptions): Promise<BasemapBuild> {
  const onProgress = options.onProgress ?? (() => {});
  const budget = options.memoryMb * 1024 * 1024;
  await mkdir(workDir, { recursive: true });
  const streamed = options.mode !== 'in-memory';
  const store = streamed ? new FeatureSpool(workDir) : new FeatureLists();
  try {
    const osm = await readOsmLayers(sources.pbf, store, {
      ...(streamed ? { streamed: { dir: workDir, nodeCacheBytes: Math.floor(budget * NODE_CACHE_SHARE) } } : {}),
      onProgress: (f, m) => onProgress(f * 0.4, m),
    });
    const { coarse, coast } = await coarseFeatures(osm, sources.provinces);
    onProgress(0.45, `${store.count + coarse.count} features; tiling`);

    const tilingBytes = Math.floor(budget * TILING_SHARE);
    const counts = Object.fromEntries(BASEMAP_LAYERS.map((l) => [l, 0])) as Record<BasemapLayer, number>;
    function* layerFeatures(layer: BasemapLayer): Generator<TilerFeature> {
      for (const f of store.read(layer)) {
        counts[layer] += 1;
        yield tilerFeature(f);
      }
      for (const f of coarse.read(layer)) {
        counts[layer] += 1;
        yield tilerFeature(f);
      }
    }
    const report = await tileToArchive({
      layers: BASEMAP_LAYERS.map((id) => ({
        spec: { id, minZoom: 0, maxZoom: BASEMAP_MAX_ZOOM, ...(SIMPLIFICATION[id] !== undefined ? { simplification: SIMPLIFICATION[id] } : {}) },
        features: layerFeatures(id),
      })),
      archivePath,
      workDir,
      inMemoryBytes: tilingBytes,
      inMemoryFeatures: Math.floor((tilingBytes / (1024 * 1024)) * TILING_FEATURES_PER_MIB),
      threads: os.availableParallelism(),
      metadata: {
        name: 'canmap basemap',
        description: 'Canada basemap in the Protomaps basemap schema',
        attribution: [OSM_ATTRIBUTION, NATURAL_EARTH_ATTRIBUTION, GEONAMES_ATTRIBUTION].join('; '),
      },
      onProgress: (p) => onProgress(tilingFraction(p), `${p.stage}: ${p.stage === 'reading' ? `${p.features} features` : `${p.tiles} tiles`}`),
    });
    const scratchBytes = { tables: osm.tableBytes, spool: store instanceof FeatureSpool ? store.bytes : 0 };
    return { report, features: counts, skippedOsm: osm.skipped, osmBounds: osm.bounds, coast, scratchBytes };
  } finally {
    store.clear();
  }
}

function tilingFraction(p: TilingProgress): number {
  if (p.stage === 'reading') return 0.45;
  return 0.45 + (p.stage === 'writing' ? 0.5 : 0.45 * Math.min(1, p.tiles / 50_000));
}

/** The national layers of the low zooms, and the land of the detailed zooms (from the extract's coastlines or Natural Earth). */
async function coarseFeatures(osm: OsmLayers, provinces: string): Promise<{ coarse: FeatureLists; coast: string }> {
  const coarse = new FeatureLists();
  const add = (f: BasemapFeature) => coarse.add('way', f);
  for await (const f of landFeatures(CANADA_REGION)) add({ ...f, maxZoom: COARSE_EARTH_MAX_ZOOM });
  const coast = coastLand(osm.coastlines, osm.bounds);
  for (const box of detailBoxes(osm.bounds, coast.ok)) {
    for await (const f of landFeatures(box)) add({ ...f, minZoom: COARSE_EARTH_MAX_ZOOM + 1 });
  }
  if (coast.ok) {
    for (const polygon of coast.polygons) add(feature('earth', { kind: 'earth', minZoom: COARSE_EARTH_MAX_ZOOM + 1 }, { type: 'Polygon', coordinates: polygon }));
  }
  for await (const f of countryFeatures(CANADA_REGION)) add(f);
  for (const f of provinceFeatures(await readProvinces(provinces))) add(f);
  for (const f of localityFeatures(osm.places)) add(f);
  return { coarse, coast: coast.ok ? 'OSM coastline' : `Natural Earth (${coast.reason})` };
}

/**
 * The basemap archive: OSM detail plus the coarse national layers, tiled z0–14 into one PMTiles
 * archive in the Protomaps basemap schema. Natural Earth land is the `earth` of z0–8 over the
 * whole region. At z9–14 the earth inside the OSM extract is the land its coastlines enclose
 * (coastline.ts; Natural Earth's when the extract has no complete coast), and Natural Earth's in
 * a margin around it that fills a city view centred on the extract; beyond, the detailed zooms
 * have no data, so they have no tiles. There are no sea polygons: the styles' background is the sea.
 */
import type { Box } from '../../lib/geo/clip-box.ts';
import { tileToArchive, type LayerSpec, type TilerFeature, type TilingReport } from '../../engines/tiles/tiler.ts';
import type { ArchiveSummary } from '../../engines/tiles/pmtiles/writer.ts';
import { countryFeatures, landFeatures, NATURAL_EARTH_ATTRIBUTION } from './coarse-land.ts';
import { GEONAMES_ATTRIBUTION, localityFeatures } from './coarse-localities.ts';
import { provinceFeatures, readProvinces } from './coarse-provinces.ts';
import { coastLand } from './coastline.ts';
import { BASEMAP_LAYERS, BASEMAP_MAX_ZOOM, feature, type BasemapFeature, type BasemapLayer } from './feature.ts';
import { readOsmLayers } from './osm-layers.ts';

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

function bounds(features: readonly BasemapFeature[]): Box {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (typeof (c as number[])[0] === 'number') {
      const [x, y] = c as number[];
      [w, s, e, n] = [Math.min(w, x!), Math.min(s, y!), Math.max(e, x!), Math.max(n, y!)];
    } else for (const p of c as unknown[]) visit(p);
  };
  for (const f of features) if ('coordinates' in f.geometry) visit(f.geometry.coordinates);
  return [w, s, e, n];
}

function tilerFeature(f: BasemapFeature): TilerFeature {
  return {
    type: 'Feature',
    properties: f.properties,
    geometry: f.geometry,
    tippecanoe: { minzoom: Math.min(f.minZoom, BASEMAP_MAX_ZOOM), maxzoom: f.maxZoom ?? BASEMAP_MAX_ZOOM },
  };
}

export async function buildBasemap(sources: BasemapSources, archivePath: string, workDir: string, onProgress: (fraction: number, message: string) => void): Promise<BasemapBuild> {
  const osm = await readOsmLayers(sources.pbf, (f, m) => onProgress(f * 0.4, m));
  const osmBounds = osm.header.bbox ?? bounds(osm.features);
  const all: BasemapFeature[] = [...osm.features];
  for await (const f of landFeatures(CANADA_REGION)) all.push({ ...f, maxZoom: COARSE_EARTH_MAX_ZOOM });
  const coast = coastLand(osm.coastlines, osmBounds);
  for (const box of detailBoxes(osmBounds, coast.ok)) {
    for await (const f of landFeatures(box)) all.push({ ...f, minZoom: COARSE_EARTH_MAX_ZOOM + 1 });
  }
  if (coast.ok) {
    for (const polygon of coast.polygons) all.push(feature('earth', { kind: 'earth', minZoom: COARSE_EARTH_MAX_ZOOM + 1 }, { type: 'Polygon', coordinates: polygon }));
  }
  for await (const f of countryFeatures(CANADA_REGION)) all.push(f);
  for (const f of provinceFeatures(await readProvinces(sources.provinces))) all.push(f);
  for (const f of localityFeatures(osm.places)) all.push(f);
  onProgress(0.45, `${all.length} features; tiling`);

  const byLayer = new Map<BasemapLayer, TilerFeature[]>(BASEMAP_LAYERS.map((l) => [l, []]));
  for (const f of all) byLayer.get(f.layer)!.push(tilerFeature(f));
  const report = await tileToArchive({
    layers: BASEMAP_LAYERS.map((id) => ({
      spec: { id, minZoom: 0, maxZoom: BASEMAP_MAX_ZOOM, ...(SIMPLIFICATION[id] !== undefined ? { simplification: SIMPLIFICATION[id] } : {}) },
      features: byLayer.get(id)!,
    })),
    archivePath,
    workDir,
    metadata: {
      name: 'canmap basemap',
      description: 'Canada basemap in the Protomaps basemap schema',
      attribution: [OSM_ATTRIBUTION, NATURAL_EARTH_ATTRIBUTION, GEONAMES_ATTRIBUTION].join('; '),
    },
    onProgress: (p) => onProgress(0.45 + (p.stage === 'writing' ? 0.5 : 0.45 * Math.min(1, p.tiles / 50_000)), `${p.stage}: ${p.tiles} tiles`),
  });
  const features = Object.fromEntries(BASEMAP_LAYERS.map((l) => [l, byLayer.get(l)!.length])) as Record<BasemapLayer, number>;
  return { report, features, skippedOsm: osm.skipped, osmBounds, coast: coast.ok ? 'OSM coastline' : `Natural Earth (${coast.reason})` };
}

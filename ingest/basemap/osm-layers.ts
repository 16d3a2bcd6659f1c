/**
 * An OSM extract → basemap features of every source layer, by the tag rules of roads.ts,
 * water.ts, landuse.ts, buildings.ts, pois.ts and places.ts.
 */
import type { Box } from '../../lib/geo/clip-box.ts';
import { readOsmFeatures, type FeatureProgress, type OsmArea, type OsmLine, type OsmPoint } from '../osm/features.ts';
import { UnsortedNodesError } from '../osm/node-table.ts';
import type { OsmFileHeader } from '../osm/pbf-header-block.ts';
import { streamOsmFeatures, type FeatureSink } from '../osm/stream-features.ts';
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import { addressNumber, classifyBuilding } from './buildings.ts';
import { BASEMAP_MAX_ZOOM, feature, type BasemapFeature } from './feature.ts';
import type { BasemapFeatureStore, SpoolGroup } from './feature-store.ts';
import { labelPoint, zoomForArea, type AreaGeometry } from './geometry.ts';
import { classifyLanduse, DRAWN_LANDUSE, landcoverOf } from './landuse.ts';
import { osmNames } from './names.ts';
import { classifyPlace } from './places.ts';
import { classifyPoi, POI_ZOOMS } from './pois.ts';
import { classifyRoad } from './roads.ts';
import { classifyWaterArea, classifyWaterLine, classifyWaterPoint } from './water.ts';

/** Landcover paints the low zooms only; landuse takes over from here. */
const LANDCOVER_MAX_ZOOM = 9;

export interface OsmLayers {
  /** Named localities, for the coarse layer to leave out. */
  places: { name: string; coordinates: GeoJSON.Position }[];
  header: OsmFileHeader;
  /** natural=coastline ways (land on their left), for coastline.ts. */
  coastlines: [number, number][][];
  /** OSM objects whose geometry could not be built. */
  skipped: number;
  /** The header's bbox, or else the features' bounds. */
  bounds: Box;
  /** Bytes of the streamed read's node and way tables; 0 when read in memory. */
  tableBytes: number;
}

const isArea = (t: OsmTags) =>
  classifyWaterArea(t) !== null || classifyLanduse(t) !== null || classifyBuilding(t) !== null || classifyPoi(t) !== null;
const isCoastline = (t: OsmTags) => t.natural === 'coastline';
const isLine = (t: OsmTags) => classifyRoad(t) !== null || classifyWaterLine(t) !== null || isCoastline(t);
const isPoint = (t: OsmTags) => classifyPlace(t) !== null || classifyPoi(t) !== null || classifyWaterPoint(t) !== null || addressNumber(t) !== null;

function* areaFeatures(tags: OsmTags, geometry: AreaGeometry): Generator<BasemapFeature> {
  const names = osmNames(tags);
  const water = classifyWaterArea(tags);
  if (water) {
    yield feature('water', { kind: water, minZoom: zoomForArea(geometry, 4, 4, BASEMAP_MAX_ZOOM), sortRank: 5 }, geometry);
    if (names.name) yield feature('water', { kind: water, minZoom: zoomForArea(geometry, 2048, 6, BASEMAP_MAX_ZOOM) }, { type: 'Point', coordinates: labelPoint(geometry) }, names);
  }
  const landuse = classifyLanduse(tags);
  if (landuse && DRAWN_LANDUSE.has(landuse)) {
    yield feature('landuse', { kind: landuse, minZoom: zoomForArea(geometry, 16, 5, BASEMAP_MAX_ZOOM), sortRank: 10 }, geometry);
  }
  const cover = landuse ? landcoverOf(landuse) : null;
  if (cover) {
    const minZoom = zoomForArea(geometry, 16, 0, LANDCOVER_MAX_ZOOM + 1);
    if (minZoom <= LANDCOVER_MAX_ZOOM) yield { ...feature('landcover', { kind: cover, minZoom }, geometry), maxZoom: LANDCOVER_MAX_ZOOM };
  }
  const building = classifyBuilding(tags);
  if (building) yield feature('buildings', { kind: building.kind, minZoom: zoomForArea(geometry, 16, 12, BASEMAP_MAX_ZOOM), extra: building.extra }, geometry);
  const poi = classifyPoi(tags);
  if (poi) {
    const minZoom = Math.min(POI_ZOOMS[poi]!, zoomForArea(geometry, 4096, 8, POI_ZOOMS[poi]!));
    yield feature('pois', { kind: poi, minZoom }, { type: 'Point', coordinates: labelPoint(geometry) }, names);
  }
}

function* lineFeatures(tags: OsmTags, geometry: GeoJSON.LineString | GeoJSON.MultiLineString): Generator<BasemapFeature> {
  const road = classifyRoad(tags);
  if (road) yield feature('roads', road, geometry, osmNames(tags));
  const water = classifyWaterLine(tags);
  if (water) yield feature('water', water, geometry, osmNames(tags));
}

function* pointFeatures(tags: OsmTags, geometry: GeoJSON.Point): Generator<BasemapFeature> {
  const names = osmNames(tags);
  const place = classifyPlace(tags);
  if (place) yield feature('places', place, geometry, names);
  const poi = classifyPoi(tags);
  if (poi) yield feature('pois', { kind: poi, minZoom: POI_ZOOMS[poi]! }, geometry, names);
  const water = classifyWaterPoint(tags);
  if (water) yield feature('water', water, geometry, names);
  const number = addressNumber(tags);
  if (number) yield feature('buildings', { kind: 'address', minZoom: BASEMAP_MAX_ZOOM, extra: { addr_housenumber: number } }, geometry);
}

export interface ReadLayersOptions {
  /**
   * Read in bounded memory (stream-features.ts), its node and way tables in `dir` with
   * `nodeCacheBytes` of node pages in memory. A file not sorted by type then id is then read in
   * memory after all (readOsmFeatures), which `onProgress` reports.
   */
  streamed?: { dir: string; nodeCacheBytes: number };
  onProgress?: FeatureProgress;
}

/** Every basemap feature of the extract into `store`, in the order of the in-memory read per layer. */
export async function readOsmLayers(pbf: string, store: BasemapFeatureStore, options: ReadLayersOptions = {}): Promise<OsmLayers> {
  const selection = { area: isArea, line: isLine, point: isPoint };
  const layers = new LayerCollector(store);
  if (options.streamed) {
    try {
      const { header, tableBytes } = await streamOsmFeatures(pbf, selection, layers, { ...options.streamed, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
      return { ...layers.result(header), tableBytes };
    } catch (error) {
      if (!(error instanceof UnsortedNodesError)) throw error;
      store.clear();
      layers.reset();
      options.onProgress?.(0, `${error.message}; reading it in memory instead (sort it first, e.g. with osmium sort, to read it in bounded memory)`);
    }
  }
  const osm = await readOsmFeatures(pbf, selection, options.onProgress);
  for (const a of osm.areas) layers.area(a, a.osmId.startsWith('r') ? 'relation' : 'way');
  for (const l of osm.lines) layers.line(l);
  for (const p of osm.points) layers.point(p);
  for (const s of osm.skipped) layers.skipped(s.osmId);
  return layers.result(osm.header);
}

/** OSM objects → basemap features into the store, with what the coarse layers and the coast need on the side. */
class LayerCollector implements FeatureSink {
  private places: OsmLayers['places'] = [];
  private coastlines: OsmLayers['coastlines'] = [];
  private skippedCount = 0;
  private box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];

  constructor(private readonly store: BasemapFeatureStore) {}

  area(a: OsmArea, from: 'way' | 'relation'): void {
    for (const f of areaFeatures(a.tags, a.geometry)) this.add(from, f);
  }

  line(l: OsmLine): void {
    for (const f of lineFeatures(l.tags, l.geometry)) this.add('line', f);
    if (!isCoastline(l.tags)) return;
    const parts = l.geometry.type === 'LineString' ? [l.geometry.coordinates] : l.geometry.coordinates;
    for (const part of parts) this.coastlines.push(part as [number, number][]);
  }

  point(p: OsmPoint): void {
    for (const f of pointFeatures(p.tags, p.geometry)) {
      this.add('point', f);
      if (f.layer === 'places' && f.properties.kind === 'locality') this.places.push({ name: String(f.properties.name), coordinates: p.geometry.coordinates });
    }
  }

  skipped(_osmId: string): void {
    this.skippedCount += 1;
  }

  reset(): void {
    this.places = [];
    this.coastlines = [];
    this.skippedCount = 0;
    this.box = [Infinity, Infinity, -Infinity, -Infinity];
  }

  result(header: OsmFileHeader): OsmLayers {
    return { places: this.places, header, coastlines: this.coastlines, skipped: this.skippedCount, bounds: header.bbox ?? this.box, tableBytes: 0 };
  }

  private add(group: SpoolGroup, f: BasemapFeature): void {
    this.store.add(group, f);
    if ('coordinates' in f.geometry) growBox(this.box, f.geometry.coordinates);
  }
}

function growBox(box: [number, number, number, number], c: unknown): void {
  if (typeof (c as number[])[0] === 'number') {
    const [x, y] = c as [number, number];
    if (x < box[0]) box[0] = x;
    if (y < box[1]) box[1] = y;
    if (x > box[2]) box[2] = x;
    if (y > box[3]) box[3] = y;
  } else for (const p of c as unknown[]) growBox(box, p);
}

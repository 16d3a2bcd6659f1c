/**
 * An OSM extract → basemap features of every source layer, by the tag rules of roads.ts,
 * water.ts, landuse.ts, buildings.ts, pois.ts and places.ts.
 */
import { readOsmFeatures, type FeatureProgress, type OsmFeatures } from '../osm/features.ts';
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import { addressNumber, classifyBuilding } from './buildings.ts';
import { BASEMAP_MAX_ZOOM, feature, type BasemapFeature } from './feature.ts';
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
  features: BasemapFeature[];
  /** Named localities, for the coarse layer to leave out. */
  places: { name: string; coordinates: GeoJSON.Position }[];
  header: OsmFeatures['header'];
  /** natural=coastline ways (land on their left), for coastline.ts. */
  coastlines: [number, number][][];
  skipped: number;
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

export async function readOsmLayers(pbf: string, onProgress?: FeatureProgress): Promise<OsmLayers> {
  const osm = await readOsmFeatures(pbf, { area: isArea, line: isLine, point: isPoint }, onProgress);
  const features: BasemapFeature[] = [];
  for (const a of osm.areas) features.push(...areaFeatures(a.tags, a.geometry));
  const coastlines: OsmLayers['coastlines'] = [];
  for (const l of osm.lines) {
    features.push(...lineFeatures(l.tags, l.geometry));
    if (!isCoastline(l.tags)) continue;
    const parts = l.geometry.type === 'LineString' ? [l.geometry.coordinates] : l.geometry.coordinates;
    for (const part of parts) coastlines.push(part as [number, number][]);
  }
  const places: OsmLayers['places'] = [];
  for (const p of osm.points) {
    for (const f of pointFeatures(p.tags, p.geometry)) {
      features.push(f);
      if (f.layer === 'places' && f.properties.kind === 'locality') places.push({ name: String(f.properties.name), coordinates: p.geometry.coordinates });
    }
  }
  return { features, places, header: osm.header, coastlines, skipped: osm.skipped.length };
}

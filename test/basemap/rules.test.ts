import { describe, expect, it } from 'vitest';
import { classifyBuilding } from '../../ingest/basemap/buildings.ts';
import { sharedBorders } from '../../ingest/basemap/coarse-provinces.ts';
import { labelPoint, zoomForArea } from '../../ingest/basemap/geometry.ts';
import { osmNames, scriptOf } from '../../ingest/basemap/names.ts';
import { classifyPlace, populationRank } from '../../ingest/basemap/places.ts';
import { classifyPoi } from '../../ingest/basemap/pois.ts';
import { classifyRoad } from '../../ingest/basemap/roads.ts';
import { basemapKind } from '../../jobs/kinds/basemap.ts';
import { clipLine, clipPolygon } from '../../lib/geo/clip-box.ts';
import { polygonContains } from '../../lib/geo/planar.ts';
import { topoBorders, topoPolygons, type Topology } from '../../lib/geo/topojson.ts';

describe('road rules', () => {
  it('maps highway classes to protomaps kinds with links, bridges, tunnels, oneway and shields', () => {
    expect(classifyRoad({ highway: 'motorway', ref: '99;1A', network: 'CA:BC' })).toMatchObject({ kind: 'highway', kindDetail: 'motorway', minZoom: 3, extra: { shield_text: '99', network: 'CA:BC' } });
    expect(classifyRoad({ highway: 'primary_link', oneway: 'yes' })).toMatchObject({ kind: 'major_road', kindDetail: 'primary', minZoom: 11, extra: { is_link: true, oneway: 'yes' } });
    expect(classifyRoad({ highway: 'residential', bridge: 'yes', tunnel: 'no' })?.extra).toEqual({ is_bridge: true });
    expect(classifyRoad({ highway: 'service', tunnel: 'building_passage' })?.extra).toEqual({});
    expect(classifyRoad({ highway: 'footway' })).toMatchObject({ kind: 'path', minZoom: 14 });
    expect(classifyRoad({ railway: 'rail' })).toMatchObject({ kind: 'rail', minZoom: 10 });
    expect(classifyRoad({ railway: 'rail', service: 'yard' })).toBeNull();
    expect(classifyRoad({ aeroway: 'runway' })).toMatchObject({ kind: 'other', kindDetail: 'runway' });
    expect(classifyRoad({ highway: 'pedestrian', area: 'yes' })).toBeNull();
    expect(classifyRoad({ highway: 'proposed' })).toBeNull();
  });
});

describe('names', () => {
  it('keeps the local name, English, French and Indigenous names, and marks a non-Latin script', () => {
    expect(osmNames({ name: 'ᐃᖃᓗᐃᑦ', 'name:en': 'Iqaluit', 'name:iu': 'ᐃᖃᓗᐃᑦ', 'name:zh': '伊卡卢伊特', 'name:fr': 'Iqaluit' }))
      .toEqual({ name: 'ᐃᖃᓗᐃᑦ', 'name:en': 'Iqaluit', 'name:fr': 'Iqaluit', 'name:iu': 'ᐃᖃᓗᐃᑦ', script: 'Canadian_Aboriginal' });
    expect(osmNames({ 'name:en': 'No local name' })).toEqual({});
    expect(scriptOf('Montréal')).toBeNull();
    expect(scriptOf('Москва')).toBe('Cyrillic');
  });
});

describe('places, POIs and buildings', () => {
  it('ranks populations and picks a zoom by size', () => {
    expect(populationRank(0)).toBe(0);
    expect(populationRank(662_248)).toBe(11);
    expect(classifyPlace({ place: 'city', name: 'Vancouver', population: '662,248', capital: '4' })).toMatchObject({ kind: 'locality', kindDetail: 'city', minZoom: 4, extra: { capital: '4', population: 662_248 } });
    expect(classifyPlace({ place: 'neighbourhood', name: 'Kitsilano' })).toMatchObject({ kind: 'neighbourhood', minZoom: 13 });
    expect(classifyPlace({ place: 'city' })).toBeNull();
  });

  it('classifies POIs the styles draw, unnamed only where that is useful', () => {
    expect(classifyPoi({ amenity: 'cafe', name: 'Bean' })).toBe('cafe');
    expect(classifyPoi({ amenity: 'cafe' })).toBeNull();
    expect(classifyPoi({ amenity: 'toilets' })).toBe('toilets');
    expect(classifyPoi({ railway: 'station', name: 'Waterfront' })).toBe('station');
    expect(classifyPoi({ amenity: 'bank', name: 'A bank' })).toBeNull();
  });

  it('reads building heights in metres, feet and levels', () => {
    expect(classifyBuilding({ building: 'yes', height: '12.5 m' })).toEqual({ kind: 'building', extra: { height: 12.5 } });
    expect(classifyBuilding({ building: 'yes', height: "100'" })?.extra.height).toBe(30.5);
    expect(classifyBuilding({ 'building:part': 'yes', 'building:levels': '4', 'building:min_level': '1' })).toEqual({ kind: 'building_part', extra: { height: 12, min_height: 3 } });
    expect(classifyBuilding({ building: 'no' })).toBeNull();
  });
});

describe('geometry for zoom rules', () => {
  const square = (size: number): GeoJSON.Polygon => ({ type: 'Polygon', coordinates: [[[0, 0], [size, 0], [size, size], [0, size], [0, 0]]] });

  it('finds the zoom at which an area covers a number of pixels', () => {
    // A 1°×1° square at the equator is 256/360 px wide at z0 (0.506 px²), 0.506·4^z px² at z: ≥ 16 from z3.
    expect(zoomForArea(square(1), 16, 0, 14)).toBe(3);
    expect(zoomForArea(square(1), 8, 0, 14)).toBe(2);
    expect(zoomForArea(square(0.0001), 16, 0, 14)).toBe(14);
    expect(zoomForArea(square(100), 16, 3, 14)).toBe(3);
  });

  it('puts a label inside a crescent, not at its centroid', () => {
    const crescent: GeoJSON.Polygon = { type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 8], [8, 8], [8, 2], [0, 2], [0, 0]]] };
    const [x, y] = labelPoint(crescent);
    const flat = new Float64Array(crescent.coordinates[0]!.flat());
    expect(polygonContains([flat], x, y)).toBe(true);
  });
});

describe('coarse layers', () => {
  it('finds the borders two outlines share and not their coasts', () => {
    const a: GeoJSON.Polygon = { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [1, 2], [0, 2], [0, 0]]] };
    const b: GeoJSON.Polygon = { type: 'Polygon', coordinates: [[[1, 0], [2, 0], [2, 2], [1, 2], [1, 1], [1, 0]]] };
    const lines = sharedBorders([{ name: 'A', geometry: a }, { name: 'B', geometry: b }]);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.map((p) => p.join(',')).sort()).toEqual(['1,0', '1,1', '1,2']);
  });

  it('decodes quantized TopoJSON polygons and the arcs two geometries share', () => {
    const topology: Topology = {
      type: 'Topology',
      transform: { scale: [1, 1], translate: [10, 20] },
      arcs: [[[1, 0], [0, 2]], [[1, 2], [-1, 0], [0, -2]], [[1, 0], [1, 0], [0, 2], [-1, 0]]],
      objects: { countries: { type: 'GeometryCollection', geometries: [{ type: 'Polygon', id: 'A', arcs: [[0, 1]] }, { type: 'Polygon', id: 'B', arcs: [[2, ~0]] }] } },
    };
    const [a] = topoPolygons(topology, 'countries');
    expect(a!.geometry.coordinates[0]![0]).toEqual([[11, 20], [11, 22], [10, 22], [10, 20]]);
    expect(topoBorders(topology, 'countries')).toEqual([{ ids: ['A', 'B'], line: [[11, 20], [11, 22]] }]);
    expect(() => topoPolygons(topology, 'land')).toThrow(/no object land/);
  });

  it('cuts polygons to a box along its edges and lines into their inside runs', () => {
    const clipped = clipPolygon([[[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]], [0, 0, 10, 10]);
    expect(clipped![0]!.map((p) => p.join(',')).sort()).toEqual(['0,0', '0,0', '0,5', '5,0', '5,5'].sort());
    expect(clipPolygon([[[20, 20], [21, 20], [21, 21], [20, 20]]], [0, 0, 10, 10])).toBeNull();
    expect(clipLine([[1, 1], [2, 2], [20, 2], [3, 3], [4, 4]], [0, 0, 10, 10])).toEqual([[[1, 1], [2, 2]], [[3, 3], [4, 4]]]);
  });
});

describe('canmap ingest basemap options', () => {
  it('names a missing or absent input and an unexpected argument', async () => {
    const provinces = 'samples/catalog/provinces.geojson';
    await expect(basemapKind.cli.toPayload([], { provinces })).rejects.toThrow('--pbf FILE is required (an OSM PBF extract)');
    await expect(basemapKind.cli.toPayload([], { pbf: 'no/such.osm.pbf', provinces })).rejects.toThrow('--pbf no/such.osm.pbf: no such file');
    await expect(basemapKind.cli.toPayload(['extra'], { provinces })).rejects.toThrow('unexpected argument "extra"');
    const payload = await basemapKind.cli.toPayload([], { pbf: 'samples/basemap/downtown-vancouver.osm.pbf', provinces });
    expect(payload.pbf).toMatch(/^\/.*samples\/basemap\/downtown-vancouver\.osm\.pbf$/);
  });
});

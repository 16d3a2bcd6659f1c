import { gunzipSync } from 'node:zlib';
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectX, projectY, tileContaining } from '../../engines/tiles/tile-feature.ts';
import { TILE_EXTENT } from '../../engines/tiles/tiler.ts';
import { ringSide } from '../../lib/geo/planar.ts';
import { prepareBasemapRelease } from '../../ingest/basemap/release.ts';
import { basemapKind } from '../../jobs/kinds/basemap.ts';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { ApiStack } from '../support/api-stack.ts';
import { sharedData } from '../support/paths.ts';

const PBF = sharedData('osm/pelias-vancouver_canada.osm.pbf');
const PROVINCES = sharedData('geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson');

let stack: ApiStack;
let release: RegisteredRelease;

beforeAll(async () => {
  stack = await ApiStack.create('basemap-tiles');
  const payload = await basemapKind.cli.toPayload([], { pbf: PBF, provinces: PROVINCES });
  await stack.start();
  // No basemap yet: the route answers that the data is unavailable, not an empty map.
  expect((await stack.get('/tiles/0/0/0')).status).toBe(503);
  release = await stack.publish((workDir) => prepareBasemapRelease(payload, { workDir }));
  await stack.enable(release);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

async function tileAt(lng: number, lat: number, z: number): Promise<VectorTile> {
  const [x, y] = tileContaining(lng, lat, z);
  const answer = await stack.getBytes(`/tiles/${z}/${x}/${y}`);
  expect(answer.status).toBe(200);
  return new VectorTile(new PbfReader(new Uint8Array(gunzipSync(answer.body))));
}

function features(tile: VectorTile, layer: string): VectorTileFeature[] {
  const l = tile.layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
}

describe('the basemap release', () => {
  it('records what it built in the manifest', () => {
    const stats = release.manifest.stats as Record<string, unknown>;
    const counts = stats.features as Record<string, number>;
    for (const layer of ['earth', 'water', 'landuse', 'roads', 'boundaries', 'buildings', 'places', 'pois']) expect(counts[layer]).toBeGreaterThan(0);
    expect(stats.tiles).toBeGreaterThan(10_000);
    expect(release.manifest.inputs.map((i) => i.name)).toEqual(['osm', 'provinces', 'land', 'countries', 'localities']);
    expect(stats.land_at_z9_14).toBe('OSM coastline');
  });

  it('draws the extract\'s land from its coastlines: Coal Harbour is sea at z14, the West End land beside it', async () => {
    /** Whether the z14 earth covers the point (even-odd over every ring of every earth feature). */
    const earthAt = async (lng: number, lat: number) => {
      const [x, y] = tileContaining(lng, lat, 14);
      const [px, py] = [(projectX(lng) * 2 ** 14 - x) * TILE_EXTENT, (projectY(lat) * 2 ** 14 - y) * TILE_EXTENT];
      const rings = features(await tileAt(lng, lat, 14), 'earth').flatMap((f) => f.loadGeometry());
      return rings.filter((ring) => ringSide(new Float64Array(ring.flatMap((p) => [p.x, p.y])), px, py) === 1).length % 2 === 1;
    };
    expect(await earthAt(-123.1215, 49.2915)).toBe(false);
    expect(await earthAt(-123.1300, 49.2880)).toBe(true);
    expect(await earthAt(-123.1100, 49.2740)).toBe(false);
  });

  it('draws downtown Vancouver at z14 in the Protomaps schema', async () => {
    const tile = await tileAt(-123.1207, 49.2827, 14);
    const roads = features(tile, 'roads');
    const kinds = new Set(roads.map((f) => f.properties.kind));
    for (const kind of ['major_road', 'minor_road', 'path']) expect(kinds).toContain(kind);
    for (const f of roads) {
      expect(typeof f.properties.min_zoom).toBe('number');
      expect(f.properties.min_zoom as number).toBeLessThanOrEqual(14);
      expect(f.type).toBe(2);
    }
    const buildings = features(tile, 'buildings').filter((f) => f.properties.kind === 'building');
    expect(buildings.length).toBeGreaterThan(100);
    expect(buildings.every((f) => f.type === 3)).toBe(true);
    expect(buildings.some((f) => typeof f.properties.height === 'number')).toBe(true);
    expect(features(tile, 'earth').length).toBeGreaterThan(0);
    expect(features(tile, 'pois').some((f) => typeof f.properties.name === 'string' && typeof f.properties.kind === 'string')).toBe(true);
  });

  it('carries names in other languages, bridges and shields on roads', async () => {
    const tile = await tileAt(-123.1361, 49.1988, 14);
    const bridge = features(tile, 'roads').find((f) => f.properties.name === 'Arthur Laing Bridge');
    expect(bridge?.properties).toMatchObject({ kind: 'major_road', kind_detail: 'secondary', is_bridge: true, 'name:en': 'Arthur Laing Bridge' });
    expect(bridge?.properties['name:fr']).toMatch(/Arthur/);
  });

  it('keeps a feature out of the zooms below its min_zoom', async () => {
    const z11 = features(await tileAt(-123.1207, 49.2827, 11), 'roads');
    expect(z11.some((f) => f.properties.kind === 'major_road')).toBe(true);
    expect(z11.filter((f) => (f.properties.min_zoom as number) > 11)).toEqual([]);
    expect(z11.some((f) => f.properties.kind_detail === 'residential')).toBe(false);
  });

  it('shows the country from z0: land, Canada\'s borders and label, provinces, cities', async () => {
    const z0 = await tileAt(-100, 60, 0);
    expect(features(z0, 'earth').length).toBeGreaterThan(0);
    expect(features(z0, 'boundaries').filter((f) => f.properties.kind === 'country').every((f) => f.properties.kind_detail === 2)).toBe(true);
    expect(features(z0, 'places').map((f) => f.properties.name)).toContain('Canada');
    const z5 = await tileAt(-120, 54, 5);
    expect(features(z5, 'boundaries').some((f) => f.properties.kind === 'region' && f.properties.kind_detail === 4)).toBe(true);
    const regions = features(await tileAt(-100, 60, 3), 'places').filter((f) => f.properties.kind === 'region');
    expect(regions.map((f) => f.properties.name)).toEqual(expect.arrayContaining(['Manitoba', 'Saskatchewan']));
    const quebec = features(await tileAt(-72, 53, 3), 'places').find((f) => f.properties.name === 'Québec');
    expect(quebec?.properties).toMatchObject({ kind: 'region', 'name:en': 'Quebec', 'name:fr': 'Québec' });
    const cities = features(await tileAt(-79.38, 43.65, 6), 'places').filter((f) => f.properties.kind === 'locality');
    expect(cities.find((f) => f.properties.name === 'Toronto')?.properties).toMatchObject({ population_rank: expect.any(Number) });
  });

  it('names Vancouver once: the OSM place replaces the GeoNames entry', async () => {
    const places = features(await tileAt(-123.12, 49.26, 12), 'places').filter((f) => f.properties.name === 'Vancouver');
    expect(places).toHaveLength(1);
    expect(places[0]!.properties.kind_detail).toBe('city');
  });
});

describe('GET /tiles/{z}/{x}/{y}', () => {
  const [x, y] = tileContaining(-123.1207, 49.2827, 14);

  it('answers gzip MVT with a day of public caching and the release as ETag; 304 when current', async () => {
    const answer = await stack.getBytes(`/tiles/14/${x}/${y}`);
    expect(answer.headers['content-type']).toBe('application/x-protobuf');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['cache-control']).toBe('public, max-age=86400');
    expect(answer.headers.etag).toBe(`"${release.id}"`);
    const again = await stack.getBytes(`/tiles/14/${x}/${y}`, { 'if-none-match': String(answer.headers.etag) });
    expect(again.status).toBe(304);
    for (const tag of [`W/${String(answer.headers.etag)}`, '*']) expect((await stack.getBytes(`/tiles/14/${x}/${y}`, { 'if-none-match': tag })).status).toBe(304);
    const plain = await stack.getBytes(`/tiles/14/${x}/${y}`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.compare(plain.body, gunzipSync(answer.body))).toBe(0);
  });

  it('strips a .pbf or .mvt suffix', async () => {
    const bare = await stack.getBytes(`/tiles/14/${x}/${y}`);
    for (const suffix of ['.pbf', '.mvt']) {
      const answer = await stack.getBytes(`/tiles/14/${x}/${y}${suffix}`);
      expect(answer.status).toBe(200);
      expect(Buffer.compare(answer.body, bare.body)).toBe(0);
    }
  });

  it('answers 204 beyond zoom 14 and where there is no tile', async () => {
    expect((await stack.getBytes(`/tiles/15/${2 * x}/${2 * y}`)).status).toBe(204);
    const [ox, oy] = tileContaining(-30, 30, 8);
    expect((await stack.getBytes(`/tiles/8/${ox}/${oy}`)).status).toBe(204);
    const [mx, my] = tileContaining(-75.7, 45.42, 14);
    expect((await stack.getBytes(`/tiles/14/${mx}/${my}`)).status).toBe(204);
  });

  it('answers plain-text 400 invalid tile coordinates', async () => {
    for (const path of ['/tiles/a/0/0', '/tiles/1/0/0.5', '/tiles/1/2/0', '/tiles/-1/0/0', '/tiles/1/0/0.png']) {
      const answer = await stack.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.headers['content-type'], path).toMatch(/^text\/plain/);
      expect(answer.text, path).toBe('invalid tile coordinates');
    }
  });

  it('needs a key like every tile route', async () => {
    expect((await stack.get(`/tiles/14/${x}/${y}`, { key: null })).status).toBe(401);
  });
});

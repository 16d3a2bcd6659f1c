import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { decode as decodePng } from 'fast-png';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contourInterval } from '../../engines/terrain/contour-interval.ts';
import { decodeTerrarium, TERRARIUM_RESOLUTION } from '../../engines/terrain/terrarium.ts';
import { tileLat, tileLng } from '../../engines/terrain/web-mercator.ts';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { DEM_ZIP, loadDemFixture, tileAt, type DemFixture } from './dem-fixture.ts';
import { ApiStack } from '../support/api-stack.ts';
import { prepareTerrainRelease } from '../../ingest/terrain/release.ts';

const decodeMvt = (gzipped: Buffer) => new VectorTile(new PbfReader(new Uint8Array(gunzipSync(gzipped))));
const IMMUTABLE = 'public, max-age=31536000, immutable';
const DAY = 'public, max-age=86400';
/** A tile of the Olympic Peninsula's coast: land, sea and hills in one. */
const LAND = [-124.3, 48.1] as const;

let stack: ApiStack;
let fx: DemFixture;
let release: RegisteredRelease;

beforeAll(async () => {
  fx = await loadDemFixture();
  stack = await ApiStack.create('terrain_api');
  release = await stack.publish(() => prepareTerrainRelease([DEM_ZIP]));
  await stack.start();
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

const tilePath = (z: number, [lng, lat]: readonly [number, number]) => {
  const { x, y } = tileAt(lng, lat, z);
  return `${z}/${x}/${y}`;
};

describe('before a terrain release is enabled', () => {
  it('answers the JSON 404 of an unconfigured archive on every terrain, contour and elevation route', async () => {
    // releases/reader.ts words a kind with no enabled release this way; api/routes/terrain/served-archive.ts relies on it
    expect(stack.server!.app.releases.status().terrain).toMatchObject({ state: 'unavailable', reason: 'no release is enabled' });
    for (const url of [`/terrain/4/${tilePath(10, LAND)}.png`, `/terrain/${tilePath(10, LAND)}.png`, '/elevation?at=-124.3,48.1']) {
      const answer = await stack.get(url);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.body).toEqual({ error: 'terrain archive not configured' });
    }
    for (const url of [`/contours/4/${tilePath(12, LAND)}`, `/contours/${tilePath(12, LAND)}.pbf`]) {
      expect(await stack.get(url)).toMatchObject({ status: 404, body: { error: 'contour archive not configured' } });
    }
  });

  it('leaves svc_dem and svc_contours out of the outdoor style', async () => {
    const { body } = await stack.get('/styles/outdoor.json');
    expect(Object.keys(body.sources)).toEqual(['svc']);
    expect(body.layers.some((l: { source?: string }) => l.source === 'svc_dem' || l.source === 'svc_contours')).toBe(false);
  });
});

describe('with the release built from the shared 1″ tile enabled', () => {
  beforeAll(async () => {
    await stack.enable(release);
  }, 60_000);

  describe('release contents', () => {
    it('keeps the DEM it was built from and records both archives and the coverage', () => {
      const { manifest } = release;
      expect(manifest.kind).toBe('terrain');
      expect(manifest.artifacts.map((a) => a.path)).toEqual(['contours.pmtiles', 'dem/N48W125.hgt.gz', 'terrain.json', 'terrarium.pmtiles']);
      expect(manifest.inputs).toEqual([expect.objectContaining({ source: DEM_ZIP, licence: 'Public domain (NASA/USGS SRTM)' })]);
      const stats = manifest.stats as { terrarium: { minzoom: number; maxzoom: number; tiles: number }; contours: { minzoom: number; maxzoom: number; lines: number; lines_dropped: number } };
      expect(stats.terrarium).toMatchObject({ minzoom: 0, maxzoom: 12 });
      expect(stats.contours).toMatchObject({ minzoom: 9, maxzoom: 13, lines_dropped: 0 });
      expect(stats.contours.lines).toBeGreaterThan(1000);
      expect(manifest.coverage).toEqual([expect.objectContaining({ dem_tile: 'N48W125', bounds: [-125, 48, -124, 49], posts: 3601 })]);
      // the north half of the tile is void
      expect((manifest.coverage![0] as { void_fraction: number }).void_fraction).toBeCloseTo(0.5, 2);
    });
  });

  describe('GET /terrain/{version}/{z}/{x}/{y}.png', () => {
    it('serves terrarium PNGs whose pixels are the DEM height at their centres', async () => {
      for (const z of [7, 10, 12]) {
        const tile = tileAt(LAND[0], LAND[1], z);
        const answer = await stack.getBytes(`/terrain/4/${z}/${tile.x}/${tile.y}.png`);
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toBe('image/png');
        const png = decodePng(answer.body);
        expect([png.width, png.height, png.channels, png.depth]).toEqual([256, 256, 4, 8]);
        let covered = 0;
        let empty = 0;
        for (let py = 0; py < 256; py += 3) {
          for (let px = 0; px < 256; px += 3) {
            const expected = fx.dem.elevationAt(tileLng(tile, (px + 0.5) / 256), tileLat(tile, (py + 0.5) / 256));
            const at = (py * 256 + px) * 4;
            const [r, g, b, a] = [png.data[at]!, png.data[at + 1]!, png.data[at + 2]!, png.data[at + 3]!];
            if (expected === null) {
              expect([r, g, b, a]).toEqual([128, 0, 0, 0]);
              empty++;
            } else {
              expect(a).toBe(255);
              expect(Math.abs(decodeTerrarium(r, g, b) - expected)).toBeLessThanOrEqual(TERRARIUM_RESOLUTION / 2);
              covered++;
            }
          }
        }
        // the z7 tile reaches far beyond the one-degree tile, half of which is void
        expect(covered).toBeGreaterThan(z === 7 ? 300 : 1000);
        if (z === 7) expect(empty).toBeGreaterThan(3000);
      }
    });

    it('caches the versioned form immutable for a year and the unversioned one for a day, both with the release ETag and 304', async () => {
      const path = `${tilePath(11, LAND)}.png`;
      const versioned = await stack.getBytes(`/terrain/4/${path}`);
      expect(versioned.headers).toMatchObject({ 'cache-control': IMMUTABLE, etag: `"${release.id}"` });
      expect(versioned.headers['content-encoding']).toBeUndefined();
      const plain = await stack.getBytes(`/terrain/${path}`);
      expect(plain.status).toBe(200);
      expect(plain.headers).toMatchObject({ 'cache-control': DAY, etag: `"${release.id}"`, 'content-type': 'image/png' });
      expect(plain.body.equals(versioned.body)).toBe(true);
      expect((await stack.getBytes(`/terrain/4/${path}`, { 'if-none-match': `"${release.id}"` })).status).toBe(304);
      expect((await stack.getBytes(`/terrain/4/${path}`, { 'if-none-match': '"other"' })).status).toBe(200);
      // the .png suffix may be left out
      expect((await stack.getBytes(`/terrain/4/${path.slice(0, -4)}`)).body.equals(versioned.body)).toBe(true);
    });

    it('answers 204 where the DEM has nothing and beyond zoom 12', async () => {
      for (const url of [
        `/terrain/4/${tilePath(12, [-80, 45])}.png`, // far outside the tile
        `/terrain/4/${tilePath(12, [-124.5, 48.9])}.png`, // the void north half
        `/terrain/4/${tilePath(13, LAND)}.png`,
        `/terrain/${tilePath(20, LAND)}.png`,
        '/terrain/4/40/0/0.png',
      ]) {
        const answer = await stack.getBytes(url);
        expect([url, answer.status, answer.body.length]).toEqual([url, 204, 0]);
      }
    });

    it('answers malformed coordinates and versions in plain text', async () => {
      for (const url of ['/terrain/4/a/1/2.png', '/terrain/4/3/8/1.png', '/terrain/4/3/1/1.pbf', '/terrain/4/3/1/-1.png', '/terrain/3/1/1.5.png']) {
        const answer = await stack.get(url);
        expect([url, answer.status, answer.text]).toEqual([url, 400, 'invalid tile coordinates']);
        expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      }
      for (const version of ['v4', '0', '04x', '-1']) {
        const answer = await stack.get(`/terrain/${version}/${tilePath(10, LAND)}.png`);
        expect([version, answer.status, answer.text]).toEqual([version, 400, 'invalid version']);
        expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      }
      const newer = await stack.get(`/terrain/5/${tilePath(10, LAND)}.png`);
      expect(newer).toMatchObject({ status: 404, text: 'terrain version 5 does not exist; the current version is 4' });
      expect(newer.headers['content-type']).toMatch(/^text\/plain/);
    });

    it('serves an older version segment from the enabled archive, cached for a day only', async () => {
      const path = `${tilePath(10, LAND)}.png`;
      const older = await stack.getBytes(`/terrain/3/${path}`);
      expect(older.status).toBe(200);
      expect(older.headers['cache-control']).toBe(DAY);
      expect(older.body.equals((await stack.getBytes(`/terrain/4/${path}`)).body)).toBe(true);
    });
  });

  describe('GET /contours/{version}/{z}/{x}/{y}', () => {
    it('serves gzip vector tiles with source layer contours, the zoom\'s interval and no 0 m line', async () => {
      for (const z of [9, 10, 12, 13]) {
        const answer = await stack.getBytes(`/contours/4/${tilePath(z, LAND)}.pbf`, { 'accept-encoding': 'gzip' });
        expect(answer.status).toBe(200);
        expect(answer.headers).toMatchObject({ 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip', 'cache-control': IMMUTABLE });
        const tile = decodeMvt(answer.body);
        expect(Object.keys(tile.layers)).toEqual(['contours']);
        const layer = tile.layers.contours!;
        expect(layer.length).toBeGreaterThan(5);
        const interval = contourInterval(z);
        const levels = new Set<number>();
        for (let i = 0; i < layer.length; i++) {
          const feature = layer.feature(i);
          expect(feature.type).toBe(2);
          const { ele, index } = feature.properties as { ele: number; index: boolean };
          expect(ele).not.toBe(0);
          expect(ele % interval).toBe(0);
          expect(index).toBe(ele % (5 * interval) === 0);
          levels.add(ele);
        }
        expect(levels.size).toBeGreaterThan(2);
      }
    });

    it('serves the unversioned form for a day, gunzipped for a client that refuses gzip, and 304 when current', async () => {
      const path = tilePath(12, LAND);
      const gzipped = await stack.getBytes(`/contours/4/${path}`);
      const plain = await stack.getBytes(`/contours/${path}.mvt`, { 'accept-encoding': 'identity' });
      expect(plain.status).toBe(200);
      expect(plain.headers['cache-control']).toBe(DAY);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(gunzipSync(gzipped.body))).toBe(true);
      expect((await stack.getBytes(`/contours/${path}`, { 'if-none-match': `"${release.id}"` })).status).toBe(304);
    });

    it('answers 204 outside zoom 9–13 and where there are no lines; plain-text 400 and 404 for bad coordinates and versions', async () => {
      for (const url of [`/contours/4/${tilePath(8, LAND)}`, `/contours/4/${tilePath(14, LAND)}`, `/contours/4/${tilePath(12, [-124.5, 48.9])}`, `/contours/${tilePath(11, [-80, 45])}`]) {
        expect([url, (await stack.getBytes(url)).status]).toEqual([url, 204]);
      }
      expect(await stack.get('/contours/4/9/x/1')).toMatchObject({ status: 400, text: 'invalid tile coordinates' });
      expect(await stack.get('/contours/4/9/512/1')).toMatchObject({ status: 400, text: 'invalid tile coordinates' });
      expect(await stack.get('/contours/9/1/1.png')).toMatchObject({ status: 400, text: 'invalid tile coordinates' });
      expect(await stack.get(`/contours/9/${tilePath(12, LAND)}`)).toMatchObject({ status: 404, text: 'contours version 9 does not exist; the current version is 4' });
      expect(await stack.get(`/contours/four/${tilePath(12, LAND)}`)).toMatchObject({ status: 400, text: 'invalid version' });
      const older = await stack.getBytes(`/contours/1/${tilePath(12, LAND)}`);
      expect([older.status, older.headers['cache-control']]).toEqual([200, DAY]);
    });
  });

  describe('GET /styles/{style}.json with terrain enabled', () => {
    it('adds svc_dem and svc_contours to outdoor styles only, at version 4, and their URLs serve', async () => {
      const { body } = await stack.get(`/styles/outdoor-dark.json?key=${stack.key}`);
      expect(body.sources.svc_dem).toEqual({
        type: 'raster-dem', encoding: 'terrarium', maxzoom: 12, tileSize: 256,
        tiles: [`http://api.canmap.test/terrain/4/{z}/{x}/{y}.png?key=${stack.key}`],
      });
      expect(body.sources.svc_contours).toMatchObject({ type: 'vector', minzoom: 9, maxzoom: 14, tiles: [`http://api.canmap.test/contours/4/{z}/{x}/{y}?key=${stack.key}`] });
      for (const [source, z] of [['svc_dem', 11], ['svc_contours', 12]] as const) {
        const { x, y } = tileAt(LAND[0], LAND[1], z);
        const url = (body.sources[source].tiles[0] as string).replace('http://api.canmap.test', '').replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
        expect([source, (await stack.getBytes(url)).status]).toEqual([source, 200]);
      }
      for (const style of ['base', 'muted-dark', 'calgary']) {
        const other = await stack.get(`/styles/${style}.json`);
        expect([style, Object.keys(other.body.sources)]).toEqual([style, ['svc']]);
      }
    });
  });
});

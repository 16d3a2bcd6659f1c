import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { findTile, ResolvedValueCache, zxyToTileId, type Source } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByodApi } from './byod-api.ts';
import { decodeTile, tileOf, vancouverArchive, vancouverGeoJson } from '../support/byod/fixtures.ts';

/*
 * POST /byod (raw GeoJSON, raw PMTiles, multipart), the overlay it answers, GET /byod and
 * GET /byod/{id}, the stored bytes, PMTiles tiles served as stored, and display names that are
 * only ever names. Refusals have their own file (refusals.test.ts), tiling too (tiling.test.ts).
 */

let api: ByodApi;
let key: string;
let archive: Buffer;

const OVERLAY_KEYS = ['bounds', 'bytes', 'createdAt', 'dataUrl', 'error', 'id', 'kind', 'layers', 'maxzoom', 'minzoom', 'name', 'overlay', 'status', 'url'];

beforeAll(async () => {
  api = await ByodApi.start('byod_upload');
  key = await api.key({ accountId: 'acme' });
  archive = await vancouverArchive();
});
afterAll(async () => api?.close());

describe('POST /byod', () => {
  it('stores a GeoJSON body: 201 with the overlay, processing until tiled, its bytes under an id-named file', async () => {
    const body = vancouverGeoJson();
    const res = await api.upload(key, body, 'application/geo+json; charset=utf-8', '?name=Vancouver%20parks');
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(OVERLAY_KEYS);
    const { id } = res.body;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.body).toMatchObject({
      name: 'Vancouver parks', kind: 'geojson', bytes: Buffer.byteLength(body), overlay: `byod:${id}`,
      url: `http://api.canmap.test/byod/${id}/{z}/{x}/{y}`, dataUrl: `http://api.canmap.test/byod/${id}/data`,
      status: 'processing', error: null, minzoom: null, maxzoom: null, bounds: null, layers: [],
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(res.headers.location).toBe(`/byod/${id}`);
    expect(await readFile(path.join(api.byodDir, `${id}.geojson`), 'utf8')).toBe(body);
  });

  it('stores a PMTiles body: ready at once, with the archive\'s zooms, bounds and vector layers', async () => {
    const res = await api.upload(key, archive, 'application/vnd.pmtiles', '?name=tiles');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'tiles', kind: 'pmtiles', bytes: archive.length, status: 'ready', minzoom: 0, maxzoom: 12, layers: ['places'] });
    const [w, s, e, n] = res.body.bounds;
    expect(w).toBeLessThanOrEqual(-123.16);
    expect(s).toBeLessThanOrEqual(49.285);
    expect(e).toBeGreaterThanOrEqual(-123.11);
    expect(n).toBeGreaterThanOrEqual(49.315);
  });

  it('takes multipart/form-data: the file part, named by its file name, or by a name field', async () => {
    const byFileName = await api.uploadForm(key, { file: { data: vancouverGeoJson(), filename: 'Vancouver.geojson', type: 'application/geo+json' } });
    expect(byFileName.status).toBe(201);
    expect(byFileName.body).toMatchObject({ name: 'Vancouver.geojson', kind: 'geojson', status: 'processing' });
    // The name field wins, in whichever order the parts come; the kind is read from the bytes.
    const named = await api.uploadForm(key, { file: { data: archive, filename: 'tiles.bin' }, name: 'Transit stops' });
    expect(named.body).toMatchObject({ name: 'Transit stops', kind: 'pmtiles', status: 'ready' });
    const fieldFirst = await api.uploadForm(key, { name: 'first', file: { data: vancouverGeoJson(), filename: 'x.json' } });
    expect(fieldFirst.body.name).toBe('first');
    for (const id of [byFileName.body.id, named.body.id, fieldFirst.body.id]) expect((await api.delete(key, id)).status).toBe(204);
  });

  it('names an upload without a name untitled.<kind>', async () => {
    const res = await api.upload(key, archive, 'application/vnd.pmtiles');
    expect(res.body.name).toBe('untitled.pmtiles');
    await api.delete(key, res.body.id);
  });

  it('keeps a hostile name as a display name only: files are named by id alone', async () => {
    const names = ['../../etc/passwd', '/etc/passwd', '..\\..\\boot.ini', 'x'.repeat(200), 'Ōtautahi — ᓄᓇᕗᑦ 🦫 <script>', '%2e%2e%2fsecret'];
    for (const name of names) {
      const res = await api.upload(key, vancouverGeoJson(), 'application/geo+json', `?name=${encodeURIComponent(name)}`);
      expect(res.status).toBe(201);
      expect(res.body.name).toBe(name);
      expect((await api.get(key, `/byod/${res.body.id}`)).body.name).toBe(name);
      await api.delete(key, res.body.id);
    }
    const form = await api.uploadForm(key, { file: { data: vancouverGeoJson(), filename: '../../../etc/cron.d/evil' } });
    expect(form.status).toBe(201);
    expect(form.body.name).not.toContain('/');
    await api.delete(key, form.body.id);
    // Only id-named files and the temporary folder, nothing beside or above the directory.
    for (const entry of await readdir(api.byodDir)) expect(entry).toMatch(/^([0-9a-f]{24}\.(geojson|pmtiles|tiles\.pmtiles)|\.incoming)$/);
    expect(await readdir(path.join(api.byodDir, '.incoming'))).toEqual([]);
  });
});

describe('GET /byod, GET /byod/{id}, GET /byod/{id}/data', () => {
  it('lists own overlays newest first with the quota', async () => {
    const fresh = await api.key({ accountId: 'lister' });
    const first = (await api.upload(fresh, vancouverGeoJson(), 'application/geo+json', '?name=a')).body;
    const second = (await api.upload(fresh, archive, 'application/vnd.pmtiles', '?name=b')).body;
    const res = await api.get(fresh, '/byod');
    expect(res.status).toBe(200);
    expect(res.body.overlays.map((o: { id: string }) => o.id)).toEqual([second.id, first.id]);
    expect(res.body.overlays[1]).toEqual(first);
    expect(res.body.quota).toEqual({ used: 2, limit: 10, remaining: 8, maxBytes: 5 * 1024 * 1024 });
    const empty = await api.get(await api.key({ accountId: 'nobody-yet' }), '/byod');
    expect(empty.body).toEqual({ overlays: [], quota: { used: 0, limit: 10, remaining: 10, maxBytes: 5242880 } });
  });

  it('answers one overlay\'s metadata', async () => {
    const created = (await api.upload(key, archive, 'application/vnd.pmtiles', '?name=one')).body;
    const res = await api.get(key, `/byod/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('serves the stored bytes with the content type of their kind', async () => {
    const body = vancouverGeoJson();
    const geo = (await api.upload(key, body, 'application/geo+json')).body;
    const tiles = (await api.upload(key, archive, 'application/vnd.pmtiles')).body;
    const geoData = await api.get(key, `/byod/${geo.id}/data`);
    expect(geoData.status).toBe(200);
    expect(geoData.headers['content-type']).toBe('application/geo+json');
    expect(geoData.text).toBe(body);
    const tileData = await api.get(key, `/byod/${tiles.id}/data`);
    expect(tileData.headers['content-type']).toBe('application/vnd.pmtiles');
    expect(tileData.raw.equals(archive)).toBe(true);
    expect(tileData.headers['content-length']).toBe(String(archive.length));
    const again = await api.get(key, `/byod/${tiles.id}/data`, { 'if-none-match': String(tileData.headers.etag) });
    expect(again.status).toBe(304);
  });
});

describe('GET /byod/{id}/{z}/{x}/{y} of a PMTiles upload', () => {
  let id: string;
  let reference: Map<string, Buffer>;

  beforeAll(async () => {
    id = (await api.upload(key, archive, 'application/vnd.pmtiles')).body.id;
    // The stored bytes of each tile, found with the `pmtiles` package's own directory reading.
    const source: Source = {
      getKey: () => 'fixture',
      getBytes: async (offset, length) => ({ data: new Uint8Array(archive.subarray(offset, offset + length)).buffer }),
    };
    const cache = new ResolvedValueCache();
    const header = await cache.getHeader(source);
    const root = await cache.getDirectory(source, header.rootDirectoryOffset, header.rootDirectoryLength, header);
    reference = new Map();
    for (const z of [0, 5, 9, 12]) {
      const [x, y] = tileOf(z, -123.13, 49.3);
      const entry = findTile(root, zxyToTileId(z, x, y))!;
      expect(entry.runLength).toBeGreaterThan(0);
      const at = header.tileDataOffset + entry.offset;
      reference.set(`${z}/${x}/${y}`, archive.subarray(at, at + entry.length));
    }
  });

  it('serves each tile byte-identical to the archive\'s stored (gzip) bytes, with the key as query parameter', async () => {
    for (const [zxy, stored] of reference) {
      const [z, x, y] = zxy.split('/');
      const res = await api.tile(key, id, z!, x!, y!);
      expect(res.status, zxy).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-protobuf');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
      expect(res.headers.etag).toBe(`"byod-${id}"`);
      expect(res.raw.equals(stored)).toBe(true);
      expect(Object.keys(decodeTile(res.raw, true).layers)).toEqual(['places']);
    }
  });

  it('accepts a .pbf or .mvt suffix, answers 304 for a current ETag', async () => {
    const [x, y] = tileOf(9, -123.13, 49.3);
    expect((await api.tile(key, id, 9, x, `${y}.pbf`)).status).toBe(200);
    expect((await api.tile(key, id, 9, x, `${y}.mvt`)).status).toBe(200);
    expect((await api.tile(key, id, 9, x, y, { 'if-none-match': `"byod-${id}"` })).status).toBe(304);
  });

  it('answers 204 where the archive has no tile and beyond its zooms', async () => {
    const [x, y] = tileOf(9, -79.38, 43.65); // Toronto
    for (const [z, tx, ty] of [[9, x, y], [13, ...tileOf(13, -123.13, 49.3)], [22, 0, 0]] as const) {
      const res = await api.tile(key, id, z, tx, ty);
      expect(res.status, `${z}/${tx}/${ty}`).toBe(204);
      expect(res.text).toBe('');
    }
  });

  it.each([['z', 'a', '0', '0'], ['x over 2^z', '2', '4', '0'], ['y over 2^z', '1', '0', '2'], ['negative', '3', '-1', '0'], ['fraction', '3', '1.5', '0']])(
    'answers plain-text 400 invalid tile coordinates for %s', async (_what, z, x, y) => {
      const res = await api.tile(key, id, z, x, y);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toBe('invalid tile coordinates');
    },
  );
});

describe('/openapi.json', () => {
  it('documents the overlay routes, the three upload bodies and the overlay schema', async () => {
    const doc = (await api.get(key, '/openapi.json')).body;
    expect(Object.keys(doc.paths).filter((p: string) => p.startsWith('/byod')).sort()).toEqual(['/byod', '/byod/{id}', '/byod/{id}/data', '/byod/{id}/tiles.json', '/byod/{id}/{z}/{x}/{y}']);
    expect(Object.keys(doc.paths['/byod'].post.requestBody.content).sort()).toEqual(['application/geo+json', 'application/vnd.pmtiles', 'multipart/form-data']);
    expect(Object.keys(doc.paths['/byod'].post.responses).sort()).toEqual(['201', '400', '503']);
    expect(Object.keys(doc.paths['/byod/{id}'].delete.responses).sort()).toEqual(['204', '404']);
  });
});

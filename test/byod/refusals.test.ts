import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByodApi } from './byod-api.ts';
import { vancouverArchive, vancouverGeoJson } from '../support/byod/fixtures.ts';

/*
 * Every 400 of POST /byod (volume 3: missing body, wrong content type, over 5 MB, an eleventh
 * file; and what the checks of GeoJSON and PMTiles refuse), each with a message naming the
 * problem, and each leaving nothing behind: no row, no file, no temporary file.
 */

let api: ByodApi;
let key: string;
let archive: Buffer;
const MAX = 5 * 1024 * 1024;
const TOO_LARGE = 'file is over 5 MB: an uploaded overlay may have at most 5242880 bytes';
const MISSING = 'missing body: send a GeoJSON or PMTiles file as application/geo+json, application/vnd.pmtiles, or multipart/form-data with a file field';
const wrongType = (t: string) => `wrong content type ${t}: send application/geo+json, application/vnd.pmtiles, or multipart/form-data with a file field`;

beforeAll(async () => {
  api = await ByodApi.start('byod_refusals');
  key = await api.key({ accountId: 'refused' });
  archive = await vancouverArchive();
});
afterAll(async () => api?.close());

async function storedFiles(): Promise<string[]> {
  const top = (await readdir(api.byodDir)).filter((f) => f !== '.incoming');
  const incoming = await readdir(path.join(api.byodDir, '.incoming')).catch(() => []);
  return [...top, ...incoming.map((f) => `.incoming/${f}`)];
}

/** The upload is answered 400 with exactly this message, and stores nothing. */
async function refused(send: () => Promise<{ status: number; body: unknown }>, error: string): Promise<void> {
  const rows = await api.rows();
  const files = await storedFiles();
  const res = await send();
  expect(res.body).toEqual({ error });
  expect(res.status).toBe(400);
  expect(await api.rows()).toBe(rows);
  expect(await storedFiles()).toEqual(files);
}

/** A GeoJSON Point padded with spaces (valid JSON) to exactly `bytes`. */
const paddedGeoJson = (bytes: number) => {
  const point = '{"type":"Point","coordinates":[-123.1,49.3]}';
  return point + ' '.repeat(bytes - point.length);
};

describe('without a valid key', () => {
  it('is 401 before anything is read or stored', async () => {
    const files = await storedFiles();
    const res = await api.app.inject({ method: 'POST', url: '/byod', headers: { 'content-type': 'application/geo+json' }, payload: vancouverGeoJson() });
    expect(res.statusCode).toBe(401);
    expect(await storedFiles()).toEqual(files);
  });
});

describe('missing body', () => {
  it.each([
    ['no body and no content type', undefined, undefined],
    ['an empty GeoJSON body', '', 'application/geo+json'],
    ['an empty PMTiles body', '', 'application/vnd.pmtiles'],
  ])('%s', (_what, body, type) => refused(() => api.upload(key, body, type), MISSING));

  it('a multipart body without a file part', () =>
    refused(() => api.uploadForm(key, { name: 'no file' }), 'the multipart body has no file field: send the file as the part named file'));

  it('a multipart file part that is empty', () =>
    refused(() => api.uploadForm(key, { file: { data: '', filename: 'empty.geojson' } }), 'the file field is empty: send a GeoJSON or PMTiles file'));
});

describe('wrong content type', () => {
  it.each([
    ['text/plain', '"text/plain"'],
    ['application/json', '"application/json"'],
    ['image/png', '"image/png"'],
    ['application/x-www-form-urlencoded', '"application/x-www-form-urlencoded"'],
  ])('%s', (type, shown) => refused(() => api.upload(key, vancouverGeoJson(), type), wrongType(shown)));

  it('a body without a content type', () => refused(() => api.upload(key, vancouverGeoJson(), undefined), wrongType('(none)')));

  it('a file in another multipart field', () =>
    refused(() => api.uploadForm(key, { upload: { data: vancouverGeoJson(), filename: 'a.geojson' } }), 'unexpected file field "upload": send the file in the field named file'));

  it('two files in one multipart body', () =>
    refused(() => api.uploadForm(key, { file: { data: vancouverGeoJson(), filename: 'a.geojson' }, file2: { data: vancouverGeoJson(), filename: 'b.geojson' } }),
      'send one file per upload, in the file field'));

  it('a compressed body', () =>
    refused(() => api.upload(key, gzipSync(vancouverGeoJson()), 'application/geo+json', '', { 'content-encoding': 'gzip' }),
      'content encoding "gzip" is not accepted: send the file uncompressed'));
});

describe('over 5 MB', () => {
  it('takes a file of exactly 5 MB (5,242,880 bytes)', async () => {
    const res = await api.upload(key, paddedGeoJson(MAX), 'application/geo+json');
    expect(res.status).toBe(201);
    expect(res.body.bytes).toBe(MAX);
    expect((await api.delete(key, res.body.id)).status).toBe(204);
  });

  it('refuses one byte more, with Content-Length: before reading the body', () =>
    refused(() => api.upload(key, paddedGeoJson(MAX + 1), 'application/geo+json'), TOO_LARGE));

  it('refuses a chunked body (no Content-Length) once it passes 5 MB, and closes the connection', async () => {
    let sent = 0;
    // 64 MB on offer; the server must stop reading long before.
    const body = Readable.from((function* chunks() {
      for (let i = 0; i < 1024; i += 1) {
        sent += 65536;
        yield Buffer.alloc(65536, 0x20);
      }
    })());
    await refused(async () => {
      const res = await api.app.inject({ method: 'POST', url: '/byod', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json' }, payload: body });
      expect(res.headers.connection).toBe('close');
      return { status: res.statusCode, body: res.json() };
    }, TOO_LARGE);
    // What was pulled from the client: the 5 MB and the few chunks in flight, never the 64 MB.
    expect(sent).toBeLessThan(MAX + 1024 * 1024);
  });

  it('refuses a PMTiles body over 5 MB', () => refused(() => api.upload(key, Buffer.concat([archive, Buffer.alloc(MAX)]), 'application/vnd.pmtiles'), TOO_LARGE));

  it('refuses a multipart file over 5 MB, though the body limit admits the multipart overhead', () =>
    refused(() => api.uploadForm(key, { file: { data: paddedGeoJson(MAX + 1), filename: 'big.geojson' } }), TOO_LARGE));

  it('takes a multipart file of exactly 5 MB', async () => {
    const res = await api.uploadForm(key, { file: { data: paddedGeoJson(MAX), filename: 'full.geojson' }, name: 'full' });
    expect(res.status).toBe(201);
    await api.delete(key, res.body.id);
  });
});

describe('invalid GeoJSON', () => {
  const fc = (features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features });
  const point = (coordinates: unknown) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates } });
  it.each([
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 'invalid GeoJSON: the file is not UTF-8 text'],
    ['a top-level array', '[1, 2]', 'invalid GeoJSON: the top level must be a JSON object with a type'],
    ['an unknown type', '{"type": "Topology"}', 'invalid GeoJSON: type: must be FeatureCollection, Feature or a geometry type (Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon, GeometryCollection), got "Topology"'],
    ['a FeatureCollection without features', '{"type": "FeatureCollection"}', 'invalid GeoJSON: features: a FeatureCollection needs a features array'],
    ['an empty FeatureCollection', fc([]), 'invalid GeoJSON: it holds no feature with a geometry; nothing to draw'],
    ['only null geometries', fc([{ type: 'Feature', properties: {}, geometry: null }]), 'invalid GeoJSON: it holds no feature with a geometry; nothing to draw'],
    ['a feature that is not a Feature', fc([{ type: 'Point', coordinates: [0, 0] }]), 'invalid GeoJSON: features[0]: must be a Feature object ({"type": "Feature", ...})'],
    ['properties that are not an object', fc([{ ...point([0, 0]), properties: [1] }]), 'invalid GeoJSON: features[0].properties: must be an object or null'],
    ['an unknown geometry type', fc([{ type: 'Feature', properties: {}, geometry: { type: 'Circle', coordinates: [0, 0] } }]), 'invalid GeoJSON: features[0].geometry.type: must be one of Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon, GeometryCollection, got "Circle"'],
    ['a position of one number', fc([point([5])]), 'invalid GeoJSON: features[0].geometry.coordinates: a position must be [longitude, latitude] or [longitude, latitude, altitude]'],
    ['a position of strings', fc([point(['-123', '49'])]), 'invalid GeoJSON: features[0].geometry.coordinates: a position holds numbers only'],
    ['a longitude out of range', fc([point([0, 0]), point([-200, 49])]), 'invalid GeoJSON: features[1].geometry.coordinates: longitude -200 is outside -180 to 180 (GeoJSON is [longitude, latitude] in WGS 84)'],
    ['latitude and longitude swapped', fc([point([49.3, -123.1])]), 'invalid GeoJSON: features[0].geometry.coordinates: latitude -123.1 is outside -90 to 90 (GeoJSON is [longitude, latitude] in WGS 84)'],
    ['a line of one position', fc([{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[0, 0]] } }]), 'invalid GeoJSON: features[0].geometry.coordinates: needs at least 2 positions, got 1'],
    ['an unclosed ring', fc([{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] } }]), 'invalid GeoJSON: features[0].geometry.coordinates[0]: the ring is not closed: its last position must repeat its first'],
    ['a ring of three positions', fc([{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] } }]), 'invalid GeoJSON: features[0].geometry.coordinates[0]: needs at least 4 positions (a ring is closed: its last position repeats its first), got 3'],
    ['a nested GeometryCollection', JSON.stringify({ type: 'GeometryCollection', geometries: [{ type: 'GeometryCollection', geometries: [] }] }), 'invalid GeoJSON: geometries[0]: a GeometryCollection inside a GeometryCollection is not supported'],
  ])('%s', (_what, body, error) => refused(() => api.upload(key, body, 'application/geo+json'), error));

  it('text that is not JSON', async () => {
    const res = await api.upload(key, '{"type": "FeatureCollection", ', 'application/geo+json');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^invalid GeoJSON: the file is not valid JSON \(.+\)$/);
  });

  it('applies the same checks to a multipart file', () =>
    refused(() => api.uploadForm(key, { file: { data: '{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 95]}}', filename: 'a.geojson' } }),
      'invalid GeoJSON: geometry.coordinates: latitude 95 is outside -90 to 90 (GeoJSON is [longitude, latitude] in WGS 84)'));
});

describe('invalid PMTiles', () => {
  const withByte = (offset: number, value: number) => {
    const copy = Buffer.from(archive);
    copy[offset] = value;
    return copy;
  };
  it.each([
    ['a file shorter than the header', () => archive.subarray(0, 100), () => 'invalid PMTiles: the file has 100 bytes, fewer than the 127-byte header'],
    ['bytes that are not PMTiles', () => Buffer.from('GIF89a'.repeat(40)), () => 'invalid PMTiles: the file does not start with the PMTiles magic bytes'],
    ['spec version 2', () => withByte(7, 2), () => 'invalid PMTiles: spec version 2; only version 3 is supported'],
    ['raster tiles', () => withByte(99, 2), () => 'invalid PMTiles: tile type png; only vector tiles (mvt) are accepted'],
    ['a truncated file', () => archive.subarray(0, archive.length - 10),
      () => `invalid PMTiles: the tile data (offset ${archive.readUInt32LE(56)}, length ${archive.readUInt32LE(64)}) is not inside the file of ${archive.length - 10} bytes`],
  ])('%s', (_what, body, error) => refused(() => api.upload(key, body(), 'application/vnd.pmtiles'), error()));

  it('a multipart file that starts like PMTiles but is not one', () =>
    refused(() => api.uploadForm(key, { file: { data: Buffer.concat([Buffer.from('PMTiles'), Buffer.from([3]), Buffer.alloc(200)]), filename: 'x.pmtiles' } }),
      'invalid PMTiles: the root directory (offset 0, length 0) is not inside the file of 208 bytes'));
});

describe('names', () => {
  it('refuses a name over 200 characters, naming the count', () =>
    refused(() => api.upload(key, vancouverGeoJson(), 'application/geo+json', `?name=${'é'.repeat(201)}`), 'name must be at most 200 characters (got 201)'));

  it('refuses control characters in a name', () =>
    refused(() => api.upload(key, vancouverGeoJson(), 'application/geo+json', '?name=a%00b'), 'name must not contain control characters'));

  it('refuses a name given twice', () =>
    refused(() => api.upload(key, vancouverGeoJson(), 'application/geo+json', '?name=a&name=b'), 'name must be given once, at most 200 characters'));

  it('refuses an over-long name field', () =>
    refused(() => api.uploadForm(key, { name: 'n'.repeat(201), file: { data: vancouverGeoJson(), filename: 'a.geojson' } }), 'name must be at most 200 characters (got 201)'));
});

describe('an eleventh file', () => {
  const QUOTA = 'overlay limit reached: 10 uploaded overlays per account; delete one (DELETE /byod/{id}) before uploading another';

  it('is refused once an account holds 10; deleting one makes room', async () => {
    const full = await api.key({ accountId: 'full' });
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const res = await api.upload(full, vancouverGeoJson(), 'application/geo+json', `?name=n${i}`);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    await refused(() => api.upload(full, vancouverGeoJson(), 'application/geo+json'), QUOTA);
    await refused(() => api.uploadForm(full, { file: { data: archive, filename: 'a.pmtiles' } }), QUOTA);
    // The quota is the account's: its other keys share it, other accounts have their own.
    const sameAccount = await api.key({ accountId: 'full' });
    await refused(() => api.upload(sameAccount, vancouverGeoJson(), 'application/geo+json'), QUOTA);
    expect((await api.upload(await api.key({ accountId: 'roomy' }), vancouverGeoJson(), 'application/geo+json')).status).toBe(201);
    expect((await api.get(full, '/byod')).body.quota).toEqual({ used: 10, limit: 10, remaining: 0, maxBytes: MAX });
    expect((await api.delete(full, ids[0]!)).status).toBe(204);
    expect((await api.upload(sameAccount, vancouverGeoJson(), 'application/geo+json')).status).toBe(201);
  });

  it('lets exactly one of two concurrent uploads at 9 win', async () => {
    const racer = await api.key({ accountId: 'racer' });
    for (let i = 0; i < 9; i += 1) expect((await api.upload(racer, archive, 'application/vnd.pmtiles')).status).toBe(201);
    const results = await Promise.all([
      api.upload(racer, vancouverGeoJson(), 'application/geo+json', '?name=left'),
      api.uploadForm(racer, { file: { data: archive, filename: 'right.pmtiles' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(results.find((r) => r.status === 400)!.body).toEqual({ error: QUOTA });
    expect((await api.get(racer, '/byod')).body.quota.used).toBe(10);
    const files = (await readdir(api.byodDir)).filter((f) => f !== '.incoming');
    expect(files.length).toBe(await api.rows());
  });

  it('counts per key for a key without an account (founder and integration keys)', async () => {
    const founder = await api.key();
    const other = await api.key();
    for (let i = 0; i < 10; i += 1) expect((await api.upload(founder, archive, 'application/vnd.pmtiles')).status).toBe(201);
    await refused(() => api.upload(founder, archive, 'application/vnd.pmtiles'), QUOTA);
    expect((await api.upload(other, archive, 'application/vnd.pmtiles')).status).toBe(201);
  });
});

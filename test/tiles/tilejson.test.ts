import path from 'node:path';
import { PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileContaining } from '../../engines/tiles/tile-feature.ts';
import { FileSource } from '../../engines/tiles/pmtiles/file-source.ts';
import { basemapKind } from '../../jobs/kinds/basemap.ts';
import { prepareBasemapRelease } from '../../ingest/basemap/release.ts';
import { createKey } from '../../io/access/key-store.ts';
import { BASEMAP_ARCHIVE, BASEMAP_KIND } from '../../schemas/basemap-release.ts';
import { ARCHIVES_DIR, CATALOG_KIND } from '../../schemas/catalog-release.ts';
import type { TileJson } from '../../schemas/tiles-api.ts';
import { answerOf } from '../support/answer.ts';
import { ApiStack } from '../support/api-stack.ts';
import { vancouverArchive, vancouverGeoJson } from '../support/byod/fixtures.ts';
import { repoPath, sharedData } from '../support/paths.ts';

/*
 * TileJSON 3.0.0 of the basemap, the catalog layers and an upload, over real releases: every field
 * against the archive itself (read with the `pmtiles` package, not the API's reader), every tile
 * URL fetched back with nothing but its embedded key, gating and metering as the tiles'.
 */

const PBF = sharedData('osm/pelias-vancouver_canada.osm.pbf');
const PROVINCES = sharedData('geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson');

let stack: ApiStack;
let basemapFile = '';
let catalogDir = '';
let overlayId = '';
let pendingId = '';
/** A key of the account that owns the uploads, with every add-on the demo catalog needs. */
let owner = '';

const app = () => stack.server!.app;
const base = () => stack.env.config.baseUrl;

async function upload(key: string, body: Buffer | string, type: string): Promise<string> {
  const res = answerOf(await app().inject({ method: 'POST', url: '/byod', headers: { authorization: `Bearer ${key}`, 'content-type': type }, payload: body }));
  expect(res.status).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  stack = await ApiStack.create('tilejson');
  const basemapPayload = await basemapKind.cli.toPayload([], { pbf: PBF, provinces: PROVINCES });
  const basemap = await stack.publish((workDir) => prepareBasemapRelease(basemapPayload, { workDir }));
  const catalog = await stack.build(repoPath('samples/catalog/demo.catalog.json'));
  await stack.enable(basemap);
  await stack.enable(catalog);
  await stack.start();
  await stack.waitForRelease(basemap.id, BASEMAP_KIND);
  await stack.waitForRelease(catalog.id, CATALOG_KIND);
  basemapFile = path.join(stack.env.config.releasesDir, BASEMAP_KIND, basemap.id, BASEMAP_ARCHIVE);
  catalogDir = path.join(stack.env.config.releasesDir, CATALOG_KIND, catalog.id, ARCHIVES_DIR);
  owner = await stack.createKey({ accountId: 'tilejson_owner', plan: 'indie', addons: ['legal-land', 'energy', 'agriculture', 'remote', 'mining'] });
  overlayId = await upload(owner, await vancouverArchive(), 'application/vnd.pmtiles');
  // No worker runs here: a GeoJSON upload stays untiled.
  pendingId = await upload(owner, vancouverGeoJson(), 'application/geo+json');
}, 240_000);

afterAll(async () => {
  await stack?.close();
});

/** The archive's own header and metadata, read the way any PMTiles client reads them. */
async function archiveOf(file: string) {
  const source = new FileSource(file);
  const archive = new PMTiles(source);
  try {
    return { header: await archive.getHeader(), metadata: await archive.getMetadata() as Record<string, unknown>, archive, close: () => source.close() };
  } catch (err) {
    await source.close();
    throw err;
  }
}

/** The path and query of a tile URL template at z/x/y, checked to point at this gateway. */
function tilePath(template: string, z: number, x: number, y: number): string {
  expect(template.startsWith(`${base()}/`)).toBe(true);
  return template.slice(base().length).replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
}

/**
 * Fetches, with no credentials but the URL's own key, a tile inside `bounds` at minzoom that the
 * archive holds: 200 with the archive's bytes.
 */
async function fetchesATileBack(doc: TileJson, archive: PMTiles): Promise<void> {
  const z = doc.minzoom;
  const [west, south, east, north] = doc.bounds as [number, number, number, number];
  const [x0, y0] = tileContaining(west, north, z);
  const [x1, y1] = tileContaining(east, south, z);
  let found: { x: number; y: number; data: Buffer } | null = null;
  for (let x = x0; x <= x1 && !found; x++) {
    for (let y = y0; y <= y1 && !found; y++) {
      const tile = await archive.getZxy(z, x, y);
      if (tile) found = { x, y, data: Buffer.from(tile.data) };
    }
  }
  expect(found, `a tile of the archive at z${z} inside the bounds`).not.toBeNull();
  const res = await app().inject({ method: 'GET', url: tilePath(doc.tiles[0]!, z, found!.x, found!.y), headers: { 'accept-encoding': 'identity' } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/x-protobuf');
  expect(res.rawPayload.equals(found!.data)).toBe(true);
}

function expectCommonShape(doc: TileJson, header: { minZoom: number; maxZoom: number }): void {
  expect(doc.tilejson).toBe('3.0.0');
  expect(doc.scheme).toBe('xyz');
  expect(doc.tiles).toHaveLength(1);
  const [west, south, east, north] = doc.bounds as [number, number, number, number];
  const [lon, lat, zoom] = doc.center as [number, number, number];
  expect(lon).toBeGreaterThanOrEqual(west);
  expect(lon).toBeLessThanOrEqual(east);
  expect(lat).toBeGreaterThanOrEqual(south);
  expect(lat).toBeLessThanOrEqual(north);
  expect(zoom).toBeGreaterThanOrEqual(doc.minzoom);
  expect(zoom).toBeLessThanOrEqual(doc.maxzoom);
  expect(doc.minzoom).toBeGreaterThanOrEqual(header.minZoom);
  expect(doc.maxzoom).toBeLessThanOrEqual(header.maxZoom);
}

describe('GET /tiles.json (the basemap)', () => {
  it('states the archive: zooms, bounds, centre, attribution and its vector layers with their fields', async () => {
    const { header, metadata, archive, close } = await archiveOf(basemapFile);
    try {
      const res = await stack.get('/tiles.json');
      expect(res.status).toBe(200);
      const doc = res.body as TileJson;
      expectCommonShape(doc, header);
      expect(doc.tiles[0]).toBe(`${base()}/tiles/{z}/{x}/{y}?key=${encodeURIComponent(stack.key)}`);
      expect([doc.minzoom, doc.maxzoom]).toEqual([header.minZoom, Math.min(header.maxZoom, 14)]);
      expect(doc.bounds).toEqual([header.minLon, header.minLat, header.maxLon, header.maxLat]);
      expect(doc.center).toEqual([header.centerLon, header.centerLat, header.centerZoom]);
      expect(doc.attribution).toBe(metadata.attribution);
      expect(doc.attribution).toMatch(/OpenStreetMap/);
      expect(doc.name).toBe(metadata.name);
      expect(doc.description).toBe(metadata.description);
      expect(doc.vector_layers).toEqual(metadata.vector_layers);
      expect(doc.vector_layers!.map((l) => l.id)).toEqual(expect.arrayContaining(['earth', 'water', 'roads', 'places']));
      for (const layer of doc.vector_layers!) expect(Object.keys(layer.fields).length).toBeGreaterThan(0);
      await fetchesATileBack(doc, archive);
    } finally {
      await close();
    }
  });

  it('writes the tile URL the styles write, with the key the caller presented however it came', async () => {
    const style = await stack.get('/styles/base-light.json');
    const viaQuery = answerOf(await app().inject({ method: 'GET', url: `/tiles.json?key=${encodeURIComponent(stack.key)}` }));
    const viaHeader = answerOf(await app().inject({ method: 'GET', url: '/tiles.json', headers: { 'x-api-key': stack.key } }));
    expect(viaQuery.body.tiles).toEqual(style.body.sources.svc.tiles);
    expect(viaHeader.body.tiles).toEqual(style.body.sources.svc.tiles);
  });

  it('is private to the caller (it embeds the key) and revalidated by ETag', async () => {
    const first = await stack.get('/tiles.json');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await stack.get('/tiles.json', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // Another key's document names another key: another tag.
    const other = await stack.get('/tiles.json', { key: await stack.createKey({}) });
    expect(other.headers.etag).not.toBe(etag);
    expect((await stack.get('/tiles.json', { headers: { 'if-none-match': other.headers.etag as string } })).status).toBe(200);
  });

  it('needs a key like every path', async () => {
    const res = await stack.get('/tiles.json', { key: null });
    expect(res.status).toBe(401);
  });
});

describe('GET /layers/{id}/tiles.json', () => {
  it('states each tiled layer\'s archive and serves the zooms its tiles are served at', async () => {
    const rows = (await stack.get('/layers')).body as { id: string; attribution: string; archives: { id: string; minzoom: number; maxzoom: number }[] }[];
    const tiled = rows.filter((r) => r.archives.length > 0);
    expect(tiled.length).toBeGreaterThan(5);
    for (const row of tiled) {
      const { header, metadata, archive, close } = await archiveOf(path.join(catalogDir, `${row.archives[0]!.id}.pmtiles`));
      try {
        const res = await stack.get(`/layers/${row.id}/tiles.json`);
        expect(res.status, row.id).toBe(200);
        const doc = res.body as TileJson;
        expectCommonShape(doc, header);
        expect(doc.tiles[0]).toBe(`${base()}/layers/${encodeURIComponent(row.id)}/{z}/{x}/{y}?key=${encodeURIComponent(stack.key)}`);
        expect([doc.minzoom, doc.maxzoom]).toEqual([row.archives[0]!.minzoom, row.archives[0]!.maxzoom]);
        expect(doc.bounds).toEqual([header.minLon, header.minLat, header.maxLon, header.maxLat]);
        expect(doc.attribution).toBe(row.attribution);
        expect(doc.vector_layers, row.id).toEqual(metadata.vector_layers);
        expect(doc.vector_layers!.length).toBeGreaterThan(0);
        await fetchesATileBack(doc, archive);
      } finally {
        await close();
      }
    }
  });

  it('writes the tile URL the styles\' overlay sources write', async () => {
    const style = await stack.get('/styles/base-light.json?overlays=municipalities,survey.nts');
    for (const id of ['municipalities', 'survey.nts']) {
      expect((await stack.get(`/layers/${id}/tiles.json`)).body.tiles).toEqual(style.body.sources[`layer_${id}`].tiles);
    }
  });

  it('answers an unknown layer 404, a retired one 410, as GET /layers/{id} does', async () => {
    expect(await stack.get('/layers/nope/tiles.json')).toMatchObject({ status: 404, body: { error: 'unknown layer "nope"' } });
    expect(await stack.get('/layers/%zz/tiles.json')).toMatchObject({ status: 404, body: { error: 'unknown layer' } });
    const retired = await stack.get('/layers/water/tiles.json');
    expect(retired.status).toBe(410);
    expect(retired.body.error).toMatch(/^layer water is retired; use the basemap/);
  });

  it('refuses a key without the layer\'s add-on exactly as the layer\'s tiles do', async () => {
    const without = await stack.createKey({ plan: 'indie', addons: [] });
    const tile = answerOf(await app().inject({ method: 'GET', url: `/layers/survey.nts/0/0/0?key=${without}` }));
    const doc = answerOf(await app().inject({ method: 'GET', url: `/layers/survey.nts/tiles.json?key=${without}` }));
    expect(tile.status).toBe(403);
    expect(doc.status).toBe(403);
    expect(doc.body).toEqual(tile.body);
    expect(doc.body).toMatchObject({ code: 'addon_required', addon: 'addon-legal-land' });
    // A core layer needs nothing.
    expect(answerOf(await app().inject({ method: 'GET', url: `/layers/municipalities/tiles.json?key=${without}` })).status).toBe(200);
  });
});

describe('GET /byod/{id}/tiles.json', () => {
  it('states the caller\'s ready overlay as its archive and GET /byod/{id} do', async () => {
    const source = new FileSource(path.join(stack.env.config.byodDir, `${overlayId}.pmtiles`));
    const archive = new PMTiles(source);
    try {
      const [header, metadata] = [await archive.getHeader(), await archive.getMetadata() as Record<string, unknown>];
      const overlay = (await stack.get(`/byod/${overlayId}`, { key: owner })).body;
      const res = await stack.get(`/byod/${overlayId}/tiles.json`, { key: owner });
      expect(res.status).toBe(200);
      const doc = res.body as TileJson;
      expectCommonShape(doc, header);
      expect(doc.tiles[0]).toBe(`${base()}/byod/${overlayId}/{z}/{x}/{y}?key=${encodeURIComponent(owner)}`);
      expect(doc.name).toBe(overlay.name);
      expect([doc.minzoom, doc.maxzoom]).toEqual([overlay.minzoom, overlay.maxzoom]);
      expect(doc.bounds).toEqual(overlay.bounds);
      expect(doc.vector_layers).toEqual(metadata.vector_layers);
      expect(doc.vector_layers!.map((l) => l.id)).toEqual(overlay.layers);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      await fetchesATileBack(doc, archive);
    } finally {
      await source.close();
    }
  });

  it('answers 404 for an overlay not tiled yet, another account\'s, or an unknown id', async () => {
    const pending = await stack.get(`/byod/${pendingId}/tiles.json`, { key: owner });
    expect(pending).toMatchObject({ status: 404, body: { error: `overlay ${pendingId} has no tiles: it is still being tiled` } });
    const stranger = await stack.createKey({ accountId: 'tilejson_stranger' });
    const foreign = await stack.get(`/byod/${overlayId}/tiles.json`, { key: stranger });
    const unknown = await stack.get('/byod/0123456789abcdef01234567/tiles.json', { key: owner });
    const malformed = await stack.get('/byod/%zz/tiles.json', { key: owner });
    for (const res of [foreign, unknown, malformed]) expect(res).toMatchObject({ status: 404, body: { error: 'overlay not found' } });
    // The tiles of another account's overlay are not found either.
    expect((await app().inject({ method: 'GET', url: `/byod/${overlayId}/0/0/0?key=${stranger}` })).statusCode).toBe(404);
  });
});

describe('metering', () => {
  /** usage_daily of one key: family → [calls, premium calls]. */
  async function usage(keyId: string): Promise<Record<string, [number, number]>> {
    await app().meterJournal?.flush();
    const { rows } = await stack.pool.query<{ family: string; calls: string; premium_calls: string }>(
      'SELECT family, calls, premium_calls FROM usage_daily WHERE key_id = $1', [keyId]);
    return Object.fromEntries(rows.map((r) => [r.family, [Number(r.calls), Number(r.premium_calls)]]));
  }

  it('counts each TileJSON as one call of its tiles\' family, premium where its tiles are; a refusal counts nothing', async () => {
    const input = { accountId: 'tilejson_owner', plan: 'indie' as const, addons: ['legal-land', 'energy', 'agriculture', 'remote', 'mining'] as const };
    const docs = await createKey(stack.pool, { ...input, addons: [...input.addons] });
    const tiles = await createKey(stack.pool, { ...input, addons: [...input.addons] });
    const refused = await createKey(stack.pool, { plan: 'indie', addons: [] });
    for (const url of ['/tiles.json', '/layers/municipalities/tiles.json', '/layers/survey.nts/tiles.json', `/byod/${overlayId}/tiles.json`]) {
      expect((await app().inject({ url: `${url}?key=${docs.key}` })).statusCode, url).toBe(200);
    }
    for (const url of ['/tiles/0/0/0', '/layers/municipalities/4/2/5', '/layers/survey.nts/0/0/0', `/byod/${overlayId}/0/0/0`]) {
      expect((await app().inject({ url: `${url}?key=${tiles.key}` })).statusCode, url).toBeLessThan(300);
    }
    expect((await app().inject({ url: `/layers/survey.nts/tiles.json?key=${refused.key}` })).statusCode).toBe(403);
    const counted = await usage(docs.id);
    expect(counted).toEqual({ maps: [1, 0], catalog: [2, 1], byod: [1, 0] });
    expect(counted).toEqual(await usage(tiles.id));
    expect(await usage(refused.id)).toEqual({});
  });
});

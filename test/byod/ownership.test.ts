import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_ROW_TTL_MS } from '../../services/byod/index.ts';
import { ByodApi } from './byod-api.ts';
import { tileOf, vancouverArchive, vancouverGeoJson } from '../support/byod/fixtures.ts';

/*
 * Who sees an overlay (volume 3: 404 for an unknown id or another account's, never telling them
 * apart), DELETE (204, then 404 everywhere, files gone), and what survives a restart of the API.
 */

let api: ByodApi;
let owner: string;
let stranger: string;
let archive: Buffer;

beforeAll(async () => {
  api = await ByodApi.start('byod_owner');
  owner = await api.key({ accountId: 'owner-co' });
  stranger = await api.key({ accountId: 'stranger-co' });
  archive = await vancouverArchive();
});
afterAll(async () => api?.close());

/** Every route of one overlay, answered for `key`: [route, status, body]. */
async function everyRoute(key: string, id: string): Promise<[string, number, unknown][]> {
  const [x, y] = tileOf(9, -123.13, 49.3);
  const answers = await Promise.all([
    api.get(key, `/byod/${id}`).then((r) => ['GET /byod/{id}', r.status, r.body] as [string, number, unknown]),
    api.get(key, `/byod/${id}/data`).then((r) => ['GET /byod/{id}/data', r.status, r.body] as [string, number, unknown]),
    api.tile(key, id, 9, x, y).then((r) => ['GET /byod/{id}/{z}/{x}/{y}', r.status, r.text] as [string, number, unknown]),
  ]);
  const removed = await api.delete(key, id);
  return [...answers, ['DELETE /byod/{id}', removed.status, removed.body]];
}

const NOT_FOUND: [string, number, unknown][] = [
  ['GET /byod/{id}', 404, { error: 'overlay not found' }],
  ['GET /byod/{id}/data', 404, { error: 'overlay not found' }],
  ['GET /byod/{id}/{z}/{x}/{y}', 404, 'overlay not found'],
  ['DELETE /byod/{id}', 404, { error: 'overlay not found' }],
];

describe('another account', () => {
  it('gets the 404 of an unknown id on every route, and the overlay is untouched', async () => {
    const id = (await api.upload(owner, archive, 'application/vnd.pmtiles')).body.id;
    expect(await everyRoute(stranger, id)).toEqual(NOT_FOUND);
    expect(await everyRoute(stranger, 'ffffffffffffffffffffffff')).toEqual(NOT_FOUND);
    expect(await everyRoute(stranger, '..%2F..%2Fetc%2Fpasswd')).toEqual(NOT_FOUND);
    expect((await api.get(stranger, '/byod')).body.overlays).toEqual([]);
    expect((await api.get(owner, `/byod/${id}`)).status).toBe(200);
    expect((await api.get(owner, `/byod/${id}/data`)).raw.equals(archive)).toBe(true);
  });

  it('includes a key without an account: its uploads are its own, not an account\'s', async () => {
    const founder = await api.key();
    const id = (await api.upload(founder, vancouverGeoJson(), 'application/geo+json')).body.id;
    expect(await everyRoute(owner, id)).toEqual(NOT_FOUND);
    expect(await everyRoute(await api.key(), id)).toEqual(NOT_FOUND);
    expect((await api.get(founder, `/byod/${id}`)).status).toBe(200);
  });

  it('answers an id the router cannot take like an unknown one', async () => {
    const long = 'a'.repeat(1100);
    const res = await api.get(owner, `/byod/${long}`);
    expect([res.status, res.body]).toEqual([404, { error: 'overlay not found' }]);
    const tile = await api.tile(owner, long, 1, 0, 0);
    expect([tile.status, tile.text]).toEqual([404, 'overlay not found']);
  });
});

describe('DELETE /byod/{id}', () => {
  it('answers 204 without a body, then 404 on every route; its files are gone', async () => {
    for (const [body, type] of [[archive, 'application/vnd.pmtiles'], [vancouverGeoJson(), 'application/geo+json']] as const) {
      const id = (await api.upload(owner, body, type)).body.id;
      expect((await readdir(api.byodDir)).some((f) => f.startsWith(id))).toBe(true);
      const res = await api.app.inject({ method: 'DELETE', url: `/byod/${id}`, headers: { authorization: `Bearer ${owner}` } });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(await everyRoute(owner, id)).toEqual(NOT_FOUND);
      expect((await readdir(api.byodDir)).filter((f) => f.startsWith(id))).toEqual([]);
      expect((await api.get(owner, '/byod')).body.overlays.map((o: { id: string }) => o.id)).not.toContain(id);
    }
  });

  it('stops the tiles of an archive being served', async () => {
    const id = (await api.upload(owner, archive, 'application/vnd.pmtiles')).body.id;
    expect((await api.tile(owner, id, 0, 0, 0)).status).toBe(200);
    await api.delete(owner, id);
    expect((await api.tile(owner, id, 0, 0, 0)).status).toBe(404);
  });

  it('through another API process: its tiles stop here within READY_ROW_TTL_MS', async () => {
    const other = await api.sibling({});
    try {
      const id = (await api.upload(owner, archive, 'application/vnd.pmtiles')).body.id;
      expect((await api.tile(owner, id, 0, 0, 0)).status).toBe(200);
      const removed = await other.inject({ method: 'DELETE', url: `/byod/${id}`, headers: { authorization: `Bearer ${owner}` } });
      expect(removed.statusCode).toBe(204);
      // This process trusts the ready overlay it looked up a moment ago, for at most that long.
      expect((await api.tile(owner, id, 0, 0, 0)).status).toBe(200);
      expect((await api.get(owner, `/byod/${id}`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, READY_ROW_TTL_MS + 100));
      expect((await api.tile(owner, id, 0, 0, 0)).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe('a restart', () => {
  it('keeps every overlay: metadata, stored bytes and tiles, from the same directory and database', async () => {
    const keeper = await api.key({ accountId: 'keeper' });
    const tiles = (await api.upload(keeper, archive, 'application/vnd.pmtiles', '?name=kept%20tiles')).body;
    const geo = (await api.upload(keeper, vancouverGeoJson(), 'application/geo+json', '?name=kept%20geojson')).body;
    const before = await api.get(keeper, '/byod');
    const tileBefore = await api.tile(keeper, tiles.id, 0, 0, 0);

    await api.restart();

    expect((await api.get(keeper, '/byod')).body).toEqual(before.body);
    expect((await api.get(keeper, `/byod/${tiles.id}/data`)).raw.equals(archive)).toBe(true);
    expect((await api.get(keeper, `/byod/${geo.id}/data`)).text).toBe(vancouverGeoJson());
    const tileAfter = await api.tile(keeper, tiles.id, 0, 0, 0);
    expect(tileAfter.status).toBe(200);
    expect(tileAfter.raw.equals(tileBefore.raw)).toBe(true);
  });
});

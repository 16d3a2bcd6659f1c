import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tooSlowReason } from '../../engines/byod/tiling-limits.ts';
import { startByodTiling, type RunningByodTiling } from '../../jobs/byod/tiling-worker.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { createRedis } from '../../lib/redis.ts';
import { ByodApi } from './byod-api.ts';
import { decodeTile, tileOf, vancouverGeoJson } from '../support/byod/fixtures.ts';

/*
 * GeoJSON uploads tiled by the worker's BullMQ job (jobs/byod/, in a child process): processing
 * and 204 tiles until then, tiles that decode to the uploaded features after, a failure recorded
 * on the overlay (never a 500), and the sweep that tiles uploads whose job was never added.
 */

let api: ByodApi;
let key: string;
const quiet = () => {};

beforeAll(async () => {
  api = await ByodApi.start('byod_tiling');
  key = await api.key({ accountId: 'tiler' });
});
afterAll(async () => api?.close());

async function settled(id: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(key, `/byod/${id}`);
    if (res.body.status !== 'processing') return res.body;
    if (Date.now() > deadline) throw new Error(`overlay ${id} still processing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the tiling job', () => {
  let workers: RunningWorkers;
  let id: string;

  beforeAll(async () => {
    id = (await api.upload(key, vancouverGeoJson(), 'application/geo+json', '?name=Vancouver')).body.id;
  });
  afterAll(async () => workers?.close());

  it('leaves the overlay processing, its tiles 204, while no worker runs', async () => {
    expect((await api.get(key, `/byod/${id}`)).body.status).toBe('processing');
    const [x, y] = tileOf(10, -123.13, 49.3);
    const res = await api.tile(key, id, 10, x, y);
    expect(res.status).toBe(204);
  });

  it('tiles the upload once `canmap worker` runs: ready, with zooms, bounds and the layer byod', async () => {
    workers = await startWorkers(api.env.config, { kinds: [], byodTiling: true, log: quiet });
    const overlay = await settled(id);
    expect(overlay).toMatchObject({ status: 'ready', error: null, minzoom: 0, maxzoom: 14, layers: ['byod'] });
    expect(overlay.bounds).toEqual([-123.16, 49.28587, -123.11185, 49.315]);
    const files = await readdir(api.byodDir);
    expect(files).toContain(`${id}.geojson`);
    expect(files).toContain(`${id}.tiles.pmtiles`);
  });

  it('serves tiles that decode to the uploaded features and their properties', async () => {
    const z10 = await api.tile(key, id, 10, ...tileOf(10, -123.13, 49.3));
    expect(z10.status).toBe(200);
    expect(z10.headers['content-encoding']).toBe('gzip');
    const layer = decodeTile(z10.raw, true).layers.byod!;
    const features = Array.from({ length: layer.length }, (_, i) => layer.feature(i));
    expect(features.map((f) => [f.properties.name, f.type]).sort()).toEqual([['Seawall', 2], ['Stanley Park', 3], ['Waterfront', 1]]);
    expect(features.find((f) => f.properties.name === 'Stanley Park')!).toMatchObject({ id: 7, properties: { area_ha: 405 } });
    expect(features.find((f) => f.properties.name === 'Waterfront')!.properties.busy).toBe(true);

    const [x, y] = tileOf(14, -123.11185, 49.28587);
    const z14 = await api.tile(key, id, 14, x, y);
    expect(z14.status).toBe(200);
    const station = decodeTile(z14.raw, true).layers.byod!;
    const names = Array.from({ length: station.length }, (_, i) => station.feature(i).properties.name);
    expect(names).toContain('Waterfront');
    // Zoom 0 keeps the point (the park and the line are below a pixel there).
    expect((await api.tile(key, id, 0, 0, 0)).status).toBe(200);
    // Where the upload has nothing, and below its deepest zoom.
    expect((await api.tile(key, id, 14, ...tileOf(14, -79.38, 43.65))).status).toBe(204);
    expect((await api.tile(key, id, 15, ...tileOf(15, -123.11185, 49.28587))).status).toBe(204);
  });

  it('tiles multipart GeoJSON uploads the same way', async () => {
    const form = (await api.uploadForm(key, { file: { data: vancouverGeoJson(), filename: 'v.geojson' } })).body;
    expect(await settled(form.id)).toMatchObject({ status: 'ready', layers: ['byod'] });
  });

  it('drops the tiles of an overlay deleted before its job ran', async () => {
    await workers.close();
    const doomed = (await api.upload(key, vancouverGeoJson(), 'application/geo+json')).body.id;
    expect((await api.delete(key, doomed)).status).toBe(204);
    workers = await startWorkers(api.env.config, { kinds: [], byodTiling: true, log: quiet });
    const later = (await api.upload(key, vancouverGeoJson(), 'application/geo+json')).body.id;
    await settled(later); // the queue is FIFO: the deleted one's job ran before
    expect((await readdir(api.byodDir)).filter((f) => f.startsWith(doomed))).toEqual([]);
  });
});

describe('failures and the sweep', () => {
  let tiling: RunningByodTiling;
  const connection = () => createRedis(api.env.config.redisUrl, { blocking: true });

  afterAll(async () => tiling?.close());

  it('records a tiling that cannot finish as failed, with the reason; its tiles answer 204, not an error', async () => {
    const redis = connection();
    // A time limit no tiling meets.
    tiling = await startByodTiling(api.env.config, { pool: api.pool, connection: redis, log: quiet, tileTimeoutMs: 1 });
    const id = (await api.upload(key, vancouverGeoJson(), 'application/geo+json')).body.id;
    const overlay = await settled(id);
    expect(overlay).toMatchObject({ status: 'failed', error: tooSlowReason(0.001), layers: [] });
    expect((await api.tile(key, id, 0, 0, 0)).status).toBe(204);
    expect((await api.get(key, '/byod')).body.overlays.find((o: { id: string }) => o.id === id).status).toBe('failed');
    await tiling.close();
    redis.disconnect();
  });

  it('tiles an upload whose job never reached Redis, when the sweep finds it', async () => {
    // An API whose Redis does not answer still stores the upload (201, processing).
    const cutOff = await api.sibling({ REDIS_URL: 'redis://127.0.0.1:1' });
    const started = Date.now();
    const res = await cutOff.inject({
      method: 'POST', url: '/byod', payload: vancouverGeoJson(),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json' },
    });
    expect(res.statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(5000);
    await cutOff.close();
    const id = res.json().id;
    expect((await api.get(key, `/byod/${id}`)).body.status).toBe('processing');

    const redis = connection();
    tiling = await startByodTiling(api.env.config, { pool: api.pool, connection: redis, log: quiet, sweepGraceMs: 0 });
    expect(await tiling.sweep()).toMatch(/^byod sweep: \d+ upload\(s\) waiting, [1-9]\d* job\(s\) added/);
    expect(await settled(id)).toMatchObject({ status: 'ready', layers: ['byod'] });
    await tiling.close();
    redis.disconnect();
  });
});

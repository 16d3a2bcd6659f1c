import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveByteLimit, ARCHIVE_MIN_BYTES, tooLargeReason, tooSlowReason } from '../../engines/byod/tiling-limits.ts';
import { startByodTiling, type RunningByodTiling } from '../../jobs/byod/tiling-worker.ts';
import { createRedis } from '../../lib/redis.ts';
import { BYOD_TILE_QUEUE, byodTileJobId } from '../../schemas/byod-api.ts';
import { ByodApi } from './byod-api.ts';
import { decodeTile, denseLineGeoJson, heavyPolygonGeoJson, scatteredPointsGeoJson } from '../support/byod/fixtures.ts';

/*
 * Issue 28: what tiling one GeoJSON upload may cost. The line (870,000 points, 5.2 MB)
 * is tiled within the archive limit in seconds, not minutes; a file whose tiles would pass the
 * limit, or whose tiling passes the time limit, fails with a reason saying what to do, is not
 * retried, and leaves no file behind.
 */

let api: ByodApi;
let key: string;
let tiling: RunningByodTiling | undefined;
const redis = () => createRedis(api.env.config.redisUrl, { blocking: true });
const connections: ReturnType<typeof createRedis>[] = [];
const quiet = () => {};

beforeAll(async () => {
  // Three tries, so a retried job would show.
  api = await ByodApi.start('byod_tiling_limits', { JOB_ATTEMPTS: '3', JOB_BACKOFF_SECONDS: '1' });
  key = await api.key({ accountId: 'limits' });
});
afterAll(async () => {
  await tiling?.close();
  for (const c of connections) c.disconnect();
  await api?.close();
});

async function startTiling(tileTimeoutMs?: number): Promise<void> {
  await tiling?.close();
  const connection = redis();
  connections.push(connection);
  tiling = await startByodTiling(api.env.config, { pool: api.pool, connection, log: quiet, ...(tileTimeoutMs ? { tileTimeoutMs } : {}) });
}

async function settled(id: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(key, `/byod/${id}`);
    if (res.body.status !== 'processing') return res.body;
    if (Date.now() > deadline) throw new Error(`overlay ${id} still processing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every file under BYOD_DIR (and its .incoming/) that belongs to the overlay or to a tiling. */
async function filesOf(id: string): Promise<string[]> {
  const top = (await readdir(api.byodDir)).filter((n) => n.startsWith(id) && !n.endsWith('.geojson'));
  const incoming = await readdir(path.join(api.byodDir, '.incoming')).catch(() => [] as string[]);
  return [...top, ...incoming.filter((n) => n.startsWith(id) || n.startsWith('canmap-tiling-')).map((n) => `.incoming/${n}`)];
}

async function attemptsOf(id: string): Promise<number> {
  const connection = redis();
  const queue = new Queue(BYOD_TILE_QUEUE, { connection, prefix: api.env.config.redisPrefix });
  try {
    return (await queue.getJob(byodTileJobId(id)))!.attemptsMade;
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

describe('tiling limits', () => {
  it("tiles issue 28's 870,000-point line within the archive limit, in seconds, the line drawn at zoom 0", async () => {
    const body = denseLineGeoJson();
    expect(body.length).toBe(5_220_037);
    const id = (await api.upload(key, body, 'application/geo+json')).body.id;
    await startTiling();
    const started = Date.now();
    // Before the fix it took minutes (1 min 47 s in the issue, 95 s here): a generous ceiling,
    // above the job's own limit (60 s), which fails it rather than let it run on.
    const overlay = await settled(id, 75_000);
    expect({ status: overlay.status, error: overlay.error }).toEqual({ status: 'ready', error: null });
    expect(Date.now() - started).toBeLessThan(60_000);
    const archive = await stat(path.join(api.byodDir, `${id}.tiles.pmtiles`));
    expect(archive.size).toBeLessThanOrEqual(archiveByteLimit(body.length));
    // Its zooms follow its density: a 9° square scribbled over is not tiled to zoom 13.
    expect(overlay.maxzoom).toBeLessThanOrEqual(8);
    // Its tiles over the byte cap were simplified harder, not emptied.
    const z0 = await api.tile(key, id, 0, 0, 0);
    expect(z0.status).toBe(200);
    expect(decodeTile(z0.raw, true).layers.byod!.length).toBe(1);
    expect(await filesOf(id)).toEqual([`${id}.tiles.pmtiles`]);
  }, 90_000);

  it('fails a file whose tiles would pass the archive limit with the reason, once, leaving no file', async () => {
    const id = (await api.upload(key, heavyPolygonGeoJson(), 'application/geo+json')).body.id;
    const overlay = await settled(id, 30_000);
    expect(overlay).toMatchObject({ status: 'failed', error: tooLargeReason(ARCHIVE_MIN_BYTES), layers: [] });
    expect(overlay.error).toMatch(/more than 16 MB .*simplify the geometry .*split the file/);
    expect(await attemptsOf(id)).toBe(1);
    expect(await filesOf(id)).toEqual([]);
    expect((await api.tile(key, id, 0, 0, 0)).status).toBe(204);
  }, 40_000);

  it('kills a tiling past the time limit: failed with the reason, once, its scratch files gone', async () => {
    // Scattered points take several seconds to tile; 2.5 s stops the child mid-tiling, its scratch files on disk.
    await startTiling(2500);
    const id = (await api.upload(key, scatteredPointsGeoJson(), 'application/geo+json')).body.id;
    const overlay = await settled(id, 30_000);
    expect(overlay).toMatchObject({ status: 'failed', error: tooSlowReason(2.5) });
    expect(overlay.error).toMatch(/longer than 2.5 s .*simplify the geometry .*split the file/);
    expect(await attemptsOf(id)).toBe(1);
    expect(await filesOf(id)).toEqual([]);
  }, 40_000);
});

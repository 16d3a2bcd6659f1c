import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decode as decodePng } from 'fast-png';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../api/server.ts';
import { decodeTerrarium } from '../../engines/terrain/terrarium.ts';
import { enqueueIngest } from '../../jobs/enqueue.ts';
import { terrainKind, type TerrainPayload } from '../../jobs/kinds/terrain.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { getEnabledRelease, getRelease } from '../../releases/registry.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';
import { tileAt } from './dem-fixture.ts';

/** The demo's sample: a 3″ N48W125 (1201² posts, row 0 on lat 49), data in lat 48–48.5 only. */
const SAMPLE = repoPath('samples/terrain/N48W125.hgt.gz');

let t: TestEnv;
let pool: Pool;
let redis: Redis;
let queue: Queue;
let workers: RunningWorkers;
let server: RunningServer | null = null;
let scratch: string;

beforeAll(async () => {
  t = await createTestEnv('terrain_job');
  pool = createPool(t.config.databaseUrl);
  redis = createRedis(t.config.redisUrl);
  queue = openQueue(t.config, terrainKind.kind, redis);
  workers = await startWorkers(t.config, { kinds: [terrainKind], log: () => {} });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-terrain-job-'));
});

afterAll(async () => {
  await server?.close();
  await workers?.close();
  await queue?.close();
  redis?.disconnect();
  await pool?.end();
  await t?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function ingest(options: Record<string, unknown>, enable: boolean) {
  const payload: TerrainPayload = { ...(await terrainKind.cli.toPayload([], options)), enable };
  const { jobId } = await enqueueIngest(t.config, queue, terrainKind, payload);
  return waitForJob(queue, jobId, () => {}, 100);
}

describe('canmap ingest terrain, end to end through the queue and the release store', () => {
  it('publishes and enables a release from the demo sample, and the API serves it', async () => {
    const outcome = await ingest({ dem: [SAMPLE] }, true);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result).toMatchObject({ reused: false, enabled: true });
    expect((await getEnabledRelease(pool, 'terrain'))?.id).toBe(outcome.result.release);
    const release = (await getRelease(pool, outcome.result.release))!;
    expect(release.manifest.stats).toMatchObject({ dem_tiles: ['N48W125'], terrarium: { maxzoom: 12 }, contours: { minzoom: 9, maxzoom: 13 } });

    server = await startServer(t.config, { logger: false });
    const deadline = Date.now() + 30_000;
    while (server.app.releases.status().terrain?.id !== release.id) {
      if (Date.now() > deadline) throw new Error(`not served: ${JSON.stringify(server.app.releases.status())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const { key } = await createKey(pool, {});
    const get = (url: string) => server!.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

    // /elevation at a post of the sample answers that post's raw sample
    const raw = gunzipSync(await readFile(SAMPLE));
    const post = (row: number, col: number) => raw.readInt16BE((row * 1201 + col) * 2);
    for (const [row, col] of [[1000, 700], [1100, 1000], [1199, 300]] as const) {
      const [lng, lat] = [-125 + (col * 3) / 3600, 49 - (row * 3) / 3600];
      const answer = await get(`/elevation?at=${lng},${lat}`);
      expect(answer.json()).toMatchObject({ at: [lng, lat], elevation: post(row, col) });
    }
    expect(post(1000, 700)).toBeGreaterThan(50); // land, not sea level or a void

    const tile = tileAt(-124.3, 48.1, 10);
    const png = await get(`/terrain/4/10/${tile.x}/${tile.y}.png`);
    expect(png.statusCode).toBe(200);
    const { data } = decodePng(png.rawPayload);
    const heights = [];
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 255) heights.push(decodeTerrarium(data[i]!, data[i + 1]!, data[i + 2]!));
    expect(Math.max(...heights)).toBeGreaterThan(500);
    expect((await get(`/contours/4/12/${tileAt(-124.3, 48.1, 12).x}/${tileAt(-124.3, 48.1, 12).y}`)).statusCode).toBe(200);
  }, 180_000);

  it('reuses the release for the same input', async () => {
    const outcome = await ingest({ dem: [SAMPLE, SAMPLE] }, false);
    expect(outcome.ok && outcome.result.reused).toBe(true);
  }, 60_000);

  it('fails a DEM file the reader refuses once, without retrying, naming it', async () => {
    const broken = path.join(scratch, 'N48W124.hgt');
    await writeFile(broken, Buffer.alloc(1000));
    const outcome = await ingest({ dem: [broken] }, false);
    expect(outcome).toEqual({ ok: false, reason: `DEM file ${broken}: N48W124.hgt: 1000 bytes is neither a 1″ (3601² posts) nor a 3″ (1201² posts) tile` });
    const misnamed = path.join(scratch, 'elevation.hgt.gz');
    await writeFile(misnamed, await readFile(SAMPLE));
    expect(await ingest({ dem: [misnamed] }, false)).toEqual({ ok: false, reason: `DEM file ${misnamed}: elevation is not an SRTM tile name (like N48W125)` });
  }, 60_000);
});

describe('the command line of canmap ingest terrain', () => {
  it('resolves, sorts and deduplicates --dem files and refuses what cannot be a DEM', async () => {
    expect(await terrainKind.cli.toPayload([], { dem: [SAMPLE, SAMPLE] })).toEqual({ dem: [SAMPLE] });
    await expect(terrainKind.cli.toPayload([], {})).rejects.toThrow('--dem FILE is required');
    await expect(terrainKind.cli.toPayload(['x'], { dem: [SAMPLE] })).rejects.toThrow('unexpected argument "x"');
    await expect(terrainKind.cli.toPayload([], { dem: [path.join(scratch, 'N10W010.hgt')] })).rejects.toThrow('does not exist or is not a file');
    await expect(terrainKind.cli.toPayload([], { dem: [repoPath('samples/terrain/README.md')] })).rejects.toThrow('is neither .hgt, .hgt.gz nor a .zip of .hgt files');
  });
});

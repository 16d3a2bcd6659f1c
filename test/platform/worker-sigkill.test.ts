import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openQueue } from '../../jobs/queues.ts';
import { progressOf, waitForJob } from '../../jobs/watch.ts';
import { createPool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { stagingRoot } from '../../releases/staging.ts';
import { getEnabledRelease, listReleases } from '../../releases/registry.ts';
import { verifyReleaseDir } from '../../releases/verify.ts';
import { stopCanmapProcess, runCanmap, startWorkerProcess, type WorkerProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { writeReplicatedFeed } from '../support/replicated-feed.ts';
import { sharedData } from '../support/paths.ts';

// Real feeds from ../shared/data/gtfs (origins and licences in its SOURCES.md); the big one is
// TriMet's 2-route sample with every trip repeated 30 times (~1.3 M stop_times, seconds to build).
const GTFS = sharedData('gtfs');

let t: TestEnv;
let pool: Pool;
let redis: Redis;
let queue: Queue;
let tmp: string;
const workers: WorkerProcess[] = [];

async function feedsFile(name: string, id: string, source: string): Promise<string> {
  const file = path.join(tmp, `${name}.json`);
  await writeFile(file, JSON.stringify([{ id, source, licence: 'see SOURCES.md', attribution: id }]));
  return file;
}

const stagingEntries = () => readdir(stagingRoot(t.config.releasesDir)).catch(() => [] as string[]);
const releaseDirs = () => readdir(path.join(t.config.releasesDir, 'transit')).then((names) => names.sort());

beforeAll(async () => {
  t = await createTestEnv('worker-sigkill', { JOB_LOCK_SECONDS: '3', JOB_BACKOFF_SECONDS: '1' });
  pool = createPool(t.config.databaseUrl);
  redis = createRedis(t.config.redisUrl);
  queue = openQueue(t.config, 'transit', redis);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'canmap-sigkill-'));
});

afterAll(async () => {
  for (const w of workers) await stopCanmapProcess(w);
  await queue?.close();
  redis?.disconnect();
  await pool?.end();
  if (tmp) await rm(tmp, { recursive: true, force: true });
  await t?.cleanup();
});

it('a worker killed mid-build leaves no release behind, and a restarted worker finishes the job', async () => {
  const first = await startWorkerProcess(t.env);
  workers.push(first);

  // Something enabled to compare against: the same feed once, so the 30-fold build below grows every count (the shrink guard passes).
  const small = await runCanmap(['ingest', 'transit', '--feeds', await feedsFile('small', 'trimet', path.join(GTFS, 'transitland-trimet-2routes.zip')), '--enable', '--wait', '--json'], t.env);
  expect(small.code, small.stderr).toBe(0);
  const before = JSON.parse(small.stdout) as { release: string };
  expect((await getEnabledRelease(pool, 'transit'))?.id).toBe(before.release);

  const bigFeed = await writeReplicatedFeed(path.join(GTFS, 'transitland-trimet-2routes.zip'), path.join(tmp, 'trimet-x30'), 30);
  const queued = await runCanmap(['ingest', 'transit', '--feeds', await feedsFile('big', 'trimet', bigFeed), '--enable', '--json'], t.env);
  const jobId = (JSON.parse(queued.stdout) as { job: string }).job;

  // Mid-build: active, progress reported, and publishRelease's staging dir of this worker has files.
  const firstPid = first.child.pid!;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const job = (await queue.getJob(jobId))!;
    const state = await job.getState();
    expect(state, first.output()).not.toMatch(/completed|failed/);
    const building = (await stagingEntries()).filter((n) => n.startsWith(`${os.hostname()}~${firstPid}~`) && !n.includes('~work-'));
    const progress = progressOf(job)?.fraction ?? 0;
    if (state === 'active' && progress > 0 && building.length === 1) {
      const files = await readdir(path.join(stagingRoot(t.config.releasesDir), building[0]!));
      if (files.length > 0) break;
    }
    if (Date.now() > deadline) throw new Error(`job never reached the build:\n${first.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

  // Nothing half-built is visible: same registry, same release dirs, same enabled release.
  expect((await listReleases(pool, 'transit')).map((r) => r.id)).toEqual([before.release]);
  expect(await releaseDirs()).toEqual([before.release]);
  expect((await getEnabledRelease(pool, 'transit'))?.id).toBe(before.release);
  const leftovers = await stagingEntries();
  expect(leftovers.length).toBeGreaterThan(0);
  expect(leftovers.every((n) => n.startsWith(`${os.hostname()}~${firstPid}~`))).toBe(true);
  expect(await (await queue.getJob(jobId))!.getState()).toBe('active'); // until a live worker's stalled check moves it back

  // A new worker removes the dead worker's staging and takes the stalled job over.
  const second = await startWorkerProcess(t.env);
  workers.push(second);
  expect(second.output()).toMatch(new RegExp(`removed ${leftovers.length} staging dir\\(s\\) of dead processes`));
  const outcome = await waitForJob(queue, jobId, () => {}, 200);
  expect(outcome.ok, second.output()).toBe(true);
  if (!outcome.ok) return;
  expect(outcome.result).toMatchObject({ reused: false, enabled: true });
  const after = outcome.result.release;
  expect(after).not.toBe(before.release);
  expect((await listReleases(pool, 'transit')).map((r) => r.id).sort()).toEqual([before.release, after].sort());
  expect(await releaseDirs()).toEqual([before.release, after].sort());
  expect((await getEnabledRelease(pool, 'transit'))?.id).toBe(after);
  const enabled = (await getEnabledRelease(pool, 'transit'))!;
  expect((await verifyReleaseDir(enabled.path)).ok).toBe(true);
  expect(enabled.manifest.stats).toMatchObject({ stop_times: 43_813 * 30 });
  expect(await stagingEntries()).toEqual([]);
  const job = (await queue.getJob(jobId))!;
  expect(job.attemptsStarted).toBe(2);
  expect(job.attemptsMade).toBe(1); // the killed run was a stall, not a failed attempt
  expect(second.output()).toMatch(new RegExp(`job ${jobId}: stalled`));

  second.child.kill('SIGTERM');
  expect(await second.exited).toEqual({ code: 0, signal: null });
}, 240_000);

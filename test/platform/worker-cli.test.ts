import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue, Worker } from 'bullmq';
import type { Pool } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transitKind } from '../../jobs/kinds/transit.ts';
import { createProcessor } from '../../jobs/processor.ts';
import { queueName } from '../../jobs/queues.ts';
import { createPool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { getEnabledRelease, getRelease, listReleases, releaseHistory } from '../../releases/registry.ts';
import { stopCanmapProcess, runCanmap, startWorkerProcess, type WorkerProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { writeReplicatedFeed } from '../support/replicated-feed.ts';
import { sharedData } from '../support/paths.ts';

// Real feeds from ../shared/data/gtfs (origins and licences in its SOURCES.md).
const GTFS = sharedData('gtfs');

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'canmap-worker-cli-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function feedsFile(name: string, feeds: { id: string; source: string }[]): Promise<string> {
  const file = path.join(tmp, `${name}.json`);
  await writeFile(file, JSON.stringify(feeds.map((f) => ({ ...f, licence: 'see SOURCES.md', attribution: f.id }))));
  return file;
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const RELEASE_ID = /^\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$/;
const JOB_ID = /^transit-[0-9a-f]{16}$/;

interface Isolated {
  t: TestEnv;
  pool: Pool;
  jobs(...args: string[]): Promise<Record<string, unknown>[]>;
}

/** A database, Redis prefix (so queues) and releases folder for this describe only. */
function isolated(label: string): Isolated {
  const ctx = {
    async jobs(...args: string[]) {
      return JSON.parse((await runCanmap(['jobs', ...args, '--json'], ctx.t.env)).stdout) as Record<string, unknown>[];
    },
  } as Isolated;
  beforeAll(async () => {
    ctx.t = await createTestEnv(label, { JOB_ATTEMPTS: '3', JOB_BACKOFF_SECONDS: '1' });
    ctx.pool = createPool(ctx.t.config.databaseUrl);
  });
  afterAll(async () => {
    await ctx.pool?.end();
    await ctx.t?.cleanup();
  });
  return ctx;
}

describe('ingest refusals (no worker)', () => {
  const ctx = isolated('worker-cli-refusals');

  it('names the kinds when the kind is unknown (exit 2)', async () => {
    const run = await runCanmap(['ingest', 'ferries', '--json'], ctx.t.env);
    expect(run.code).toBe(2);
    expect(json(run.stdout)).toEqual({ error: 'unknown kind "ferries"; kinds: transit, geocoding, catalog, basemap, terrain, assets, roads, energy, parcels, road-events' });
  });

  it('refuses a broken feeds list before queueing anything (exit 2)', async () => {
    const file = path.join(tmp, 'broken.json');
    await writeFile(file, '[{"id": "Bad Id", "source": "x.zip"}]');
    const run = await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], ctx.t.env);
    expect(run.code).toBe(2);
    expect(String(json(run.stdout).error)).toMatch(/^feeds list .*broken\.json: entry 0/);
    expect(await ctx.jobs()).toEqual([]);
  });
});

describe('a job queued before any worker runs', () => {
  const ctx = isolated('worker-cli-queued');
  let worker: WorkerProcess | undefined;
  afterAll(() => stopCanmapProcess(worker));

  it('is one job per source; an --enable asked while it waits takes effect when a worker runs it', async () => {
    const file = await feedsFile('bart', [{ id: 'bart', source: path.join(GTFS, 'transitland-bart.zip') }]);
    const first = await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], ctx.t.env);
    expect(first.code).toBe(0);
    const doc = json(first.stdout);
    expect(doc).toEqual({ job: expect.stringMatching(JOB_ID), state: 'waiting' });
    const again = await runCanmap(['ingest', 'transit', '--feeds', file, '--enable', '--json'], ctx.t.env);
    expect(json(again.stdout)).toEqual({ job: doc.job, state: 'waiting' });

    worker = await startWorkerProcess(ctx.t.env);
    await worker.waitForOutput(new RegExp(`job ${doc.job}: completed, release \\S+, enabled`));
    const job = (await ctx.jobs()).find((j) => j.id === doc.job)!;
    expect(job).toMatchObject({ state: 'completed', reused: false, attemptsStarted: 1 });
    expect((await getEnabledRelease(ctx.pool, 'transit'))?.id).toBe(job.release);
    expect((await getRelease(ctx.pool, job.release as string))?.manifest.inputs.map((i) => i.name)).toEqual(['bart']);
    expect(worker.output()).toMatch(new RegExp(`job ${doc.job}: started \\(attempt 1 of 3\\)`));
  });
});

describe('--enable --wait on a job already running', () => {
  const ctx = isolated('worker-cli-late-enable');

  it('enables the release itself when the worker had read the payload before the upgrade', async () => {
    const file = await feedsFile('late-enable', [{ id: 'stq', source: path.join(GTFS, 'ca-qc-stq-ferries.zip') }]);
    const queued = json((await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], ctx.t.env)).stdout);
    const connection = createRedis(ctx.t.config.redisUrl, { blocking: true });
    const queue = new Queue(queueName('transit'), { connection, prefix: ctx.t.config.redisPrefix });
    // This test is the worker: it takes the job by hand, so it controls when the payload is read.
    const manual = new Worker(queueName('transit'), undefined, { connection, prefix: ctx.t.config.redisPrefix });
    try {
      const job = (await manual.getNextJob('test-token'))!;
      expect(job.id).toBe(queued.job);
      const readEarly = structuredClone(job.data);

      const cli = runCanmap(['ingest', 'transit', '--feeds', file, '--enable', '--wait', '--json'], ctx.t.env);
      const deadline = Date.now() + 30_000;
      while ((await queue.getJob(job.id!))?.data.enable !== true) {
        if (Date.now() > deadline) throw new Error('the CLI never upgraded the job to --enable');
        await new Promise((r) => setTimeout(r, 50));
      }
      const runJob = createProcessor(transitKind, { config: ctx.t.config, pool: ctx.pool, log: () => {}, currentPayload: async () => readEarly });
      const result = await runJob(job);
      expect(result.enabled).toBe(false); // the upgrade came after the worker's last look
      await job.moveToCompleted(result, 'test-token', false);

      const run = await cli;
      expect(run.code, run.stderr).toBe(0);
      expect(json(run.stdout)).toEqual({ job: queued.job, release: result.release, reused: false, enabled: true });
      expect((await getEnabledRelease(ctx.pool, 'transit'))?.id).toBe(result.release);
      expect((await releaseHistory(ctx.pool, 'transit', { limit: 1 }))[0]?.actor).toMatch(/^cli:/);
    } finally {
      await manual.close();
      await queue.close();
      connection.disconnect();
    }
  });
});

describe('with a running worker', () => {
  const ctx = isolated('worker-cli-running');
  let worker: WorkerProcess;
  beforeAll(async () => {
    worker = await startWorkerProcess(ctx.t.env);
  });
  afterAll(() => stopCanmapProcess(worker));

  it('--wait --json on a new source prints the job and its new release, not enabled', async () => {
    const enabledBefore = (await getEnabledRelease(ctx.pool, 'transit'))?.id ?? null;
    const file = await feedsFile('ferries', [{ id: 'stq', source: path.join(GTFS, 'ca-qc-stq-ferries.zip') }]);
    const run = await runCanmap(['ingest', 'transit', '--feeds', file, '--wait', '--json'], ctx.t.env);
    expect(run.code, run.stderr).toBe(0);
    const doc = json(run.stdout);
    expect(doc).toEqual({ job: expect.stringMatching(JOB_ID), release: expect.stringMatching(RELEASE_ID), reused: false, enabled: false });
    expect((await getRelease(ctx.pool, doc.release as string))?.manifest.inputs.map((i) => i.name)).toEqual(['stq']);
    expect((await getEnabledRelease(ctx.pool, 'transit'))?.id ?? null).toBe(enabledBefore); // no --enable
  });

  it('ingesting a finished source again runs again and reuses its release', async () => {
    const file = await feedsFile('caltrain', [{ id: 'caltrain', source: path.join(GTFS, 'transitland-caltrain.zip') }]);
    const first = await runCanmap(['ingest', 'transit', '--feeds', file, '--wait', '--json'], ctx.t.env);
    expect(first.code, first.stderr).toBe(0);
    const built = json(first.stdout);
    const releases = (await listReleases(ctx.pool, 'transit')).length;
    const again = await runCanmap(['ingest', 'transit', '--feeds', file, '--wait', '--json'], ctx.t.env);
    expect(again.code, again.stderr).toBe(0);
    expect(json(again.stdout)).toEqual({ job: built.job, release: built.release, reused: true, enabled: false });
    expect(await listReleases(ctx.pool, 'transit')).toHaveLength(releases);
    expect(worker.output().match(new RegExp(`job ${built.job}: started`, 'g'))).toHaveLength(2);
  });

  it('without --json, --wait shows plain progress lines on stderr and the release on stdout', async () => {
    const file = await feedsFile('via', [{ id: 'via', source: path.join(GTFS, 'ca-via-rail-better-via-gtfs.zip') }]);
    const run = await runCanmap(['ingest', 'transit', '--feeds', file, '--wait'], ctx.t.env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^queued transit-[0-9a-f]{16}$/);
    expect(lines.at(-1)).toBe('completed');
    expect(run.stderr).not.toContain('\r');
    expect(run.stdout).toMatch(/^\d{4}-\d{2}-\d{2}-[0-9a-f]{12}\n$/);
  });

  it('a job whose every feed is refused fails once with the reason (exit 1), without retries', async () => {
    const file = await feedsFile('refused', [{ id: 'ggl', source: path.join(GTFS, 'ggl_gtfs.zip') }]);
    const run = await runCanmap(['ingest', 'transit', '--feeds', file, '--wait', '--json'], ctx.t.env);
    expect(run.code).toBe(1);
    const doc = json(run.stdout);
    expect(doc.job).toMatch(/^transit-/);
    expect(doc.error).toMatch(/^every feed was refused: ggl: .*frequencies/);
    expect((await ctx.jobs()).find((j) => j.id === doc.job)).toMatchObject({ state: 'failed', attemptsStarted: 1, failedReason: doc.error, release: null });
  });

  it('canmap jobs lists recent jobs newest first, as JSON and as a table', async () => {
    const ran: Record<string, unknown>[] = [];
    for (const [name, id, zip] of [['list-a', 'stq-a', 'ca-qc-stq-ferries.zip'], ['list-b', 'stq-b', 'ca-qc-stq-ferries.zip'], ['list-c', 'ggl-c', 'ggl_gtfs.zip']]) {
      const file = await feedsFile(name!, [{ id: id!, source: path.join(GTFS, zip!) }]);
      ran.push(json((await runCanmap(['ingest', 'transit', '--feeds', file, '--wait', '--json'], ctx.t.env)).stdout));
    }
    const jobs = await ctx.jobs('--kind', 'transit');
    // Newest first: this test's refused job, then its two built ones (earlier tests' jobs are older).
    expect(jobs.slice(0, 3).map((j) => [j.id, j.state])).toEqual([[ran[2]!.job, 'failed'], [ran[1]!.job, 'completed'], [ran[0]!.job, 'completed']]);
    expect(jobs[2]).toMatchObject({ kind: 'transit', release: ran[0]!.release, reused: false, progress: { fraction: 1 } });
    const created = jobs.map((j) => Date.parse(j.createdAt as string));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(Date.parse(jobs[2]!.finishedAt as string)).toBeGreaterThanOrEqual(created[2]!);
    expect(await ctx.jobs('--limit', '1')).toHaveLength(1);
    const text = await runCanmap(['jobs'], ctx.t.env);
    expect(text.stdout.split('\n')[0]).toMatch(/^ID\s+KIND\s+STATE\s+PROGRESS\s+ATTEMPTS\s+CREATED\s+FINISHED\s+RELEASE \/ REASON$/);
    expect(text.stdout).toContain(ran[0]!.job as string);
    expect((await runCanmap(['jobs', '--kind', 'nope'], ctx.t.env)).code).toBe(2);
  });
});

describe('stopping a worker', () => {
  const ctx = isolated('worker-cli-signals');
  let bigFeed: string;
  let worker: WorkerProcess | undefined;
  beforeAll(async () => {
    bigFeed = await writeReplicatedFeed(path.join(GTFS, 'transitland-trimet-2routes.zip'), path.join(tmp, 'trimet-x12'), 12);
  });
  afterEach(async () => {
    await stopCanmapProcess(worker);
    worker = undefined;
  });

  it('SIGTERM mid-job: the worker finishes the job, then exits 0', async () => {
    worker = await startWorkerProcess(ctx.t.env);
    const file = await feedsFile('trimet', [{ id: 'trimet', source: bigFeed }]);
    const queued = json((await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], ctx.t.env)).stdout);
    await worker.waitForOutput(new RegExp(`job ${queued.job}: [1-9]\\d*% `));
    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const output = worker.output();
    const signalled = output.search(/SIGTERM: taking no new jobs/);
    const completed = output.search(new RegExp(`job ${queued.job}: completed, release `));
    expect(signalled).toBeGreaterThan(0);
    expect(completed).toBeGreaterThan(signalled); // the signal came mid-job, and the job still finished
    expect((await ctx.jobs()).find((j) => j.id === queued.job)).toMatchObject({ state: 'completed', attemptsStarted: 1 });
  });

  it('a second signal stops the worker at once, leaving the job to be retried', async () => {
    worker = await startWorkerProcess(ctx.t.env);
    const file = await feedsFile('trimet-again', [{ id: 'trimet2', source: bigFeed }]);
    const queued = json((await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], ctx.t.env)).stdout);
    await worker.waitForOutput(new RegExp(`job ${queued.job}: started`));
    worker.child.kill('SIGTERM');
    await worker.waitForOutput(/SIGTERM: taking no new jobs/);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 143, signal: null });
    expect(worker.output()).toMatch(/SIGTERM again: stopping now/);
    expect(worker.output()).not.toMatch(new RegExp(`job ${queued.job}: completed`));
    expect((await ctx.jobs()).find((j) => j.id === queued.job)).toMatchObject({ state: 'active', finishedAt: null });
  });
});

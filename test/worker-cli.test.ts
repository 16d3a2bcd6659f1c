import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../lib/postgres.ts';
import { getEnabledRelease, getRelease, listReleases } from '../releases/registry.ts';
import { killWorker, runCanmap, startWorkerProcess, type WorkerProcess } from './support/canmap-process.ts';
import { createTestEnv, type TestEnv } from './support/env.ts';
import { writeReplicatedFeed } from './support/replicated-feed.ts';

// Real feeds from ../shared/data/gtfs (origins and licences in its SOURCES.md).
const GTFS = path.resolve(import.meta.dirname, '../../shared/data/gtfs');

let t: TestEnv;
let pool: Pool;
let tmp: string;
let worker: WorkerProcess | undefined;

async function feedsFile(name: string, feeds: { id: string; source: string }[]): Promise<string> {
  const file = path.join(tmp, `${name}.json`);
  await writeFile(file, JSON.stringify(feeds.map((f) => ({ ...f, licence: 'see SOURCES.md', attribution: f.id }))));
  return file;
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

beforeAll(async () => {
  t = await createTestEnv('worker-cli', { JOB_ATTEMPTS: '3', JOB_BACKOFF_SECONDS: '1' });
  pool = createPool(t.config.databaseUrl);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'canmap-worker-cli-'));
});

afterAll(async () => {
  await killWorker(worker);
  await pool?.end();
  if (tmp) await rm(tmp, { recursive: true, force: true });
  await t?.cleanup();
});

describe('canmap ingest / jobs / worker as processes', () => {
  let queuedJob: string;

  it('names the kinds when the kind is unknown (exit 2)', async () => {
    const run = await runCanmap(['ingest', 'ferries', '--json'], t.env);
    expect(run.code).toBe(2);
    expect(json(run.stdout)).toEqual({ error: 'unknown kind "ferries"; kinds: transit' });
  });

  it('refuses a broken feeds list before queueing anything (exit 2)', async () => {
    const file = path.join(tmp, 'broken.json');
    await writeFile(file, '[{"id": "Bad Id", "source": "x.zip"}]');
    const run = await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], t.env);
    expect(run.code).toBe(2);
    expect(String(json(run.stdout).error)).toMatch(/^feeds list .*broken\.json: entry 0/);
    const jobs = await runCanmap(['jobs', '--json'], t.env);
    expect(JSON.parse(jobs.stdout)).toEqual([]);
  });

  it('without --wait prints the job id and its state; the same source again is the same job', async () => {
    const file = await feedsFile('bart', [{ id: 'bart', source: path.join(GTFS, 'transitland-bart.zip') }]);
    const first = await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], t.env);
    expect(first.code).toBe(0);
    const doc = json(first.stdout);
    expect(doc).toEqual({ job: expect.stringMatching(/^transit-[0-9a-f]{16}$/), state: 'waiting' });
    queuedJob = doc.job as string;
    const again = await runCanmap(['ingest', 'transit', '--feeds', file, '--enable', '--json'], t.env);
    expect(json(again.stdout)).toEqual({ job: queuedJob, state: 'waiting' });
  });

  it('a worker started later runs the queued job; the --enable of the second request took effect', async () => {
    worker = await startWorkerProcess(t.env);
    await worker.waitForOutput(new RegExp(`job ${queuedJob}: completed, release \\S+, enabled`));
    const jobs = JSON.parse((await runCanmap(['jobs', '--json'], t.env)).stdout) as Record<string, unknown>[];
    const job = jobs.find((j) => j.id === queuedJob)!;
    expect(job).toMatchObject({ state: 'completed', reused: false, attemptsStarted: 1 });
    expect((await getEnabledRelease(pool, 'transit'))?.id).toBe(job.release);
    expect((await getRelease(pool, job.release as string))?.manifest.inputs.map((i) => i.name)).toEqual(['bart']);
    expect(worker.output()).toMatch(new RegExp(`job ${queuedJob}: started \\(attempt 1 of 3\\)`));
  });

  it('--wait --json on a new source prints the job and its new release', async () => {
    const enabledBefore = (await getEnabledRelease(pool, 'transit'))?.id;
    const file = await feedsFile('ferries', [{ id: 'stq', source: path.join(GTFS, 'ca-qc-stq-ferries.zip') }]);
    const run = await runCanmap(['ingest', 'transit', '--feeds', file, '--wait', '--json'], t.env);
    expect(run.code, run.stderr).toBe(0);
    const doc = json(run.stdout);
    expect(doc).toEqual({ job: expect.stringMatching(/^transit-[0-9a-f]{16}$/), release: expect.stringMatching(/^\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$/), reused: false });
    expect(doc.job).not.toBe(queuedJob);
    expect((await getRelease(pool, doc.release as string))?.manifest.inputs.map((i) => i.name)).toEqual(['stq']);
    expect((await getEnabledRelease(pool, 'transit'))?.id).toBe(enabledBefore); // no --enable
  });

  it('ingesting a finished source again runs again and reuses its release', async () => {
    const bart = (await getEnabledRelease(pool, 'transit'))!.id;
    const run = await runCanmap(['ingest', 'transit', '--feeds', path.join(tmp, 'bart.json'), '--wait', '--json'], t.env);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run.stdout)).toEqual({ job: queuedJob, release: bart, reused: true });
    expect(await listReleases(pool, 'transit')).toHaveLength(2);
    expect(worker!.output().match(new RegExp(`job ${queuedJob}: started`, 'g'))).toHaveLength(2);
  });

  it('without --json, --wait shows plain progress lines on stderr and the release on stdout', async () => {
    const run = await runCanmap(['ingest', 'transit', '--feeds', path.join(tmp, 'ferries.json'), '--wait'], t.env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^queued transit-[0-9a-f]{16}$/);
    expect(lines.at(-1)).toBe('completed');
    expect(run.stderr).not.toContain('\r');
    expect(run.stdout).toMatch(/^\d{4}-\d{2}-\d{2}-[0-9a-f]{12} \(existing release, same content\)\n$/);
  });

  it('a job whose every feed is refused fails once with the reason (exit 1), without retries', async () => {
    const file = await feedsFile('refused', [{ id: 'ggl', source: path.join(GTFS, 'ggl_gtfs.zip') }]);
    const run = await runCanmap(['ingest', 'transit', '--feeds', file, '--wait', '--json'], t.env);
    expect(run.code).toBe(1);
    const doc = json(run.stdout);
    expect(doc.job).toMatch(/^transit-/);
    expect(doc.error).toMatch(/^every feed was refused: ggl: .*frequencies/);
    const jobs = JSON.parse((await runCanmap(['jobs', '--json'], t.env)).stdout) as Record<string, unknown>[];
    expect(jobs.find((j) => j.id === doc.job)).toMatchObject({ state: 'failed', attemptsStarted: 1, failedReason: doc.error, release: null });
  });

  it('canmap jobs lists recent jobs newest first, as JSON and as a table', async () => {
    const jobs = JSON.parse((await runCanmap(['jobs', '--kind', 'transit', '--json'], t.env)).stdout) as Record<string, unknown>[];
    // Newest first: the refused job, the ferries re-run, the bart re-run (ids are per source).
    expect(jobs.map((j) => j.state)).toEqual(['failed', 'completed', 'completed']);
    expect(jobs[2]).toMatchObject({ id: queuedJob, kind: 'transit', release: expect.any(String), reused: true, progress: { fraction: 1 } });
    const created = jobs.map((j) => Date.parse(j.createdAt as string));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(Date.parse(jobs[2]!.finishedAt as string)).toBeGreaterThanOrEqual(created[2]!);
    const limited = JSON.parse((await runCanmap(['jobs', '--limit', '1', '--json'], t.env)).stdout) as unknown[];
    expect(limited).toHaveLength(1);
    const text = await runCanmap(['jobs'], t.env);
    expect(text.stdout.split('\n')[0]).toMatch(/^ID\s+KIND\s+STATE\s+PROGRESS\s+ATTEMPTS\s+CREATED\s+FINISHED\s+RELEASE \/ REASON$/);
    expect(text.stdout).toContain(queuedJob);
    expect((await runCanmap(['jobs', '--kind', 'nope'], t.env)).code).toBe(2);
  });

  it('SIGTERM mid-job: the worker finishes the job, then exits 0', async () => {
    const dir = await writeReplicatedFeed(path.join(GTFS, 'transitland-trimet-2routes.zip'), path.join(tmp, 'trimet-x12'), 12);
    const file = await feedsFile('trimet', [{ id: 'trimet', source: dir }]);
    const queued = json((await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], t.env)).stdout);
    await worker!.waitForOutput(new RegExp(`job ${queued.job}: [1-9]\\d*% `));
    worker!.child.kill('SIGTERM');
    const exit = await worker!.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const output = worker!.output();
    const signalled = output.search(/SIGTERM: taking no new jobs/);
    const completed = output.search(new RegExp(`job ${queued.job}: completed, release `));
    expect(signalled).toBeGreaterThan(0);
    expect(completed).toBeGreaterThan(signalled); // the signal came mid-job, and the job still finished
    const jobs = JSON.parse((await runCanmap(['jobs', '--json'], t.env)).stdout) as Record<string, unknown>[];
    expect(jobs.find((j) => j.id === queued.job)).toMatchObject({ state: 'completed', attemptsStarted: 1 });
  });

  it('a second signal stops the worker at once, leaving the job to be retried', async () => {
    worker = await startWorkerProcess(t.env);
    const file = await feedsFile('trimet-again', [{ id: 'trimet2', source: path.join(tmp, 'trimet-x12') }]);
    const queued = json((await runCanmap(['ingest', 'transit', '--feeds', file, '--json'], t.env)).stdout);
    await worker.waitForOutput(new RegExp(`job ${queued.job}: started`));
    worker.child.kill('SIGTERM');
    await worker.waitForOutput(/SIGTERM: taking no new jobs/);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 143, signal: null });
    expect(worker.output()).toMatch(/SIGTERM again: stopping now/);
    expect(worker.output()).not.toMatch(new RegExp(`job ${queued.job}: completed`));
    const jobs = JSON.parse((await runCanmap(['jobs', '--json'], t.env)).stdout) as Record<string, unknown>[];
    expect(jobs.find((j) => j.id === queued.job)).toMatchObject({ state: 'active', finishedAt: null });
  });
});

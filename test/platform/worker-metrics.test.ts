import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopCanmapProcess, runCanmap, startWorkerProcess, type WorkerProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { sharedData } from '../support/paths.ts';
import { sampleValue, samplesOf, scrape } from '../support/prometheus-text.ts';

// Real feeds from ../shared/data/gtfs (origins and licences in its SOURCES.md).
const GTFS = sharedData('gtfs');
const QUEUE = 'ingest-transit';

describe('`canmap worker` serves its own /metrics and /livez on WORKER_ADMIN_PORT', () => {
  let env: TestEnv;
  let tmp: string;
  let worker: WorkerProcess;
  let adminUrl: string;

  async function ingest(name: string, zip: string): Promise<number> {
    const file = path.join(tmp, `${name}.json`);
    await writeFile(file, JSON.stringify([{ id: name, source: path.join(GTFS, zip), licence: 'see SOURCES.md', attribution: name }]));
    return (await runCanmap(['ingest', 'transit', '--feeds', file, '--wait', '--json'], env.env)).code;
  }

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'canmap-worker-metrics-'));
    env = await createTestEnv('worker_metrics', { JOB_ATTEMPTS: '3', JOB_BACKOFF_SECONDS: '1' });
    worker = await startWorkerProcess(env.env); // WORKER_ADMIN_PORT=0: any free port
    await worker.waitForOutput(/worker admin server on (http:\S+)/);
    adminUrl = /worker admin server on (http:\S+)/.exec(worker.output())![1]!;
  }, 120_000);
  afterAll(async () => {
    await stopCanmapProcess(worker);
    await env?.cleanup();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('answers /livez, and /metrics with every queue\'s counts and zeroed job counters', async () => {
    const live = await fetch(`${adminUrl}/livez`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'live' }]);
    expect((await fetch(`${adminUrl}/nowhere`)).status).toBe(404);
    const { samples } = await scrape(adminUrl);
    expect(sampleValue(samples, 'canmap_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'canmap_queue_jobs_collect_failed')).toBe(0);
    const queues = new Set(samplesOf(samples, 'canmap_queue_jobs').map((s) => s.labels.queue));
    expect([...queues]).toEqual(expect.arrayContaining([QUEUE, 'ingest-geocoding', 'schedule-road-events', 'byod-tiles']));
    expect(sampleValue(samples, 'canmap_queue_jobs', { queue: QUEUE, state: 'completed' })).toBe(0);
    expect(sampleValue(samples, 'canmap_worker_jobs_completed_total', { queue: QUEUE })).toBe(0);
    expect(sampleValue(samples, 'canmap_worker_jobs_failed_total', { queue: QUEUE })).toBe(0);
  });

  it('counts a completed and a failed job, their durations and the queue\'s states', async () => {
    expect(await ingest('stq', 'ca-qc-stq-ferries.zip')).toBe(0);
    expect(await ingest('ggl', 'ggl_gtfs.zip')).toBe(1); // every feed refused: fails once, no retry
    // The worker counts on its own events, which may trail what the CLI heard by a moment.
    let { samples } = await scrape(adminUrl);
    for (let i = 0; i < 100 && sampleValue(samples, 'canmap_worker_jobs_failed_total', { queue: QUEUE }) !== 1; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ({ samples } = await scrape(adminUrl));
    }
    expect(sampleValue(samples, 'canmap_worker_jobs_completed_total', { queue: QUEUE })).toBe(1);
    expect(sampleValue(samples, 'canmap_worker_jobs_failed_total', { queue: QUEUE })).toBe(1);
    for (const outcome of ['completed', 'failed']) {
      expect(sampleValue(samples, 'canmap_worker_job_duration_seconds_count', { queue: QUEUE, outcome })).toBe(1);
      expect(sampleValue(samples, 'canmap_worker_job_duration_seconds_sum', { queue: QUEUE, outcome })).toBeGreaterThan(0);
    }
    expect(sampleValue(samples, 'canmap_queue_jobs', { queue: QUEUE, state: 'completed' })).toBe(1);
    expect(sampleValue(samples, 'canmap_queue_jobs', { queue: QUEUE, state: 'failed' })).toBe(1);
    expect(sampleValue(samples, 'canmap_queue_jobs', { queue: QUEUE, state: 'waiting' })).toBe(0);
    // No job id or feed name in any label.
    const labelValues = samples.flatMap((s) => Object.values(s.labels));
    expect(labelValues.filter((v) => /transit-[0-9a-f]{16}|stq|ggl/.test(v))).toEqual([]);
  });

  it('closes its admin server on SIGTERM and exits 0', async () => {
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${adminUrl}/livez`)).rejects.toThrow();
  });
});

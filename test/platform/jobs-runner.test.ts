import { execFile } from 'node:child_process';
import os from 'node:os';
import { createHash } from 'node:crypto';
import net from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../ingest/errors.ts';
import { enqueueIngest, InvalidPayloadError } from '../../jobs/enqueue.ts';
import type { IngestKind } from '../../jobs/kind.ts';
import { openQueue } from '../../jobs/queues.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { waitForJob, type JobSnapshot } from '../../jobs/watch.ts';
import { createPool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { getEnabledRelease, getRelease } from '../../releases/registry.ts';
import { stagingRoot } from '../../releases/staging.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';

interface ProbePayload {
  text: string;
  enable: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const workDirsSeen: string[] = [];
const flakyCalls = new Map<string, number>();

/**
 * Test-only kinds: `probe` publishes one file holding `text`; `probe-invalid` refuses its input;
 * `probe-flaky` fails transiently on its first try; `probe-broken` always fails transiently;
 * `probe-idle` has no worker, so its jobs stay waiting.
 */
function probeKind(kind: string, behaviour: (text: string) => void = () => {}): IngestKind<ProbePayload> {
  return {
    kind,
    payloadSchema: Type.Object({ text: Type.String({ minLength: 1 }), enable: Type.Boolean() }, { additionalProperties: false }),
    cli: { usage: `${kind} TEXT`, options: {}, toPayload: async ([text]) => ({ text: text ?? '' }) },
    jobKey: (p) => p.text,
    async prepare(payload, ctx) {
      workDirsSeen.push(ctx.workDir);
      ctx.onProgress({ fraction: 0.1, message: 'checking input' });
      behaviour(payload.text);
      return {
        kind: 'probe',
        builderVersion: 'probe-1',
        schemaVersion: 1,
        inputs: [{ name: 'text', source: 'test', sha256: sha256(payload.text) }],
        async build(stagingDir) {
          ctx.onProgress({ fraction: 0.5, message: 'writing' });
          await import('node:fs/promises').then((fs) => fs.writeFile(path.join(stagingDir, 'probe.txt'), payload.text));
          return { stats: { characters: payload.text.length } };
        },
      };
    },
  };
}

const kinds = {
  probe: probeKind('probe'),
  invalid: probeKind('probe-invalid', (text) => {
    throw new InvalidInputError(`probe text ${JSON.stringify(text)} is refused`);
  }),
  flaky: probeKind('probe-flaky', (text) => {
    const calls = (flakyCalls.get(text) ?? 0) + 1;
    flakyCalls.set(text, calls);
    if (calls === 1) throw new Error('connection reset (transient)');
  }),
  broken: probeKind('probe-broken', () => {
    throw new Error('source unreachable');
  }),
  idle: probeKind('probe-idle'),
};

let t: TestEnv;
let pool: Pool;
let redis: Redis;
let workers: RunningWorkers;
const queues = new Map<string, Queue>();
const logLines: string[] = [];

function queueOf(kind: IngestKind<ProbePayload>): Queue {
  if (!queues.has(kind.kind)) queues.set(kind.kind, openQueue(t.config, kind.kind, redis));
  return queues.get(kind.kind)!;
}

async function run(kind: IngestKind<ProbePayload>, payload: ProbePayload) {
  const queue = queueOf(kind);
  const { jobId } = await enqueueIngest(t.config, queue, kind, payload);
  const seen: JobSnapshot[] = [];
  const outcome = await waitForJob(queue, jobId, (s) => seen.push(s), 100);
  return { jobId, outcome, seen, job: (await queue.getJob(jobId))! };
}

beforeAll(async () => {
  t = await createTestEnv('jobs-runner', { JOB_ATTEMPTS: '2', JOB_BACKOFF_SECONDS: '1' });
  pool = createPool(t.config.databaseUrl);
  redis = createRedis(t.config.redisUrl);
  const { probe, invalid, flaky, broken } = kinds;
  workers = await startWorkers(t.config, { kinds: [probe, invalid, flaky, broken], log: (level, line) => logLines.push(`${level} ${line}`) });
});

afterAll(async () => {
  await workers?.close();
  await Promise.all([...queues.values()].map((q) => q.close()));
  redis?.disconnect();
  await pool?.end();
  await t?.cleanup();
});

describe('generic job processor', () => {
  it('publishes what the kind prepares, reports progress, and removes its scratch dir', async () => {
    const { jobId, outcome, seen, job } = await run(kinds.probe, { text: 'hello release', enable: false });
    expect(jobId).toMatch(/^probe-[0-9a-f]{16}$/);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result).toMatchObject({ reused: false, enabled: false });
    const release = await getRelease(pool, outcome.result.release);
    expect(release?.kind).toBe('probe');
    expect(await readFile(path.join(release!.path, 'probe.txt'), 'utf8')).toBe('hello release');
    expect(release!.path.startsWith(path.join(t.config.releasesDir, 'probe'))).toBe(true);
    expect(job.progress).toEqual({ fraction: 1, message: `published release ${outcome.result.release}` });
    const fractions = seen.map((s) => s.progress?.fraction ?? 0);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b)); // never backwards
    expect(await getEnabledRelease(pool, 'probe')).toBeNull();
    expect(await readdir(stagingRoot(t.config.releasesDir))).toEqual([]);
    expect(workDirsSeen.some((d) => path.dirname(d) === stagingRoot(t.config.releasesDir) && path.basename(d).startsWith(`${os.hostname()}~${process.pid}~work-${jobId}-`))).toBe(true);
    expect(logLines).toContain(`info job ${jobId}: 10% checking input`);
    expect(logLines.some((l) => l.startsWith(`info job ${jobId}: started (attempt 1 of 2)`))).toBe(true);
    expect(logLines.some((l) => l.startsWith(`info job ${jobId}: completed, release ${outcome.result.release}`))).toBe(true);
  });

  it('fails input the kind refuses once, with its reason, without retrying', async () => {
    const { outcome, job } = await run(kinds.invalid, { text: 'bad', enable: false });
    expect(outcome).toEqual({ ok: false, reason: 'probe text "bad" is refused' });
    expect(job.attemptsStarted).toBe(1);
    expect(await job.getState()).toBe('failed');
    expect(logLines).toContain(`error job ${job.id}: failed: probe text "bad" is refused`);
  });

  it('retries a transient error with backoff and then succeeds', async () => {
    const { outcome, seen, job } = await run(kinds.flaky, { text: 'flaky once', enable: false });
    expect(outcome.ok).toBe(true);
    expect(flakyCalls.get('flaky once')).toBe(2);
    expect(job.attemptsStarted).toBe(2);
    expect(seen.some((s) => s.state === 'delayed' && s.failedReason === 'connection reset (transient)')).toBe(true);
  });

  it('ends the wait with the reason once the last attempt has failed', async () => {
    const { outcome, job } = await run(kinds.broken, { text: 'always down', enable: false });
    expect(outcome).toEqual({ ok: false, reason: 'source unreachable' });
    expect(job.attemptsMade).toBe(2);
    expect(logLines.filter((l) => l.includes(`job ${job.id}: `) && l.includes('source unreachable')).map((l) => l.split(':')[1]!.trim())).toEqual([
      'attempt failed, will retry',
      'failed',
    ]);
  });

  it('enables the release when the payload asks for it', async () => {
    const { outcome } = await run(kinds.probe, { text: 'enable me', enable: true });
    expect(outcome.ok && outcome.result.enabled).toBe(true);
    expect((await getEnabledRelease(pool, 'probe'))?.id).toBe(outcome.ok ? outcome.result.release : 'none');
  });
});

describe('enqueue', () => {
  it('refuses a payload that does not match the kind schema', async () => {
    await expect(enqueueIngest(t.config, queueOf(kinds.idle), kinds.idle, { text: '', enable: false })).rejects.toThrow(InvalidPayloadError);
    await expect(enqueueIngest(t.config, queueOf(kinds.idle), kinds.idle, { text: '', enable: false })).rejects.toThrow(/\/text/);
  });

  it('keeps one job per source while it is pending, and upgrades it to --enable', async () => {
    const queue = queueOf(kinds.idle);
    const first = await enqueueIngest(t.config, queue, kinds.idle, { text: 'same source', enable: false });
    const second = await enqueueIngest(t.config, queue, kinds.idle, { text: 'same source', enable: true });
    expect(first).toMatchObject({ created: true, state: 'waiting' });
    expect(second).toEqual({ jobId: first.jobId, state: 'waiting', created: false });
    expect(await queue.getJobCountByTypes('waiting')).toBe(1);
    expect((await queue.getJob(first.jobId))?.data).toEqual({ text: 'same source', enable: true });
    const other = await enqueueIngest(t.config, queue, kinds.idle, { text: 'another source', enable: false });
    expect(other.jobId).not.toBe(first.jobId);
  });

  it('two clients enqueueing the same source at once: one creates the job, the other sees it and its --enable is kept', async () => {
    const queue = queueOf(kinds.idle);
    for (let i = 0; i < 5; i++) {
      const text = `raced source ${i}`;
      const answers = await Promise.all([
        enqueueIngest(t.config, queue, kinds.idle, { text, enable: false }),
        enqueueIngest(t.config, queue, kinds.idle, { text, enable: true }),
      ]);
      expect(answers.map((a) => a.created).sort()).toEqual([false, true]);
      expect(answers[0]!.jobId).toBe(answers[1]!.jobId);
      expect((await queue.getJob(answers[0]!.jobId))?.data).toEqual({ text, enable: true });
    }
  });

  it('runs a finished source again, and the release layer reuses the release', async () => {
    const a = await run(kinds.probe, { text: 'ingest twice', enable: false });
    const b = await run(kinds.probe, { text: 'ingest twice', enable: false });
    expect(b.jobId).toBe(a.jobId);
    expect(a.outcome.ok && b.outcome.ok).toBe(true);
    if (!a.outcome.ok || !b.outcome.ok) return;
    expect(b.outcome.result).toEqual({ release: a.outcome.result.release, reused: true, enabled: false });
    expect(b.job.timestamp).toBeGreaterThan(a.job.timestamp);
    const starts = logLines.filter((l) => l.startsWith(`info job ${a.jobId}: started`));
    expect(starts).toHaveLength(2);
  });
});

describe('startWorkers when Redis never gets ready', () => {
  it('fails after readyTimeoutMs and closes everything it opened, so the process exits on its own', async () => {
    // A port nothing listens on: the blocking Redis connection would retry it forever.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));

    const script = repoPath('test/support/start-workers-once.ts');
    const env = { ...process.env, ...t.env, REDIS_URL: `redis://127.0.0.1:${port}` };
    const run = await new Promise<{ code: number | null; signal: string | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', script, '500'], { env, timeout: 20_000 }, (_err, stdout) =>
        resolve({ code: child.exitCode, signal: child.signalCode, stdout }));
    });
    expect(run.stdout).toBe('failed: Redis (REDIS_URL) did not get ready within 0.5 s\n');
    expect(run).toMatchObject({ code: 0, signal: null }); // not killed by the 20 s timeout: nothing held it open
  });
});

import { Worker, type Job, type Queue } from 'bullmq';
import type { Config } from '../lib/config.ts';
import { createPool } from '../lib/postgres.ts';
import { createRedis } from '../lib/redis.ts';
import type { IngestKind, IngestResult } from './kind.ts';
import { createJobLog, type JobLog } from './log.ts';
import { createProcessor } from './processor.ts';
import { openQueue, queueName } from './queues.ts';
import type { ScheduledJob } from './schedules/scheduled-job.ts';
import { startScheduledWorkers } from './schedules/start.ts';
import { startByodTiling } from './byod/tiling-worker.ts';
import { removeDeadOwnedDirs, removeDeadStaging } from '../releases/staging.ts';
import { withinMs } from '../lib/within-ms.ts';

export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs, lets running jobs finish, then closes every connection. */
  close(): Promise<void>;
}

export interface StartWorkersOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kinds differ in payload type
  kinds: IngestKind<any>[];
  /** Recurring jobs (jobs/schedules/) run beside the kinds; none when omitted. */
  schedules?: ScheduledJob[];
  /** Also tile uploaded GeoJSON overlays (jobs/byod/); `canmap worker` does. */
  byodTiling?: boolean;
  log?: JobLog;
  /** How long Redis may take to get ready before start fails, closing what it opened (30 s). */
  readyTimeoutMs?: number;
}

const READY_TIMEOUT_MS = 30_000;

function attemptText(job: Job): string {
  return `attempt ${job.attemptsStarted} of ${job.opts.attempts ?? 1}`;
}

function logLifecycle(worker: Worker, log: JobLog, attempts: number): void {
  worker.on('active', (job) => log('info', `job ${job.id}: started (${attemptText(job)})`));
  worker.on('completed', (job, result: IngestResult) =>
    log('info', `job ${job.id}: completed, release ${result.release}${result.reused ? ' (reused)' : ''}${result.enabled ? ', enabled' : ''}`),
  );
  worker.on('failed', (job, err) => {
    if (!job) return log('error', `job failed: ${err.message}`);
    const final = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? attempts);
    log(final ? 'error' : 'warn', `job ${job.id}: ${final ? 'failed' : 'attempt failed, will retry'}: ${err.message}`);
  });
  worker.on('stalled', (jobId) => log('warn', `job ${jobId}: stalled (its worker stopped renewing the lock), back in the queue`));
  worker.on('error', (err) => log('error', `worker ${worker.name}: ${err.message}`));
}

/** One BullMQ worker per kind, sharing one Redis connection and one Postgres pool. */
export async function startWorkers(config: Config, options: StartWorkersOptions): Promise<RunningWorkers> {
  const log = options.log ?? createJobLog(config.logLevel);
  const removed = await removeDeadStaging(config.releasesDir);
  if (removed.length) log('info', `removed ${removed.length} staging dir(s) of dead processes: ${removed.join(', ')}`);
  if (config.basemapBuildTempDir) {
    const scratch = await removeDeadOwnedDirs(config.basemapBuildTempDir);
    if (scratch.length) log('info', `removed ${scratch.length} basemap build scratch dir(s) of dead processes from ${config.basemapBuildTempDir}: ${scratch.join(', ')}`);
  }

  const pool = createPool(config.databaseUrl);
  const connection = createRedis(config.redisUrl, { blocking: true });
  const queues = new Map<string, Queue>();
  const workers: Worker[] = [];
  /** A failed start closes everything it opened, so the process can exit. */
  const abandon = async (ready: boolean) => {
    // Not ready: drop the connection first, or closing would wait for Redis to answer.
    if (!ready) connection.disconnect();
    await Promise.all([...workers.map((w) => w.close(!ready)), ...[...queues.values()].map((q) => q.close())].map((p) => p.catch(() => {})));
    await pool.end().catch(() => {});
    if (ready) await connection.quit().catch(() => connection.disconnect());
  };
  try {
    for (const kind of options.kinds) {
      const queue = openQueue(config, kind.kind, connection);
      queues.set(kind.kind, queue);
      const processor = createProcessor(kind, {
        config,
        pool,
        log,
        currentPayload: async (jobId) => (await queue.getJob(jobId))?.data,
      });
      const worker = new Worker(queueName(kind.kind), processor, {
        connection,
        prefix: config.redisPrefix,
        concurrency: config.workerConcurrency,
        lockDuration: config.jobLockMs,
        stalledInterval: Math.max(500, Math.round(config.jobLockMs / 2)),
      });
      logLifecycle(worker, log, config.jobAttempts);
      workers.push(worker);
    }
    // Redis retries forever by design (blocking connections); at start that would hang the process.
    const readyMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    await withinMs(Promise.all(workers.map((w) => w.waitUntilReady())), readyMs, `Redis (REDIS_URL) did not get ready within ${readyMs / 1000} s`);
  } catch (err) {
    await abandon(false);
    throw err;
  }
  let schedules: Awaited<ReturnType<typeof startScheduledWorkers>> | null = null;
  let byod: Awaited<ReturnType<typeof startByodTiling>> | null = null;
  try {
    schedules = options.schedules?.length ? await startScheduledWorkers(config, { schedules: options.schedules, pool, connection, log }) : null;
    byod = options.byodTiling ? await startByodTiling(config, { pool, connection, log }) : null;
  } catch (err) {
    await schedules?.close().catch(() => {});
    await abandon(true);
    throw err;
  }
  const all = [...workers, ...(schedules?.workers ?? []), ...(byod ? [byod.worker] : [])];
  log('info', `worker ${process.pid} ready: ${all.map((w) => w.name).join(', ')} (concurrency ${config.workerConcurrency})`);

  return {
    workers: all,
    async close() {
      await Promise.all([...workers.map((w) => w.close()), schedules?.close(), byod?.close()]);
      await Promise.all([...queues.values()].map((q) => q.close()));
      await pool.end();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

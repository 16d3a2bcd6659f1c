import { Worker, type Job } from 'bullmq';
import type { Config } from '../lib/config.ts';
import { createPool } from '../lib/postgres.ts';
import { createRedis } from '../lib/redis.ts';
import type { IngestKind, IngestResult } from './kind.ts';
import { createJobLog, type JobLog } from './log.ts';
import { createProcessor } from './processor.ts';
import { openQueue, queueName } from './queues.ts';
import type { ScheduledJob } from './schedules/scheduled-job.ts';
import { startScheduledWorkers } from './schedules/start.ts';
import { removeDeadStaging } from '../releases/staging.ts';

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
  log?: JobLog;
}

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

  const pool = createPool(config.databaseUrl);
  const connection = createRedis(config.redisUrl, { blocking: true });
  const queues = new Map(options.kinds.map((k) => [k.kind, openQueue(config, k.kind, connection)]));
  const workers = options.kinds.map((kind) => {
    const queue = queues.get(kind.kind)!;
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
    return worker;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const schedules = options.schedules?.length ? await startScheduledWorkers(config, { schedules: options.schedules, pool, connection, log }) : null;
  const all = [...workers, ...(schedules?.workers ?? [])];
  log('info', `worker ${process.pid} ready: ${all.map((w) => w.name).join(', ')} (concurrency ${config.workerConcurrency})`);

  return {
    workers: all,
    async close() {
      await Promise.all([...workers.map((w) => w.close()), schedules?.close()]);
      await Promise.all([...queues.values()].map((q) => q.close()));
      await pool.end();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

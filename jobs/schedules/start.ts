import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import type { Config } from '../../lib/config.ts';
import type { JobLog } from '../log.ts';
import { scheduleQueueName, type ScheduledJob } from './scheduled-job.ts';

const KEEP_RUNS = 100;

export interface RunningSchedules {
  workers: Worker[];
  /** Aborts runs in progress (they store nothing partial), then closes the workers and queues. */
  close(): Promise<void>;
}

/**
 * For each scheduled job: upsert its BullMQ job scheduler (every `everyMs`; idempotent, so every
 * worker process may do it) and run a Worker of concurrency 1 on its queue; the scheduler is
 * re-created if Redis lost it. A job with interval 0 has its scheduler removed. A run is never
 * retried by BullMQ: the next run is the retry.
 */
export async function startScheduledWorkers(
  config: Config,
  deps: { schedules: ScheduledJob[]; pool: Pool; connection: Redis; log: JobLog },
): Promise<RunningSchedules> {
  const { pool, connection, log } = deps;
  const queues: Queue[] = [];
  const workers: Worker[] = [];
  const running = new Set<AbortController>();
  const timers: NodeJS.Timeout[] = [];
  for (const schedule of deps.schedules) {
    const every = schedule.everyMs(config);
    const queue = new Queue(scheduleQueueName(schedule.name), { connection, prefix: config.redisPrefix });
    queues.push(queue);
    if (every <= 0) {
      await queue.removeJobScheduler(schedule.name);
      log('info', `${schedule.name}: not scheduled (interval 0)`);
      continue;
    }
    const upsert = () => queue.upsertJobScheduler(schedule.name, { every }, {
      name: schedule.name,
      data: {},
      opts: { attempts: 1, removeOnComplete: { count: KEEP_RUNS }, removeOnFail: { count: KEEP_RUNS } },
    });
    await upsert();
    // A Redis restart without persistence loses the scheduler: put it back when it is gone
    // (only then: upserting an existing one could push its next run back).
    timers.push(setInterval(() => {
      queue.getJobScheduler(schedule.name).then(
        (found) => (found ? undefined : upsert().then(() => log('warn', `${schedule.name}: job scheduler was missing from Redis; scheduled again`))),
      ).catch((err: Error) => log('warn', `${schedule.name}: could not check the job scheduler: ${err.message}`));
    }, Math.max(every, 1000)).unref());
    const worker = new Worker(scheduleQueueName(schedule.name), async () => {
      const controller = new AbortController();
      running.add(controller);
      try {
        return await schedule.run({ config, pool, log, signal: controller.signal });
      } finally {
        running.delete(controller);
      }
    }, {
      connection,
      prefix: config.redisPrefix,
      concurrency: 1,
      lockDuration: config.jobLockMs,
      stalledInterval: Math.max(500, Math.round(config.jobLockMs / 2)),
    });
    worker.on('completed', (_job, summary: string) => log('info', `${schedule.name}: ${summary}`));
    worker.on('failed', (_job, err) => log('warn', `${schedule.name}: run failed: ${err.message}`));
    worker.on('error', (err) => log('error', `worker ${worker.name}: ${err.message}`));
    workers.push(worker);
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  return {
    workers,
    async close() {
      for (const timer of timers) clearInterval(timer);
      const closing = workers.map((w) => w.close()); // take no new runs first
      for (const controller of running) controller.abort(new Error('worker stopping'));
      await Promise.all(closing);
      await Promise.all(queues.map((q) => q.close()));
    },
  };
}

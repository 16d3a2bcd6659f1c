import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../lib/config.ts';

/** Finished jobs kept per queue (and state), for `canmap jobs` and for dedupe by id. */
export const KEEP_FINISHED_JOBS = 1000;

export function queueName(kind: string): string {
  return `ingest-${kind}`;
}

export function openQueue(config: Config, kind: string, connection: Redis): Queue {
  return new Queue(queueName(kind), { connection, prefix: config.redisPrefix });
}

export function ingestJobOptions(config: Config, jobId: string): JobsOptions {
  return {
    jobId,
    attempts: config.jobAttempts,
    backoff: { type: 'exponential', delay: config.jobBackoffMs },
    removeOnComplete: { count: KEEP_FINISHED_JOBS },
    removeOnFail: { count: KEEP_FINISHED_JOBS },
  };
}

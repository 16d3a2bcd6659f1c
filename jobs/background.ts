import { BYOD_TILE_QUEUE } from '../schemas/byod-api.ts';
import { ingestKinds } from './kinds/index.ts';
import { queueName } from './queues.ts';
import { scheduledJobs } from './schedules/index.ts';
import { scheduleQueueName } from './schedules/scheduled-job.ts';
import type { StartWorkersOptions } from './worker.ts';

/**
 * Every background consumer of the service: a worker per ingest kind, the scheduled jobs and the
 * tiling of uploaded GeoJSON. `canmap worker` and `canmap demo` both start exactly this, so the
 * demo cannot miss a job that a deployment runs.
 */
export const backgroundJobs = {
  kinds: ingestKinds,
  schedules: scheduledJobs,
  byodTiling: true,
} as const satisfies Omit<StartWorkersOptions, 'log' | 'readyTimeoutMs'>;

/** The queues of every background job: what the metrics of `canmap serve` and `canmap worker` count. */
export function backgroundQueueNames(): string[] {
  return [...ingestKinds.map((k) => queueName(k.kind)), ...scheduledJobs.map((s) => scheduleQueueName(s.name)), BYOD_TILE_QUEUE];
}

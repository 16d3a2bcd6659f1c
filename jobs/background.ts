import { ingestKinds } from './kinds/index.ts';
import { scheduledJobs } from './schedules/index.ts';
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

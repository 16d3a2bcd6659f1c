import type { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Histogram, type Registry } from 'prom-client';
import { registerQueueMetrics } from '../io/jobs/queue-metrics.ts';
import { createMetricsRegistry, METRIC_PREFIX } from '../lib/metrics-registry.ts';

/** Jobs take from a second (a poll) to an hour or more (a national geocoding build). */
const JOB_DURATION_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 1800, 3600, 7200];

export interface WorkerMetrics {
  registry: Registry;
  close(): Promise<void>;
}

const secondsOf = (job: Job) => ((job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now())) / 1000;

/**
 * A worker process's metrics: the job counts of its queues (read from Redis at scrape time,
 * io/jobs/queue-metrics.ts), the jobs it completed and failed and how long they ran, per queue
 * (one per kind), from its own workers' events, and Node's process metrics.
 */
export function createWorkerMetrics(deps: { workers: Worker[]; connection: Redis; redisPrefix: string }): WorkerMetrics {
  const registry = createMetricsRegistry();
  const queueNames = [...new Set(deps.workers.map((w) => w.name))];
  const closeQueues = registerQueueMetrics(registry, { connection: deps.connection, prefix: deps.redisPrefix, queueNames });
  const completed = new Counter({
    name: `${METRIC_PREFIX}worker_jobs_completed_total`,
    help: 'Jobs this worker process completed, per queue',
    labelNames: ['queue'],
    registers: [registry],
  });
  const failed = new Counter({
    name: `${METRIC_PREFIX}worker_jobs_failed_total`,
    help: 'Job attempts that failed in this worker process, per queue (a retried job counts each failed attempt)',
    labelNames: ['queue'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${METRIC_PREFIX}worker_job_duration_seconds`,
    help: 'How long job attempts ran in this worker process, per queue and outcome (completed, failed)',
    labelNames: ['queue', 'outcome'],
    buckets: JOB_DURATION_BUCKETS,
    registers: [registry],
  });
  for (const name of queueNames) {
    completed.inc({ queue: name }, 0);
    failed.inc({ queue: name }, 0);
  }
  for (const worker of deps.workers) {
    const queue = worker.name;
    worker.on('completed', (job: Job) => {
      completed.inc({ queue });
      duration.observe({ queue, outcome: 'completed' }, secondsOf(job));
    });
    worker.on('failed', (job: Job | undefined) => {
      failed.inc({ queue });
      if (job) duration.observe({ queue, outcome: 'failed' }, secondsOf(job));
    });
  }
  return { registry, close: closeQueues };
}

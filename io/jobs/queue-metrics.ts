import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics-registry.ts';
import { withinMs } from '../../lib/within-ms.ts';

/** The states reported, a bounded set (BullMQ's 'prioritized' and 'waiting-children' are not used by canmap's queues). */
export const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'paused'] as const;

const COUNT_TIMEOUT_MS = 1000;

export interface QueueMetricsOptions {
  /** A connection that fails commands rather than queueing them (createApiRedis, lib/redis.ts). */
  connection: Redis;
  /** REDIS_PREFIX. */
  prefix: string;
  queueNames: readonly string[];
  timeoutMs?: number;
}

/**
 * `canmap_queue_jobs{queue,state}`: each queue's job counts, read from Redis at scrape time. A
 * Redis that does not answer within the timeout leaves the counts out and sets
 * `canmap_queue_jobs_collect_failed` to 1, so a scrape never hangs or fails on it.
 * Returns what closes the queues it opened.
 */
export function registerQueueMetrics(registry: Registry, options: QueueMetricsOptions): () => Promise<void> {
  const timeoutMs = options.timeoutMs ?? COUNT_TIMEOUT_MS;
  let queues: Queue[] | null = null;
  const open = () => (queues ??= options.queueNames.map((name) => {
    const queue = new Queue(name, { connection: options.connection, prefix: options.prefix });
    queue.on('error', () => {}); // a Redis that is down shows in the failed gauge
    return queue;
  }));
  // Both gauges' collect() run in the same scrape: they share one round of reads.
  let inflight: Promise<Map<string, Record<string, number>> | null> | null = null;
  const countAll = () => (inflight ??= withinMs(
    Promise.all(open().map(async (q) => [q.name, await q.getJobCounts(...JOB_STATES)] as const)),
    timeoutMs,
    `Redis did not answer within ${timeoutMs} ms`,
  ).then((entries) => new Map(entries), () => null).finally(() => {
    inflight = null;
  }));

  new Gauge({
    name: `${METRIC_PREFIX}queue_jobs`,
    aggregator: 'first',
    help: 'Jobs per queue and state, read from Redis at scrape time',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await countAll();
      for (const [queue, byState] of counts ?? []) {
        for (const state of JOB_STATES) this.set({ queue, state }, byState[state] ?? 0);
      }
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}queue_jobs_collect_failed`,
    aggregator: 'max',
    help: '1 when the job counts could not be read from Redis at this scrape (then canmap_queue_jobs is absent), else 0',
    registers: [registry],
    async collect() {
      this.set((await countAll()) === null ? 1 : 0);
    },
  });
  return async () => {
    await Promise.all((queues ?? []).map((q) => q.close().catch(() => {})));
  };
}

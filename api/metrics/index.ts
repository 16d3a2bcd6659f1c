import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import type { MeterJournal } from '../../io/access/meter-journal.ts';
import { registerQueueMetrics } from '../../io/jobs/queue-metrics.ts';
import { createMetricsRegistry, METRIC_PREFIX } from '../../lib/metrics-registry.ts';
import type { ReleaseStore } from '../../releases/reader.ts';
import type { HealthProbe } from '../admin/health-probe.ts';
import { registerDependencyMetrics } from './dependency-metrics.ts';
import { httpDurationHistogram, UNMATCHED_ROUTE, type HttpDuration } from './http-metrics.ts';
import { registerMeterMetrics } from './meter-metrics.ts';
import { registerReleaseMetrics } from './release-metrics.ts';
import { registerReleaseSyncMetrics } from './release-sync-metrics.ts';
import { registerTileCacheMetrics } from './tile-cache-metrics.ts';
import type { HotTiles } from '../../engines/tiles/hot-tiles.ts';

export interface ApiMetricsDeps {
  releases: ReleaseStore;
  health: HealthProbe;
  /** The API's Redis connection (createApiRedis: it fails commands rather than waiting). */
  redis: Redis;
  redisPrefix: string;
  /** The job queues whose counts are reported (`canmap serve` passes every queue of jobs/). */
  queueNames: readonly string[];
  /** The process's memory for stored tile bytes; not reported when omitted. */
  hotTiles?: HotTiles;
}

/** The metrics of one API process, served by the admin server's GET /metrics (docs/operations.md, Metrics). */
export interface ApiMetrics {
  registry: Registry;
  httpDuration: HttpDuration;
  /** Counts a request let through unlimited because Redis did not answer. */
  countFailOpen(): void;
  /** Reports the meter journal's backlog and flush lag (once, when the meter starts). */
  watchMeterJournal(journal: MeterJournal): void;
  /** Observes an answer sent outside the hooks (a URL Fastify cannot route). */
  observeUnrouted(request: FastifyRequest, reply: FastifyReply): void;
  close(): Promise<void>;
}

export function createApiMetrics(deps: ApiMetricsDeps): ApiMetrics {
  const registry = createMetricsRegistry();
  const httpDuration = httpDurationHistogram(registry);
  const failOpen = new Counter({
    name: `${METRIC_PREFIX}rate_limit_fail_open_total`,
    help: 'Requests let through without a rate limit because Redis did not answer',
    registers: [registry],
  });
  registerReleaseMetrics(registry, deps.releases);
  registerReleaseSyncMetrics(registry, deps.releases);
  registerDependencyMetrics(registry, deps.health);
  if (deps.hotTiles) registerTileCacheMetrics(registry, deps.hotTiles);
  const closeQueues = registerQueueMetrics(registry, { connection: deps.redis, prefix: deps.redisPrefix, queueNames: deps.queueNames });
  let journalWatched = false;
  return {
    registry,
    httpDuration,
    countFailOpen: () => failOpen.inc(),
    watchMeterJournal(journal) {
      if (journalWatched) return;
      journalWatched = true;
      registerMeterMetrics(registry, journal);
    },
    observeUnrouted(request, reply) {
      const start = performance.now();
      reply.raw.once('finish', () => {
        httpDuration.observe({ method: request.method, route: UNMATCHED_ROUTE, status_code: String(reply.statusCode) }, (performance.now() - start) / 1000);
      });
    },
    close: closeQueues,
  };
}

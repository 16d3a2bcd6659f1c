import { collectDefaultMetrics, Registry } from 'prom-client';

/** Every metric name starts with this. */
export const METRIC_PREFIX = 'canmap_';

/**
 * A Prometheus registry of this process's own (never prom-client's global one, so several apps
 * built in one process do not collide), with Node's default process metrics (CPU, memory, event
 * loop lag, GC) under the canmap_ prefix.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  return registry;
}

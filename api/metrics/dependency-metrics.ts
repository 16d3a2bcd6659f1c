import { Gauge, type Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics-registry.ts';
import type { HealthProbe } from '../admin/health-probe.ts';

/** Postgres and Redis as the health probe last found them (api/admin/health-probe.ts: every 2 s, no cost to a scrape). */
export function registerDependencyMetrics(registry: Registry, health: HealthProbe): void {
  new Gauge({
    name: `${METRIC_PREFIX}dependency_up`,
    aggregator: 'min',
    help: '1 when the dependency (postgres, redis) answered its last check, else 0',
    labelNames: ['dependency'],
    registers: [registry],
    collect() {
      for (const [dependency, last] of Object.entries(health.snapshot())) this.set({ dependency }, last.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}dependency_round_trip_seconds`,
    aggregator: 'average',
    help: 'Round trip of the last check of the dependency (SELECT 1, PING); absent while it does not answer',
    labelNames: ['dependency'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [dependency, last] of Object.entries(health.snapshot())) {
        if (last.roundTripMs !== null) this.set({ dependency }, last.roundTripMs / 1000);
      }
    },
  });
}

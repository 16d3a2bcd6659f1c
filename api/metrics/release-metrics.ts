import { Gauge, type Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics-registry.ts';
import { NO_RELEASE_ENABLED, type ReleaseStore } from '../../releases/reader.ts';

/**
 * From the release store at scrape time: `canmap_release_info{kind,release_id}` 1 for each
 * served release; per kind, whether a release is enabled, and for each kind with one, whether it
 * is served: an alert fires on `canmap_release_ready == 0` (a kind nobody enabled is no alarm, as
 * it is no reason for /readyz).
 */
export function registerReleaseMetrics(registry: Registry, releases: ReleaseStore): void {
  new Gauge({
    name: `${METRIC_PREFIX}release_info`,
    aggregator: 'max',
    help: '1 for each release this process serves (enabled and opened)',
    labelNames: ['kind', 'release_id'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, status] of Object.entries(releases.status())) {
        if (status.state === 'ready' && status.id !== null) this.set({ kind, release_id: status.id }, 1);
      }
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}release_enabled`,
    aggregator: 'max',
    help: '1 when the kind has an enabled release in Postgres, else 0',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, status] of Object.entries(releases.status())) this.set({ kind }, status.reason === NO_RELEASE_ENABLED ? 0 : 1);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}release_ready`,
    aggregator: 'min',
    help: 'For each kind with an enabled release: 1 when this process serves it, else 0 (its endpoints answer 503)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, status] of Object.entries(releases.status())) {
        if (status.reason !== NO_RELEASE_ENABLED) this.set({ kind }, status.state === 'ready' ? 1 : 0);
      }
    },
  });
}

import { Counter, Gauge, type Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics-registry.ts';
import type { ReleaseStore } from '../../releases/reader.ts';

/**
 * With RELEASE_STORE, how this node fetches releases from object storage:
 * `canmap_release_sync_failing{kind}` is 1 while the last download of the kind's enabled release
 * failed (the node keeps serving what it had, or nothing), and the downloads, failures and bytes
 * since the process started. Nothing is registered without a store.
 */
export function registerReleaseSyncMetrics(registry: Registry, releases: ReleaseStore): void {
  if (releases.syncCounters() === null) return;
  new Gauge({
    name: `${METRIC_PREFIX}release_sync_failing`,
    aggregator: 'max',
    help: '1 while the last download of the kind\'s enabled release from the release store failed, else 0',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, status] of Object.entries(releases.status())) {
        if (status.sync) this.set({ kind }, status.sync.state === 'failed' ? 1 : 0);
      }
    },
  });
  const totals = [
    ['downloads', 'Releases downloaded from the release store and verified'],
    ['failures', 'Downloads from the release store that failed or did not verify'],
    ['bytes', 'Bytes downloaded from the release store'],
  ] as const;
  for (const [field, help] of totals) {
    new Counter({
      name: `${METRIC_PREFIX}release_sync_${field}_total`,
      help,
      labelNames: ['kind'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [kind, counters] of Object.entries(releases.syncCounters() ?? {})) this.inc({ kind }, counters[field]);
      },
    });
  }
}

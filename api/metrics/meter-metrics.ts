import { Gauge, type Registry } from 'prom-client';
import type { MeterJournal } from '../../io/access/meter-journal.ts';
import { METRIC_PREFIX } from '../../lib/metrics-registry.ts';

/** The meter journal's backlog and flush lag (io/access/meter-journal.ts): answers journaled but not yet counted in Postgres. */
export function registerMeterMetrics(registry: Registry, journal: MeterJournal): void {
  new Gauge({
    name: `${METRIC_PREFIX}meter_journal_backlog_bytes`,
    aggregator: 'sum',
    help: 'Bytes this process appended to its meter journal that are not yet counted in Postgres',
    registers: [registry],
    collect() {
      this.set(journal.stats().backlogBytes);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}meter_journal_flush_lag_seconds`,
    aggregator: 'max',
    help: 'Seconds since the meter journal was last flushed to Postgres successfully (a few times a second when healthy)',
    registers: [registry],
    collect() {
      this.set(journal.stats().msSinceFlush / 1000);
    },
  });
}

import { snapshotClosures } from '../../ingest/road-events/closures/snapshot.ts';
import { configuredHttp } from '../../ingest/road-events/http-json.ts';
import type { ScheduledJob } from './scheduled-job.ts';

/** Closure snapshots of Alberta and Ontario for route warnings (CLOSURES_POLL_SECONDS); BC's come with each road-event poll. */
export const closuresSchedule: ScheduledJob = {
  name: 'closures',
  everyMs: (config) => config.closuresPollMs,
  async run({ config, pool, log, signal }) {
    const outcomes = await snapshotClosures(pool, {
      sources: { 'CA-AB': config.alberta511Url, 'CA-ON': config.ontario511Url },
      http: configuredHttp(config, signal),
      pollIntervalMs: config.closuresPollMs,
      log,
    });
    const summary = outcomes.map((o) => `${o.jurisdiction} ${o.outcome === 'changed' || o.outcome === 'unchanged' ? `${o.closures} closures` : `${o.outcome}${o.message ? ` (${o.message})` : ''}`}`).join(', ');
    if (outcomes.every((o) => o.outcome === 'failed')) throw new Error(summary);
    return summary;
  },
};

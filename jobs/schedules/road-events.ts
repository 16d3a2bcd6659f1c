import { configuredHttp } from '../../ingest/road-events/http-json.ts';
import { pollRoadEvents, type PollOutcome } from '../../ingest/road-events/poll.ts';
import type { ScheduledJob } from './scheduled-job.ts';

export function pollSummary(o: PollOutcome): string {
  const dropped = o.dropped.length ? `, ${o.dropped.length} dropped as invalid` : '';
  switch (o.outcome) {
    case 'changed':
    case 'unchanged':
      return `${o.jurisdiction} ${o.events} events (+${o.added.length} ~${o.updated.length} -${o.removed.length}${dropped}) from ${o.pages} page(s)${o.closures === null ? '' : `, ${o.closures} closures`}${o.message ? `; ${o.message}` : ''}`;
    case 'anomaly':
      return `${o.jurisdiction} answer refused: ${o.message}${dropped}`;
    default:
      return `${o.jurisdiction} ${o.outcome}: ${o.message}`;
  }
}

/** The DriveBC Open511 poll behind /incidents, /closures, /road-conditions and BC's route warnings (ROAD_EVENTS_POLL_SECONDS). */
export const roadEventsSchedule: ScheduledJob = {
  name: 'road-events',
  everyMs: (config) => config.roadEventsPollMs,
  async run({ config, pool, log, signal }) {
    const outcome = await pollRoadEvents(pool, {
      url: config.open511Url,
      http: configuredHttp(config, signal),
      pollIntervalMs: config.roadEventsPollMs,
      log,
    });
    if (outcome.outcome === 'failed') throw new Error(pollSummary(outcome));
    return pollSummary(outcome);
  },
};

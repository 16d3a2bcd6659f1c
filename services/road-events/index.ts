import type { ServiceDeps } from '../deps.ts';
import { errors } from '../../lib/errors.ts';
import { roadEventsBody, roadEventsMeta } from '../../engines/road-events/answer-body.ts';
import { freshness } from '../../engines/road-events/freshness.ts';
import { selectEvents, type EventList, type RoadEventsFilter } from '../../engines/road-events/select.ts';
import { RoadEventsCache } from '../../io/road-events/snapshot-cache.ts';

/** Retry-After of the 503: polls run every 60 s, so half of that. */
const RETRY_AFTER_SECONDS = 30;

function unavailable() {
  const err = errors.serviceUnavailable('road events', RETRY_AFTER_SECONDS);
  err.headers['cache-control'] = 'no-store';
  return err;
}

export interface RoadEventsService {
  /**
   * One list (/incidents, /closures, /road-conditions) for a checked filter, as the JSON bytes of
   * `{data, meta}`; a 503 Refusal when the snapshots cannot be read or no requested feed is servable.
   */
  list(list: EventList, filter: RoadEventsFilter): Promise<Buffer>;
  /** The next request reads the snapshot status from Postgres again (tests call this right after a poll). */
  invalidate(): void;
  /** Where a failed refresh is reported while the last snapshot keeps answering (the API logs it). */
  onRefreshError(listener: (err: unknown) => void): void;
}

/**
 * The live road events, from the snapshots the worker's polls store in Postgres: the cached view
 * (io/road-events/snapshot-cache.ts), its freshness judged at deps.now(), the filter's selection.
 */
export function createRoadEventsService(deps: ServiceDeps): RoadEventsService {
  let reportError: (err: unknown) => void = () => {};
  const cache = new RoadEventsCache(deps.pool, (err) => reportError(err));
  return {
    async list(list, filter) {
      let view;
      try {
        view = await cache.current();
      } catch {
        throw unavailable();
      }
      const now = deps.now();
      const fresh = freshness(filter.jurisdictions, view.feeds, now);
      if (fresh.status === null) throw unavailable();
      const meta = roadEventsMeta(filter.jurisdictions, fresh.status, fresh);
      return roadEventsBody(selectEvents(view.columns, list, filter, fresh.served, now), meta);
    },
    invalidate: () => cache.invalidate(),
    onRefreshError: (listener) => {
      reportError = listener;
    },
  };
}

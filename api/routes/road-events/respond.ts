import type { FastifyInstance, FastifyReply } from 'fastify';
import { JURISDICTIONS, type Jurisdiction } from '../../../ingest/road-events/jurisdictions.ts';
import { EVENT_STATUSES, type EventStatus } from '../../../ingest/road-events/mapping.ts';
import { isoUtc } from '../../../ingest/road-events/publisher-time.ts';
import type { RoadEventsMeta, RoadEventsQuery } from '../../../schemas/road-events-api.ts';
import { errors } from '../../errors.ts';
import { freshness } from './freshness.ts';
import { ParamError, readFilter } from './params.ts';
import { selectEvents, type Endpoint } from './select.ts';
import type { RoadEventsCache } from './snapshot-cache.ts';

/** Edge caching of a 200 (volume 2: polled live behind a 60-second edge cache). */
export const CACHE_CONTROL = 'public, max-age=60';
/** Retry-After of the 503: polls run every 60 s, so half of that. */
export const RETRY_AFTER_SECONDS = 30;

function unavailable() {
  const err = errors.serviceUnavailable('road events', RETRY_AFTER_SECONDS);
  err.headers['cache-control'] = 'no-store';
  return err;
}

const joined = (values: string[]) => [...new Set(values)].join('; ');

// The body is assembled from each record's stored JSON (already bytes) plus its status.
const DATA_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const STATUS_TAIL = Object.fromEntries(EVENT_STATUSES.map((s) => [s, Buffer.from(`,"status":"${s}"}`)])) as Record<EventStatus, Buffer>;

/**
 * The shared body of /incidents, /closures and /road-conditions: check the filters, take the
 * cached snapshot, judge freshness at app.now(), select, and write `{data, meta}`. Records are
 * written from their stored JSON (with status appended), not re-serialized.
 */
export async function answerRoadEvents(app: FastifyInstance, cache: RoadEventsCache, endpoint: Endpoint, query: RoadEventsQuery, reply: FastifyReply) {
  let filter;
  try {
    filter = readFilter(query);
  } catch (err) {
    if (err instanceof ParamError) throw errors.badRequest(err.message);
    throw err;
  }
  let view;
  try {
    view = await cache.current();
  } catch {
    throw unavailable();
  }
  const now = app.now();
  const fresh = freshness(filter.jurisdictions, view.feeds, now);
  if (fresh.status === null) throw unavailable();
  const infos = filter.jurisdictions.map((j) => JURISDICTIONS[j as Jurisdiction]);
  const meta: RoadEventsMeta = {
    source: joined(infos.map((i) => i.source)),
    status: fresh.status,
    attribution: joined(infos.map((i) => i.attribution)),
    fetched_at: fresh.fetchedAtMs === null ? null : isoUtc(fresh.fetchedAtMs),
    ...(fresh.unavailable.length ? { unavailable: fresh.unavailable } : {}),
  };
  const picked = selectEvents(view.columns, endpoint, filter, fresh.served, now);
  const parts: Buffer[] = [DATA_OPEN];
  for (let i = 0; i < picked.length; i++) {
    if (i) parts.push(COMMA);
    parts.push(picked[i]!.event.jsonHead, STATUS_TAIL[picked[i]!.status]);
  }
  parts.push(Buffer.from(`],"meta":${JSON.stringify(meta)}}`));
  return reply
    .header('cache-control', CACHE_CONTROL)
    .type('application/json; charset=utf-8')
    .send(Buffer.concat(parts));
}

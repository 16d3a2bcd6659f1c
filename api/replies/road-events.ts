import type { FastifyInstance, FastifyReply } from 'fastify';
import { JURISDICTIONS, type Jurisdiction } from '../../engines/road-events/jurisdictions.ts';
import { EVENT_STATUSES, type EventStatus } from '../../engines/road-events/mapping.ts';
import { isoUtc } from '../../engines/road-events/publisher-time.ts';
import type { RoadEventsMeta, RoadEventsQuery } from '../../schemas/road-events-api.ts';
import { errors } from '../../lib/errors.ts';
import { freshness } from '../../engines/road-events/freshness.ts';
import { readFilter } from '../params/road-events.ts';
import { selectEvents, type EventList } from '../../engines/road-events/select.ts';
import type { RoadEventsCache } from '../../engines/road-events/snapshot-cache.ts';

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

// fetched_at changes once a poll: formatted once per value, not per request.
let fetchedIso: { ms: number; iso: string } = { ms: NaN, iso: '' };
function fetchedAt(ms: number): string {
  if (fetchedIso.ms !== ms) fetchedIso = { ms, iso: isoUtc(ms) };
  return fetchedIso.iso;
}

// Each record's JSON was serialized to bytes once, when the snapshot was loaded; its status is appended per request.
const DATA_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const STATUS_TAIL = Object.fromEntries(EVENT_STATUSES.map((s) => [s, Buffer.from(`,"status":"${s}"}`)])) as Record<EventStatus, Buffer>;

/**
 * The shared body of /incidents, /closures and /road-conditions: check the filters, take the
 * cached snapshot, judge freshness at app.now(), select, and write `{data, meta}` by concatenating
 * the records' pre-serialized JSON bytes (sent as a Buffer, so no serializer runs; the route's
 * response schema documents the answer and the tests check answers against it). Bytes, not a
 * joined string: joining 150 KiB of strings and encoding them on write costs about 5 times more.
 */
export async function answerRoadEvents(app: FastifyInstance, cache: RoadEventsCache, list: EventList, query: RoadEventsQuery, reply: FastifyReply) {
  const filter = readFilter(query);
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
    fetched_at: fresh.fetchedAtMs === null ? null : fetchedAt(fresh.fetchedAtMs),
    ...(fresh.unavailable.length ? { unavailable: fresh.unavailable } : {}),
  };
  const picked = selectEvents(view.columns, list, filter, fresh.served, now);
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

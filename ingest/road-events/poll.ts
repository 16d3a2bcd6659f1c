import type { Pool } from 'pg';
import { closureFromOpen511 } from './closures/from-open511.ts';
import { writeClosureSnapshot } from './closures/store.ts';
import type { Closure } from '../../engines/road-events/closure.ts';
import { writeEventsSnapshot } from './events-store.ts';
import { runFeedPoll, type PollLog } from './feed-poll.ts';
import { recordAttempt } from './feed-status.ts';
import { fetchOpen511Events } from './fetch-open511.ts';
import type { HttpOptions } from './http-json.ts';
import { closuresFeed, CLOSURE_JURISDICTIONS, eventsFeed, JURISDICTIONS, type Jurisdiction } from '../../engines/road-events/jurisdictions.ts';
import { normalizeOpen511Event, type DroppedEvent, type NormalizedEvent } from './normalize-open511.ts';
import { isoUtc } from '../../engines/road-events/publisher-time.ts';
import { inTransaction } from '../../lib/postgres.ts';
import { readFeedStatus } from '../../io/road-events/feed-status.ts';
import { redactUrl } from '../../lib/redact-url.ts';

export type { PollLog } from './feed-poll.ts';

export interface PollOptions {
  url: string;
  http: HttpOptions;
  jurisdiction?: Jurisdiction;
  /** The schedule's interval, recorded so the API scales its freshness thresholds; omit for a one-off poll. */
  pollIntervalMs?: number | null;
  /** The clock (tests move it). */
  now?: () => Date;
  log?: PollLog;
}

export interface PollOutcome {
  jurisdiction: Jurisdiction;
  /** The URL polled, credentials masked (lib/redact-url.ts). */
  url: string;
  /** changed/unchanged: the answer was stored; anomaly: refused, the previous snapshot kept; failed: upstream not read; skipped: not polled. */
  outcome: 'changed' | 'unchanged' | 'anomaly' | 'failed' | 'skipped';
  at: string;
  pages: number;
  /** Events in the upstream answer, valid or not. */
  upstream: number;
  /** Events stored now (the previous snapshot's count when nothing was stored). */
  events: number;
  /** Closures stored for route warnings from this answer (null when nothing was stored). */
  closures: number | null;
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  dropped: DroppedEvent[];
  /** Why a poll failed (the detail for operators; the API shows only a generic reason), was refused or was skipped; or why a suspect answer was believed. */
  message?: string;
}

interface Read {
  events: NormalizedEvent[];
  dropped: DroppedEvent[];
  upstream: number;
  pages: number;
}

function validEvents(raw: unknown[], jurisdiction: Jurisdiction, log: PollLog): { events: NormalizedEvent[]; dropped: DroppedEvent[] } {
  const events: NormalizedEvent[] = [];
  const dropped: DroppedEvent[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    const normalized = normalizeOpen511Event(item, index, JURISDICTIONS[jurisdiction]);
    if (!normalized.ok) return dropped.push(normalized.dropped);
    if (seen.has(normalized.event.id)) return dropped.push({ index, sourceId: normalized.event.sourceId, reason: 'duplicate id (the first one is kept)' });
    seen.add(normalized.event.id);
    events.push(normalized.event);
  });
  for (const d of dropped) log('warn', `${jurisdiction}: dropped event ${d.index}${d.sourceId ? ` (${d.sourceId})` : ''}: ${d.reason}`);
  return { events, dropped };
}

/**
 * One poll of a jurisdiction's Open511 events (feed-poll.ts: one at a time, none before a 429's
 * Retry-After, a suspect empty answer refused): fetch every page, drop (and log) invalid events,
 * and replace the stored snapshot in one transaction. The same transaction replaces the
 * jurisdiction's closures for route warnings (events whose road state is CLOSED), so /closures
 * and route warnings always agree and the publisher is asked once.
 */
export async function pollRoadEvents(pool: Pool, options: PollOptions): Promise<PollOutcome> {
  const jurisdiction = options.jurisdiction ?? 'CA-BC';
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const base = (at: Date, events: number): PollOutcome => ({
    jurisdiction, url: redactUrl(options.url), outcome: 'skipped', at: isoUtc(at.getTime()), pages: 0, upstream: 0, events, closures: null,
    added: [], updated: [], removed: [], unchanged: 0, dropped: [],
  });
  const result = await runFeedPoll(pool, {
    feed: eventsFeed(jurisdiction),
    jurisdiction,
    url: options.url,
    pollIntervalMs: options.pollIntervalMs ?? null,
    now,
    log,
    label: jurisdiction,
    signal: options.http.signal,
    async fetch(): Promise<Read> {
      const fetched = await fetchOpen511Events(options.url, { ...options.http, onRetry: (line) => log('warn', `${jurisdiction}: ${line}`) });
      return { ...validEvents(fetched.events, jurisdiction, log), upstream: fetched.events.length, pages: fetched.pages };
    },
    isEmpty: (read) => read.events.length === 0,
    previous: (status) => status?.storedCount ?? 0,
    emptyText: (read, previous) => `upstream answered with no ${read.upstream ? 'valid ' : ''}events while ${previous} are stored`,
    store: (client, read, at, note) => inTransaction(client, async () => {
      const change = await writeEventsSnapshot(client, jurisdiction, read.events, { at, upstreamCount: read.upstream, note });
      if (!CLOSURE_JURISDICTIONS.includes(jurisdiction)) return { change, closures: null };
      const closures = read.events.map((e) => closureFromOpen511(e, at.getTime())).filter((c): c is Closure => c !== null);
      await recordAttempt(client, closuresFeed(jurisdiction), { jurisdiction, sourceUrl: options.url, pollIntervalMs: options.pollIntervalMs ?? null }, at);
      const saved = await writeClosureSnapshot(client, jurisdiction, closures, { at, upstreamCount: read.upstream, note });
      return { change, closures: saved.stored };
    }),
  });
  switch (result.kind) {
    case 'busy': {
      const status = await readFeedStatus(pool, eventsFeed(jurisdiction));
      return { ...base(now(), status?.storedCount ?? 0), message: `another poll of ${jurisdiction} is running` };
    }
    case 'skipped':
    case 'failed':
      return { ...base(result.at, result.status?.storedCount ?? 0), outcome: result.kind, message: result.message };
    case 'anomaly':
      return { ...base(result.at, result.status?.storedCount ?? 0), outcome: 'anomaly', message: result.message, pages: result.read.pages, upstream: result.read.upstream, dropped: result.read.dropped };
    case 'stored': {
      const { stored, ...diff } = result.saved.change;
      const changed = diff.added.length + diff.updated.length + diff.removed.length > 0;
      return {
        ...base(result.at, stored), ...diff, outcome: changed ? 'changed' : 'unchanged', closures: result.saved.closures,
        pages: result.read.pages, upstream: result.read.upstream, dropped: result.read.dropped, ...(result.note ? { message: result.note } : {}),
      };
    }
  }
}

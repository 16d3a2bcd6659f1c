import type { Pool } from 'pg';
import { replaceEventsSnapshot } from './events-store.ts';
import { readFeedStatus, recordAnomaly, recordAttempt, recordFailure, withPollLock } from './feed-status.ts';
import { fetchOpen511Events } from './fetch-open511.ts';
import { UpstreamError, type HttpOptions } from './http-json.ts';
import { eventsFeed, JURISDICTIONS, type Jurisdiction } from './jurisdictions.ts';
import { normalizeOpen511Event, type DroppedEvent, type NormalizedEvent } from './normalize-open511.ts';
import { isoUtc } from './publisher-time.ts';

/** An empty answer is suspect when the stored snapshot has at least this many events. */
export const SUSPECT_EMPTY_AFTER = 10;

export type PollLog = (level: 'error' | 'warn' | 'info' | 'debug', line: string) => void;

export interface PollOptions {
  url: string;
  http: HttpOptions;
  jurisdiction?: Jurisdiction;
  /** The clock (tests move it). */
  now?: () => Date;
  log?: PollLog;
}

export interface PollOutcome {
  jurisdiction: Jurisdiction;
  url: string;
  /** changed/unchanged: the answer was stored; anomaly: refused, the previous snapshot kept; failed: upstream not read; skipped: not polled. */
  outcome: 'changed' | 'unchanged' | 'anomaly' | 'failed' | 'skipped';
  at: string;
  pages: number;
  /** Events in the upstream answer, valid or not. */
  upstream: number;
  /** Events stored now (the previous snapshot's count when nothing was stored). */
  events: number;
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  dropped: DroppedEvent[];
  /** Why a poll failed, was refused or was skipped. */
  message?: string;
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
 * One poll of a jurisdiction's Open511 events: fetch every page, drop (and log) invalid events,
 * and replace the stored snapshot in one transaction. A failed fetch, or an empty answer while
 * the stored snapshot has many events, leaves the snapshot as it was and is recorded in the
 * feed's status. One poll per feed at a time (across processes); none before a 429's Retry-After.
 */
export async function pollRoadEvents(pool: Pool, options: PollOptions): Promise<PollOutcome> {
  const jurisdiction = options.jurisdiction ?? 'CA-BC';
  const feed = eventsFeed(jurisdiction);
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const base = (at: Date, events: number): PollOutcome => ({
    jurisdiction, url: options.url, outcome: 'skipped', at: isoUtc(at.getTime()), pages: 0, upstream: 0, events,
    added: [], updated: [], removed: [], unchanged: 0, dropped: [],
  });

  const result = await withPollLock(pool, `poll:${feed}`, async (): Promise<PollOutcome> => {
    const startedAt = now();
    const status = await readFeedStatus(pool, feed);
    const stored = status?.storedCount ?? 0;
    if (status?.notBefore && status.notBefore > startedAt) {
      return { ...base(startedAt, stored), message: `upstream asked to wait (429 Retry-After) until ${isoUtc(status.notBefore.getTime())}` };
    }
    await recordAttempt(pool, feed, jurisdiction, options.url, startedAt);
    let fetched: { events: unknown[]; pages: number };
    try {
      fetched = await fetchOpen511Events(options.url, { ...options.http, onRetry: (line) => log('warn', `${jurisdiction}: ${line}`) });
    } catch (err) {
      const at = now();
      const message = err instanceof Error ? err.message : String(err);
      // Stopped by us (worker shutting down): not the upstream's fault, so not recorded as its failure.
      if (options.http.signal?.aborted) return { ...base(at, stored), outcome: 'failed', message };
      const wait = err instanceof UpstreamError ? err.retryAfterMs : null;
      await recordFailure(pool, feed, message, at, wait === null ? null : new Date(at.getTime() + wait));
      log('error', `${jurisdiction}: poll failed, keeping the stored ${stored} events: ${message}`);
      return { ...base(at, stored), outcome: 'failed', message };
    }
    const at = now();
    const { events, dropped } = validEvents(fetched.events, jurisdiction, log);
    const answered = { ...base(at, stored), pages: fetched.pages, upstream: fetched.events.length, dropped };
    if (events.length === 0 && stored >= SUSPECT_EMPTY_AFTER) {
      const message = `upstream answered with no ${fetched.events.length ? 'valid ' : ''}events while ${stored} are stored; kept the stored snapshot`;
      await recordAnomaly(pool, feed, message, at);
      log('warn', `${jurisdiction}: ${message}`);
      return { ...answered, outcome: 'anomaly', message };
    }
    const { stored: storedNow, ...diff } = await replaceEventsSnapshot(pool, jurisdiction, events, { at, upstreamCount: fetched.events.length });
    const changed = diff.added.length + diff.updated.length + diff.removed.length > 0;
    return { ...answered, ...diff, outcome: changed ? 'changed' : 'unchanged', events: storedNow };
  });
  if (result) return result;
  const status = await readFeedStatus(pool, feed);
  return { ...base(now(), status?.storedCount ?? 0), message: `another poll of ${jurisdiction} is running` };
}

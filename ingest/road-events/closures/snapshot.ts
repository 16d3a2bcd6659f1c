import type { Pool } from 'pg';
import { readFeedStatus, recordAnomaly, recordAttempt, recordFailure, withPollLock } from '../feed-status.ts';
import { fetchOpen511Events } from '../fetch-open511.ts';
import { fetchJson, UpstreamError, type HttpOptions } from '../http-json.ts';
import { closuresFeed, CLOSURE_JURISDICTIONS, JURISDICTIONS, type Jurisdiction } from '../jurisdictions.ts';
import { normalizeOpen511Event, type DroppedEvent } from '../normalize-open511.ts';
import { SUSPECT_EMPTY_AFTER, type PollLog } from '../poll.ts';
import { isoUtc } from '../publisher-time.ts';
import type { Closure } from './closure.ts';
import { closureFrom511 } from './from-511.ts';
import { closureFromOpen511 } from './from-open511.ts';
import { replaceClosureSnapshot } from './store.ts';

export interface ClosureSources {
  /** DriveBC Open511 events API. */
  'CA-BC': string;
  /** 511 platform `api/v2/get/event` of Alberta and Ontario. */
  'CA-AB': string;
  'CA-ON': string;
}

export interface ClosureSnapshotOutcome {
  jurisdiction: Jurisdiction;
  url: string;
  outcome: 'changed' | 'unchanged' | 'anomaly' | 'failed' | 'skipped';
  at: string;
  upstream: number;
  closures: number;
  dropped: DroppedEvent[];
  message?: string;
}

/** The 511 answer URL with format=json and lang=en unless the base sets them. */
export function url511(base: string): string {
  const url = new URL(base);
  if (!url.searchParams.has('format')) url.searchParams.set('format', 'json');
  if (!url.searchParams.has('lang')) url.searchParams.set('lang', 'en');
  return url.toString();
}

async function fetchClosures(jurisdiction: Jurisdiction, url: string, http: HttpOptions, fetchedMs: number) {
  const info = JURISDICTIONS[jurisdiction];
  const closures: Closure[] = [];
  const dropped: DroppedEvent[] = [];
  if (jurisdiction === 'CA-BC') {
    const { events } = await fetchOpen511Events(url, http);
    events.forEach((raw, index) => {
      const normalized = normalizeOpen511Event(raw, index, info);
      if (!normalized.ok) return dropped.push(normalized.dropped);
      const closure = closureFromOpen511(normalized.event, fetchedMs);
      if (closure) closures.push(closure);
    });
    return { upstream: events.length, closures, dropped };
  }
  const answer = await fetchJson(url511(url), http);
  if (!Array.isArray(answer)) throw new UpstreamError(`${url}: answer is not a JSON array of 511 events`, true);
  answer.forEach((raw, index) => {
    const read = closureFrom511(raw, index, info);
    if (read.kind === 'closure') closures.push(read.closure);
    else if (read.kind === 'invalid') dropped.push(read.dropped);
  });
  return { upstream: answer.length, closures, dropped };
}

async function snapshotOne(pool: Pool, jurisdiction: Jurisdiction, url: string, http: HttpOptions, now: () => Date, log: PollLog): Promise<ClosureSnapshotOutcome> {
  const feed = closuresFeed(jurisdiction);
  const outcome = (at: Date, rest: Omit<ClosureSnapshotOutcome, 'jurisdiction' | 'url' | 'at'>): ClosureSnapshotOutcome =>
    ({ jurisdiction, url, at: isoUtc(at.getTime()), ...rest });
  const done = await withPollLock(pool, `poll:${feed}`, async () => {
    const startedAt = now();
    const status = await readFeedStatus(pool, feed);
    const stored = status?.storedCount ?? 0;
    if (status?.notBefore && status.notBefore > startedAt) {
      return outcome(startedAt, { outcome: 'skipped', upstream: 0, closures: stored, dropped: [], message: `upstream asked to wait (429 Retry-After) until ${isoUtc(status.notBefore.getTime())}` });
    }
    await recordAttempt(pool, feed, jurisdiction, url, startedAt);
    let read;
    try {
      read = await fetchClosures(jurisdiction, url, { ...http, onRetry: (line) => log('warn', `closures ${jurisdiction}: ${line}`) }, startedAt.getTime());
    } catch (err) {
      const at = now();
      const message = err instanceof Error ? err.message : String(err);
      if (http.signal?.aborted) return outcome(at, { outcome: 'failed', upstream: 0, closures: stored, dropped: [], message });
      const wait = err instanceof UpstreamError ? err.retryAfterMs : null;
      await recordFailure(pool, feed, message, at, wait === null ? null : new Date(at.getTime() + wait));
      log('error', `closures ${jurisdiction}: snapshot failed, keeping the stored ${stored}: ${message}`);
      return outcome(at, { outcome: 'failed', upstream: 0, closures: stored, dropped: [], message });
    }
    const at = now();
    for (const d of read.dropped) log('warn', `closures ${jurisdiction}: dropped event ${d.index}${d.sourceId ? ` (${d.sourceId})` : ''}: ${d.reason}`);
    if (read.upstream === 0 && (status?.upstreamCount ?? 0) >= SUSPECT_EMPTY_AFTER) {
      const message = `upstream answered with no events while the previous answer had ${status!.upstreamCount}; kept the stored snapshot`;
      await recordAnomaly(pool, feed, message, at);
      log('warn', `closures ${jurisdiction}: ${message}`);
      return outcome(at, { outcome: 'anomaly', upstream: 0, closures: stored, dropped: read.dropped, message });
    }
    const saved = await replaceClosureSnapshot(pool, jurisdiction, read.closures, { at, upstreamCount: read.upstream });
    return outcome(at, { outcome: saved.changed ? 'changed' : 'unchanged', upstream: read.upstream, closures: saved.stored, dropped: read.dropped });
  });
  return done ?? outcome(now(), { outcome: 'skipped', upstream: 0, closures: 0, dropped: [], message: `another closure snapshot of ${jurisdiction} is running` });
}

/**
 * Snapshots the full closures of BC, Alberta and Ontario (in parallel, each on its own: one
 * failing keeps its previous snapshot and does not hold up the others).
 */
export async function snapshotClosures(
  pool: Pool,
  options: { sources: ClosureSources; http: HttpOptions; now?: () => Date; log?: PollLog; jurisdictions?: Jurisdiction[] },
): Promise<ClosureSnapshotOutcome[]> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const which = options.jurisdictions ?? CLOSURE_JURISDICTIONS;
  return Promise.all(which.map((j) => snapshotOne(pool, j, options.sources[j], options.http, now, log)));
}

import type { Pool, PoolClient } from 'pg';
import { recordAttempt, recordEmptyAnswer, recordFailure, withPollLock } from './feed-status.ts';
import { recordUpstreamBackoff, upstreamNotBefore } from './upstream-backoff.ts';
import { publicReason, UpstreamError } from './upstream-error.ts';
import type { Jurisdiction } from '../../engines/road-events/jurisdictions.ts';
import { isoUtc } from '../../engines/road-events/publisher-time.ts';
import { readFeedStatus, type FeedStatus } from '../../io/road-events/feed-status.ts';

/** An empty answer is suspect when the previous one held at least this many items. */
export const SUSPECT_EMPTY_AFTER = 10;
/** ...and believed after this many suspect empty answers in a row, spanning at least EMPTY_BELIEVED_AFTER_MS. */
export const EMPTY_BELIEVED_ANSWERS = 3;
export const EMPTY_BELIEVED_AFTER_MS = 5 * 60_000;

export type PollLog = (level: 'error' | 'warn' | 'info' | 'debug', line: string) => void;

/** One poll of one feed, as the events poll and the 511 closure snapshots both run it. */
export interface FeedPollSpec<R, S> {
  feed: string;
  jurisdiction: Jurisdiction;
  url: string;
  /** The schedule's interval (recorded for freshness); null for a one-off poll. */
  pollIntervalMs: number | null;
  now: () => Date;
  log: PollLog;
  /** Log prefix, e.g. "CA-BC" or "closures CA-AB". */
  label: string;
  /** Aborted when the worker stops: not the upstream's fault, so not recorded as its failure. */
  signal?: AbortSignal;
  /** Reads the upstream (every page; invalid items already dropped and logged). */
  fetch(): Promise<R>;
  /** Whether the answer holds nothing to store. */
  isEmpty(read: R): boolean;
  /** What the previous accepted answer held, as the suspect-empty test counts it. */
  previous(status: FeedStatus | null): number;
  /** "upstream answered with no events while …": the start of the anomaly text. */
  emptyText(read: R, previous: number): string;
  /** Stores the answer in one transaction on `client`, recording the success with `note`. */
  store(client: PoolClient, read: R, at: Date, note: string | null): Promise<S>;
}

export type FeedPollResult<R, S> =
  /** Another poll of the feed holds the lock. */
  | { kind: 'busy' }
  | { kind: 'skipped' | 'failed'; at: Date; message: string; status: FeedStatus | null }
  | { kind: 'anomaly'; at: Date; message: string; read: R; status: FeedStatus | null }
  /** `note` says why a suspect answer was believed. */
  | { kind: 'stored'; at: Date; read: R; saved: S; note: string | null; status: FeedStatus | null };

/**
 * The steps every feed poll shares, on one connection that holds the feed's poll lock: no poll
 * of an upstream before its 429's Retry-After; record the attempt; fetch; on failure record its
 * generic reason (the detail goes to the log and the outcome) and the upstream's Retry-After, and
 * keep the stored rows; refuse a suspect empty answer (the previous one held
 * SUSPECT_EMPTY_AFTER or more) until EMPTY_BELIEVED_ANSWERS of them in a row have spanned
 * EMPTY_BELIEVED_AFTER_MS, then believe it and say so; else store.
 */
export async function runFeedPoll<R, S>(pool: Pool, spec: FeedPollSpec<R, S>): Promise<FeedPollResult<R, S>> {
  const result = await withPollLock(pool, `poll:${spec.feed}`, async (client): Promise<FeedPollResult<R, S>> => {
    const startedAt = spec.now();
    const status = await readFeedStatus(client, spec.feed);
    const notBefore = await upstreamNotBefore(client, spec.url, startedAt);
    if (notBefore) {
      return { kind: 'skipped', at: startedAt, status, message: `upstream asked to wait (429 Retry-After) until ${isoUtc(notBefore.getTime())}` };
    }
    await recordAttempt(client, spec.feed, { jurisdiction: spec.jurisdiction, sourceUrl: spec.url, pollIntervalMs: spec.pollIntervalMs }, startedAt);
    let read: R;
    try {
      read = await spec.fetch();
    } catch (err) {
      const at = spec.now();
      const message = err instanceof Error ? err.message : String(err);
      if (spec.signal?.aborted) return { kind: 'failed', at, message, status };
      const reason = publicReason(err);
      await recordFailure(client, spec.feed, reason, at);
      if (err instanceof UpstreamError && err.retryAfterMs !== null) {
        await recordUpstreamBackoff(client, err.url ?? spec.url, spec.jurisdiction, at, new Date(at.getTime() + err.retryAfterMs));
      }
      spec.log('error', `${spec.label}: poll failed (${reason}), keeping the stored snapshot (${status?.storedCount ?? 0} stored): ${message}`);
      return { kind: 'failed', at, message, status };
    }
    const at = spec.now();
    const previous = spec.previous(status);
    let note: string | null = null;
    if (spec.isEmpty(read) && previous >= SUSPECT_EMPTY_AFTER) {
      const answers = (status?.emptyAnswers ?? 0) + 1;
      const since = status?.emptySince ?? at;
      const text = spec.emptyText(read, previous);
      if (answers < EMPTY_BELIEVED_ANSWERS || at.getTime() - since.getTime() < EMPTY_BELIEVED_AFTER_MS) {
        const message = `${text}; kept the stored snapshot`;
        await recordEmptyAnswer(client, spec.feed, message, at, { answers, since });
        spec.log('warn', `${spec.label}: ${message} (empty answer ${answers} in a row since ${isoUtc(since.getTime())})`);
        return { kind: 'anomaly', at, message, read, status };
      }
      note = `${text}; believed after ${answers} empty answers in a row since ${isoUtc(since.getTime())}`;
      spec.log('warn', `${spec.label}: ${note}`);
    }
    const saved = await spec.store(client, read, at, note);
    return { kind: 'stored', at, read, saved, note, status };
  });
  return result ?? { kind: 'busy' };
}

import type { Pool } from 'pg';
import { runFeedPoll, type PollLog } from '../feed-poll.ts';
import { fetchJson, type DocumentCheck, type HttpOptions } from '../http-json.ts';
import { REASONS, UpstreamError } from '../upstream-error.ts';
import { closuresFeed, JURISDICTIONS, type Jurisdiction } from '../../../engines/road-events/jurisdictions.ts';
import type { DroppedEvent } from '../normalize-open511.ts';
import { isoUtc } from '../../../engines/road-events/publisher-time.ts';
import { inTransaction } from '../../../lib/postgres.ts';
import type { Closure } from '../../../engines/road-events/closure.ts';
import { closureFrom511 } from './from-511.ts';
import { writeClosureSnapshot } from './store.ts';
import { redactUrl } from '../../../lib/redact-url.ts';

/**
 * The 511 platform `api/v2/get/event` of Alberta and Ontario. BC's closures come from the events
 * poll itself (poll.ts), in the transaction that stores the events.
 */
export interface ClosureSources {
  'CA-AB': string;
  'CA-ON': string;
}

/** The jurisdictions this snapshot fetches. */
export const SNAPSHOT_511_JURISDICTIONS = ['CA-AB', 'CA-ON'] as const satisfies readonly (keyof ClosureSources)[];

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

const check511: DocumentCheck = (doc, url) => {
  if (!Array.isArray(doc)) throw new UpstreamError({ reason: REASONS.not511, detail: `${redactUrl(url)}: answer is not a JSON array of 511 events`, retryable: true, url });
};

interface Read {
  upstream: number;
  closures: Closure[];
  dropped: DroppedEvent[];
}

async function fetch511Closures(jurisdiction: Jurisdiction, url: string, http: HttpOptions): Promise<Read> {
  const info = JURISDICTIONS[jurisdiction];
  const answer = (await fetchJson(url511(url), http, check511)) as unknown[];
  const closures: Closure[] = [];
  const dropped: DroppedEvent[] = [];
  answer.forEach((raw, index) => {
    const read = closureFrom511(raw, index, info);
    if (read.kind === 'closure') closures.push(read.closure);
    else if (read.kind === 'invalid') dropped.push(read.dropped);
  });
  return { upstream: answer.length, closures, dropped };
}

async function snapshotOne(
  pool: Pool,
  jurisdiction: keyof ClosureSources,
  url: string,
  options: { http: HttpOptions; now: () => Date; log: PollLog; pollIntervalMs: number | null },
): Promise<ClosureSnapshotOutcome> {
  const { http, now, log } = options;
  const label = `closures ${jurisdiction}`;
  const result = await runFeedPoll(pool, {
    feed: closuresFeed(jurisdiction),
    jurisdiction,
    url,
    pollIntervalMs: options.pollIntervalMs,
    now,
    log,
    label,
    signal: http.signal,
    async fetch() {
      const read = await fetch511Closures(jurisdiction, url, { ...http, onRetry: (line) => log('warn', `${label}: ${line}`) });
      for (const d of read.dropped) log('warn', `${label}: dropped event ${d.index}${d.sourceId ? ` (${d.sourceId})` : ''}: ${d.reason}`);
      return read;
    },
    isEmpty: (read) => read.upstream === 0,
    previous: (status) => status?.upstreamCount ?? 0,
    emptyText: (_read, previous) => `upstream answered with no events while the previous answer had ${previous}`,
    store: (client, read, at, note) => inTransaction(client, () => writeClosureSnapshot(client, jurisdiction, read.closures, { at, upstreamCount: read.upstream, note })),
  });
  const outcome = (at: Date, rest: Omit<ClosureSnapshotOutcome, 'jurisdiction' | 'url' | 'at'>): ClosureSnapshotOutcome =>
    ({ jurisdiction, url: redactUrl(url), at: isoUtc(at.getTime()), ...rest });
  switch (result.kind) {
    case 'busy':
      return outcome(now(), { outcome: 'skipped', upstream: 0, closures: 0, dropped: [], message: `another closure snapshot of ${jurisdiction} is running` });
    case 'skipped':
    case 'failed':
      return outcome(result.at, { outcome: result.kind, upstream: 0, closures: result.status?.storedCount ?? 0, dropped: [], message: result.message });
    case 'anomaly':
      return outcome(result.at, { outcome: 'anomaly', upstream: 0, closures: result.status?.storedCount ?? 0, dropped: result.read.dropped, message: result.message });
    case 'stored':
      return outcome(result.at, {
        outcome: result.saved.changed ? 'changed' : 'unchanged', upstream: result.read.upstream, closures: result.saved.stored, dropped: result.read.dropped,
        ...(result.note ? { message: result.note } : {}),
      });
  }
}

/**
 * Snapshots the full closures of Alberta and Ontario (in parallel, each on its own: one failing
 * keeps its previous snapshot and does not hold up the other).
 */
export async function snapshotClosures(
  pool: Pool,
  options: { sources: ClosureSources; http: HttpOptions; now?: () => Date; log?: PollLog; pollIntervalMs?: number | null; jurisdictions?: (keyof ClosureSources)[] },
): Promise<ClosureSnapshotOutcome[]> {
  const settings = { http: options.http, now: options.now ?? (() => new Date()), log: options.log ?? (() => {}), pollIntervalMs: options.pollIntervalMs ?? null };
  const which = options.jurisdictions ?? SNAPSHOT_511_JURISDICTIONS;
  return Promise.all(which.map((j) => snapshotOne(pool, j, options.sources[j], settings)));
}

import { isoUtc } from './publisher-time.ts';

/**
 * Volume 2 "Road event status and feed freshness", computed per request from the poll status of
 * each requested jurisdiction. Thresholds (documented in the README):
 */
export const FRESHNESS = {
  /** stale: upstream answers, but nothing in it changed for longer than this. */
  staleAfterMs: 60 * 60_000,
  /** partial: no successful poll for longer than this (five missed 60 s polls), or 3 poll intervals... */
  overdueAfterMs: 5 * 60_000,
  overdueAfterPolls: 3,
  /** ...and 503 once the newest snapshot is older than this, or 5 poll intervals: it is no longer served. */
  expiredAfterMs: 15 * 60_000,
  expiredAfterPolls: 5,
} as const;

/** The partial and 503 thresholds for a feed polled every `pollIntervalMs` (unknown: the fixed minimums). */
export function freshnessThresholds(pollIntervalMs: number | null): { overdueAfterMs: number; expiredAfterMs: number } {
  const every = pollIntervalMs ?? 0;
  return {
    overdueAfterMs: Math.max(FRESHNESS.overdueAfterMs, FRESHNESS.overdueAfterPolls * every),
    expiredAfterMs: Math.max(FRESHNESS.expiredAfterMs, FRESHNESS.expiredAfterPolls * every),
  };
}

/** What the API knows about one jurisdiction's feed (from road_feed_status). */
export interface FeedState {
  jurisdiction: string;
  /** The worker's poll interval for the feed, as it recorded it. */
  pollIntervalMs: number | null;
  lastSuccessMs: number | null;
  lastChangeMs: number | null;
  lastError: string | null;
  lastErrorMs: number | null;
  anomaly: string | null;
  anomalyMs: number | null;
}

export type Health =
  | { state: 'current' | 'stale' }
  /** Served from the last good snapshot, listed in unavailable. */
  | { state: 'degraded'; reason: string }
  /** Nothing servable. */
  | { state: 'failed'; reason: string };

/** `lastError` is one of the poll's generic wordings (ingest/road-events/upstream-error.ts), safe to serve. */
export function jurisdictionHealth(feed: FeedState | undefined, nowMs: number): Health {
  if (!feed || feed.lastSuccessMs === null) {
    return { state: 'failed', reason: feed?.lastError ? `no successful poll yet: ${feed.lastError}` : 'no successful poll yet' };
  }
  const since = `no successful poll since ${isoUtc(feed.lastSuccessMs)}`;
  const { overdueAfterMs, expiredAfterMs } = freshnessThresholds(feed.pollIntervalMs);
  if (nowMs - feed.lastSuccessMs > expiredAfterMs) {
    return { state: 'failed', reason: feed.lastError && feed.lastErrorMs! > feed.lastSuccessMs ? `${since}: ${feed.lastError}` : since };
  }
  if (feed.lastErrorMs !== null && feed.lastErrorMs > feed.lastSuccessMs) {
    return { state: 'degraded', reason: `last poll failed: ${feed.lastError}; serving the snapshot of ${isoUtc(feed.lastSuccessMs)}` };
  }
  if (feed.anomalyMs !== null && feed.anomalyMs > feed.lastSuccessMs) {
    return { state: 'degraded', reason: `${feed.anomaly}; serving the snapshot of ${isoUtc(feed.lastSuccessMs)}` };
  }
  if (nowMs - feed.lastSuccessMs > overdueAfterMs) return { state: 'degraded', reason: since };
  if (feed.lastChangeMs !== null && nowMs - feed.lastChangeMs > FRESHNESS.staleAfterMs) return { state: 'stale' };
  return { state: 'current' };
}

export interface Freshness {
  /** null when every requested jurisdiction failed: answer 503. */
  status: 'current' | 'stale' | 'partial' | null;
  unavailable: { jurisdiction: string; reason: string }[];
  /** Jurisdictions whose snapshot is served. */
  served: string[];
  /** Oldest last success among the served jurisdictions. */
  fetchedAtMs: number | null;
}

/** partial beats stale beats current; 503 (status null) only when nothing requested is servable. */
export function freshness(requested: string[], feeds: Map<string, FeedState>, nowMs: number): Freshness {
  const unavailable: Freshness['unavailable'] = [];
  const served: string[] = [];
  let stale = false;
  let fetchedAtMs: number | null = null;
  for (const jurisdiction of requested) {
    const feed = feeds.get(jurisdiction);
    const health = jurisdictionHealth(feed, nowMs);
    if (health.state === 'failed' || health.state === 'degraded') unavailable.push({ jurisdiction, reason: health.reason });
    if (health.state === 'failed') continue;
    served.push(jurisdiction);
    stale ||= health.state === 'stale';
    fetchedAtMs = fetchedAtMs === null ? feed!.lastSuccessMs : Math.min(fetchedAtMs, feed!.lastSuccessMs!);
  }
  const status = served.length === 0 ? null : unavailable.length ? 'partial' : stale ? 'stale' : 'current';
  return { status, unavailable, served, fetchedAtMs };
}

import type { FeedMeta, TransitMeta } from '../../schemas/transit-api.ts';
import type { FeedData, TransitData } from './data.ts';

/**
 * The meta of a transit answer, from the feeds its records came from (or, for an empty answer,
 * the feeds that were searched). One feed: that feed's members. Several: source, source_version
 * and attribution joined with "; " in feed order, the newest source_updated_at, and the release's
 * content hash (which covers every input); `feeds` lists each one.
 */
export function transitMeta(data: TransitData, feedIndexes: Iterable<number>): TransitMeta {
  const indexes = [...new Set(feedIndexes)].sort((a, b) => a - b);
  let cache = metaCache.get(data);
  if (!cache) metaCache.set(data, (cache = new Map()));
  const key = indexes.join(',');
  let meta = cache.get(key);
  if (!meta) cache.set(key, (meta = combine(data, indexes)));
  return meta;
}

const metaCache = new WeakMap<TransitData, Map<string, TransitMeta>>();

function combine(data: TransitData, indexes: number[]): TransitMeta {
  const feeds = indexes.map((i) => data.feeds[i]!);
  const described = feeds.map(feedMeta);
  const single = described.length === 1 ? described[0]! : null;
  return {
    source: single ? single.source : joined(described.map((f) => f.source)),
    source_updated_at: newest(described.map((f) => f.source_updated_at)),
    source_version: single ? single.source_version : joined(described.map((f) => f.source_version)),
    content_hash: single ? single.content_hash : data.contentHash,
    data_version: data.releaseId,
    svc_updated_at: data.createdAt,
    status: 'current',
    attribution: single ? single.attribution : joined(described.map((f) => f.attribution)),
    schedule_type: 'scheduled',
    feeds: described,
  };
}

/** All feeds of the release (answers that searched everything). */
export const allFeeds = (data: TransitData): number[] => data.feeds.map((_, i) => i);

function feedMeta(feed: FeedData): FeedMeta {
  return {
    feed_id: feed.feedId,
    source: feed.source,
    source_updated_at: feed.sourceUpdatedAt,
    // A feed without feed_version or ETag is still identified by the hash of its content.
    source_version: feed.sourceVersion ?? feed.contentHash,
    content_hash: feed.contentHash,
    licence: feed.licence,
    attribution: feed.attribution ?? '',
  };
}

const joined = (values: string[]) => [...new Set(values.filter((v) => v !== ''))].join('; ');

function newest(values: (string | null)[]): string | null {
  let best: string | null = null;
  let bestMs = -Infinity;
  for (const value of values) {
    if (value === null) continue;
    const ms = Date.parse(value);
    if (best === null || ms > bestMs) {
      best = value;
      bestMs = Number.isNaN(ms) ? -Infinity : ms;
    }
  }
  return best;
}

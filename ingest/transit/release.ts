import { version as duckdbVersion } from '@duckdb/node-api';
import type { BuildOutcome, PublishSpec } from '../../releases/publish.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { TRANSIT_KIND, TRANSIT_SCHEMA_VERSION } from '../../schemas/transit-release.ts';
import type { LocatedFeed } from '../../schemas/transit-feeds.ts';
import { InvalidInputError } from '../errors.ts';
import { buildTransitDatabase, type TransitBuildResult } from './build.ts';
import { checkFeedsList } from './feeds-list.ts';
import { prepareFeed, type PreparedFeed, type RefusedFeed } from './prepare-feed.ts';
import { openBuildSession, type BuildSession } from './session.ts';

export { loadFeedsList } from './feeds-list.ts';
export type { FeedSpec, LocatedFeed } from '../../schemas/transit-feeds.ts';

/**
 * Names the DuckDB library too: its ICU zone data computes every service day's UTC offset, so a
 * DuckDB upgrade (new zone rules) has to build new releases from unchanged feeds.
 */
export const TRANSIT_BUILDER_VERSION = `transit-2+duckdb-${duckdbVersion().replace(/^v/, '')}`;

/**
 * DuckDB limits of every transit build. RSS runs ~0.5 GB above memory_limit while sorting
 * 5 M stop_times (measured: 1 GB → 1.4-1.5 GB peak, 512 MB → ~1.0 GB), so 512 MB keeps the
 * 1.5 GB budget with room; larger sorts spill to the work folder.
 */
const DUCKDB_LIMITS = { memoryLimit: '512MB', threads: 2 };

/** Share of the progress bar spent acquiring and validating feeds (the rest is the build). */
const PREPARE_SHARE = 0.5;

export interface TransitReleaseOptions {
  /** Scratch folder for downloads, extraction and per-feed staging; the caller deletes it after publishing. */
  workDir: string;
  fetchTimeoutMs: number;
  maxDownloadBytes: number;
  onProgress?: (fraction: number, message: string) => void;
}

/** A transit PublishSpec holding the loaded feeds until build() or dispose() (publishRelease calls it). */
export interface TransitPublishSpec extends PublishSpec {
  /** Frees the loaded feeds without building (idempotent; build() does it itself). */
  dispose(): Promise<void>;
}

export interface TransitCoverageEntry {
  feed_id: string;
  source: string;
  licence: string;
  attribution: string;
  status: 'included' | 'refused';
  reason?: string;
  gap?: string;
  source_updated_at: string | null;
  agencies?: number;
  stops?: number;
  routes?: number;
  trips?: number;
  stop_times?: number;
  first_service_date?: string | null;
  last_service_date?: string | null;
  /** Defects the builder repaired instead of refusing the feed. */
  warnings?: string[];
}

/**
 * Fetches, validates and hashes every feed, then returns the PublishSpec of a transit release
 * whose inputs are the included feeds; build(stagingDir) writes transit.duckdb. Refused feeds
 * only appear in the coverage. Throws InvalidInputError when every feed is refused; network
 * failures and HTTP 5xx propagate as ordinary (retryable) errors.
 *
 * The validated feeds stay loaded in one DuckDB instance until build() has written the release
 * (build closes it); a caller that does not build (e.g. the release is reused) should call
 * dispose() to free that memory at once rather than when the spec is garbage-collected.
 */
export async function prepareTransitRelease(feeds: LocatedFeed[], opts: TransitReleaseOptions): Promise<TransitPublishSpec> {
  checkFeedsList(feeds);
  const progress = opts.onProgress ?? (() => {});
  const sessionReady = openBuildSession(opts.workDir, DUCKDB_LIMITS);
  sessionReady.catch(() => {}); // awaited by the first feed that gets its files, and below
  const prepared: (PreparedFeed | RefusedFeed)[] = [];
  let session: BuildSession;
  try {
    for (const [i, spec] of feeds.entries()) {
      progress((i / feeds.length) * PREPARE_SHARE, `checking feed ${spec.id}`);
      prepared.push(await prepareFeed(spec, opts.workDir, opts, sessionReady, `feed${i}`));
    }
    session = await sessionReady;
  } catch (err) {
    await sessionReady.then((s) => s.close(), () => {});
    throw err;
  }
  const included = prepared.filter((f): f is PreparedFeed => f.status === 'included');
  const refused = prepared.filter((f): f is RefusedFeed => f.status === 'refused');
  if (included.length === 0) {
    await session.close();
    throw new InvalidInputError(`every feed was refused: ${refused.map((f) => `${f.spec.id}: ${f.reason}`).join('; ')}`);
  }
  progress(PREPARE_SHARE, `${included.length} feed(s) valid, ${refused.length} refused`);

  const inputs: ManifestInput[] = included.map((f) => ({
    name: f.spec.id,
    source: f.spec.source,
    sha256: f.sha256,
    licence: f.spec.licence,
    attribution: f.spec.attribution,
    source_updated_at: f.sourceUpdatedAt,
  }));

  let used = false;
  return {
    kind: TRANSIT_KIND,
    builderVersion: TRANSIT_BUILDER_VERSION,
    schemaVersion: TRANSIT_SCHEMA_VERSION,
    inputs,
    context: coverageContext(prepared),
    async build(stagingDir: string): Promise<BuildOutcome> {
      if (used) throw new Error('this transit release was already built or disposed; prepare it again');
      used = true;
      const started = performance.now();
      let result: TransitBuildResult;
      try {
        result = await buildTransitDatabase(
          session,
          stagingDir,
          included,
          (done, total, message) => progress(PREPARE_SHARE + (done / total) * (1 - PREPARE_SHARE), message),
        );
      } finally {
        await session.close();
      }
      const buildSeconds = (performance.now() - started) / 1000;
      progress(1, 'transit database written');
      const coverage = prepared.map((feed) => coverageEntry(feed, result.serviceRanges.get(feed.spec.id)));
      return {
        stats: {
          feeds_included: included.length,
          feeds_refused: refused.length,
          ...result.totals,
          build_seconds: Math.round(buildSeconds * 1000) / 1000,
        },
        coverage: coverage as unknown as Record<string, unknown>[],
      };
    },
    async dispose() {
      used = true;
      await session.close();
    },
  };
}

/**
 * What the coverage says beyond the inputs, hashed with them so that a newly refused feed, a
 * changed reason or gap, or a reordered list makes a new release instead of reusing one whose
 * coverage is stale. As for inputs, when a feed was fetched is left out.
 */
function coverageContext(prepared: (PreparedFeed | RefusedFeed)[]) {
  return {
    order: prepared.map((feed) => feed.spec.id),
    refused: prepared.filter((feed): feed is RefusedFeed => feed.status === 'refused').map((feed) => ({
      id: feed.spec.id,
      source: feed.spec.source,
      licence: feed.spec.licence,
      attribution: feed.spec.attribution,
      gap: feed.spec.gap ?? null,
      reason: feed.reason,
    })),
    gaps: Object.fromEntries(prepared.flatMap((feed) => (feed.status === 'included' && feed.spec.gap !== undefined ? [[feed.spec.id, feed.spec.gap]] : []))),
  };
}

function coverageEntry(feed: PreparedFeed | RefusedFeed, range: { first_service_date: string | null; last_service_date: string | null } | undefined): TransitCoverageEntry {
  const base = {
    feed_id: feed.spec.id,
    source: feed.spec.source,
    licence: feed.spec.licence,
    attribution: feed.spec.attribution,
    status: feed.status,
    ...(feed.spec.gap !== undefined ? { gap: feed.spec.gap } : {}),
    source_updated_at: feed.sourceUpdatedAt,
  };
  if (feed.status === 'refused') return { ...base, reason: feed.reason };
  return {
    ...base,
    ...feed.counts,
    first_service_date: range?.first_service_date ?? null,
    last_service_date: range?.last_service_date ?? null,
    ...(feed.warnings.length > 0 ? { warnings: feed.warnings } : {}),
  };
}

import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { LocatedFeed } from '../../schemas/transit-feeds.ts';
import { acquireFeed, type AcquireOptions } from './acquire.ts';
import { GTFS_COLUMNS, type GtfsTable } from './gtfs-files.ts';
import { FeedRefusedError } from './refusal.ts';
import type { BuildSession } from './session.ts';
import { loadRawTables } from './stage.ts';
import { checkFrequencies, checkRequiredFiles, validateFeed, type FeedCounts } from './validate.ts';

export type { FeedCounts } from './validate.ts';

const OTHER_TABLES = (Object.keys(GTFS_COLUMNS) as GtfsTable[]).filter((t) => t !== 'frequencies');

/** The files the builder loads; a zip's other .txt files are only hashed. */
const LOADED_FILES = new Set(Object.keys(GTFS_COLUMNS).map((table) => `${table}.txt`));

/** Connections loading and checking one feed: stop_times on one, everything else beside it on the other. */
const CONNECTIONS = 2;

const DATA_ERROR = /^(Conversion|Invalid Input|Out of Range) Error/;

/** A feed that passed validation: its raw tables wait in the session's database `database` for the build. */
export interface PreparedFeed {
  status: 'included';
  spec: LocatedFeed;
  sha256: string;
  sourceUpdatedAt: string | null;
  /** feed_info.feed_version, else the download's ETag. */
  sourceVersion: string | null;
  timezone: string;
  agencyCount: number;
  counts: FeedCounts;
  warnings: string[];
  database: string;
}

export interface RefusedFeed {
  status: 'refused';
  spec: LocatedFeed;
  reason: string;
  sourceUpdatedAt: string | null;
}

/**
 * Acquires, hashes, loads and validates one feed: files go to its own scratch folder, raw tables
 * to the session's new in-memory database `database` (dropped again if the feed is refused). The
 * session is awaited only once the files are on disk, so opening DuckDB overlaps the first
 * download and unzip. A FeedRefusedError becomes a RefusedFeed; anything else (network trouble,
 * HTTP 5xx) propagates so the job retries.
 */
export async function prepareFeed(
  spec: LocatedFeed,
  workDir: string,
  opts: AcquireOptions,
  sessionReady: Promise<BuildSession>,
  database: string,
): Promise<PreparedFeed | RefusedFeed> {
  const feedDir = path.join(workDir, spec.id);
  await rm(feedDir, { recursive: true, force: true });
  let sourceUpdatedAt: string | null = null;
  let attached: BuildSession | null = null;
  // stops hashing a directory feed in the background once the feed is refused (or fails)
  const hashing = new AbortController();
  try {
    const acquired = await acquireFeed(spec, feedDir, opts, {
      keep: (name) => LOADED_FILES.has(name),
      checkNames: checkRequiredFiles,
      signal: hashing.signal,
    });
    sourceUpdatedAt = acquired.sourceUpdatedAt;

    const session = await sessionReady;
    const sizes = await Promise.all([...acquired.files.values()].map(async (file) => (await stat(file)).size));
    await session.willLoad(sizes.reduce((a, b) => a + b, 0));
    await session.attachFeed(database);
    attached = session;
    const connections = await connectAll(session, database);
    try {
      // frequencies first: a frequency-based feed is refused before its big files are loaded
      if (acquired.files.has('frequencies.txt')) {
        await loadRawTables(connections, acquired.files, ['frequencies']);
        await checkFrequencies(connections[0]!);
      }
      const knownZones = session.knownZonesReady();
      knownZones.catch(() => {}); // awaited below, unless a load fails first
      await loadRawTables(connections, acquired.files, OTHER_TABLES);
      await knownZones;
      const { timezone, agencyCount, counts, feedVersion, warnings } = await validateFeed(connections);
      return {
        status: 'included', spec, sha256: await acquired.contentHash, sourceUpdatedAt, sourceVersion: feedVersion ?? acquired.etag,
        timezone, agencyCount, counts, warnings, database,
      };
    } finally {
      for (const connection of connections) session.disconnect(connection);
    }
  } catch (err) {
    hashing.abort();
    if (attached) await attached.detachFeed(database);
    if (err instanceof FeedRefusedError) return { status: 'refused', spec, reason: err.reason, sourceUpdatedAt };
    // DuckDB rejecting the data itself (a cast the checks did not foresee) concerns this feed only;
    // I/O and memory errors propagate and the job is retried.
    if (err instanceof Error && DATA_ERROR.test(err.message)) {
      return { status: 'refused', spec, reason: `feed data could not be processed: ${err.message.split('\n')[0]}`, sourceUpdatedAt };
    }
    throw err;
  }
}

/** CONNECTIONS connections to the feed's database; none is left open if one cannot be made. */
async function connectAll(session: BuildSession, database: string): Promise<DuckDBConnection[]> {
  const attempts = await Promise.allSettled(Array.from({ length: CONNECTIONS }, () => session.connect(database)));
  const failed = attempts.find((a): a is PromiseRejectedResult => a.status === 'rejected');
  const connections = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
  if (failed) {
    for (const connection of connections) session.disconnect(connection);
    throw failed.reason;
  }
  return connections;
}

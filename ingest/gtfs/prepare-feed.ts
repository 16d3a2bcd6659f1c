import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FeedSpec } from '../../schemas/transit-feeds.ts';
import { acquireFeed, type AcquireOptions } from './acquire.ts';
import { hashFeedFiles } from './content-hash.ts';
import { openDuckDb, queryOne, type DuckDbLimits } from './duckdb.ts';
import { FeedRefusedError } from './refusal.ts';
import { countRows, loadRawTables } from './stage.ts';
import { GTFS_COLUMNS, type GtfsTable } from './gtfs-files.ts';
import { checkFrequencies, checkRequiredFiles, validateFeed } from './validate.ts';

const OTHER_TABLES = (Object.keys(GTFS_COLUMNS) as GtfsTable[]).filter((t) => t !== 'frequencies');

const DATA_ERROR = /^(Conversion|Invalid Input|Out of Range) Error/;

export interface FeedCounts {
  agencies: number;
  stops: number;
  routes: number;
  trips: number;
  stop_times: number;
}

/** A feed that passed validation: its raw tables wait in stagedDb for the build. */
export interface PreparedFeed {
  status: 'included';
  spec: FeedSpec;
  sha256: string;
  sourceUpdatedAt: string | null;
  /** feed_info.feed_version, else the download's ETag. */
  sourceVersion: string | null;
  timezone: string;
  agencyCount: number;
  counts: FeedCounts;
  warnings: string[];
  stagedDb: string;
}

export interface RefusedFeed {
  status: 'refused';
  spec: FeedSpec;
  reason: string;
  sourceUpdatedAt: string | null;
}

export interface PrepareFeedOptions extends AcquireOptions {
  duckdb: Omit<DuckDbLimits, 'tempDirectory'>;
}

/**
 * Acquires, hashes, loads and validates one feed in its own scratch folder. A FeedRefusedError
 * becomes a RefusedFeed; anything else (network trouble, HTTP 5xx) propagates so the job retries.
 */
export async function prepareFeed(spec: FeedSpec, workDir: string, opts: PrepareFeedOptions): Promise<PreparedFeed | RefusedFeed> {
  const feedDir = path.join(workDir, spec.id);
  await rm(feedDir, { recursive: true, force: true });
  let sourceUpdatedAt: string | null = null;
  try {
    const acquired = await acquireFeed(spec.source, feedDir, opts);
    sourceUpdatedAt = acquired.sourceUpdatedAt;
    checkRequiredFiles(acquired.files);
    // hashing (Node) overlaps with loading and validation (DuckDB threads)
    const hashing = hashFeedFiles(acquired.files);
    hashing.catch(() => {});

    const stagedDb = path.join(feedDir, 'staged.duckdb');
    const tempDirectory = path.join(feedDir, 'duckdb-tmp');
    await mkdir(tempDirectory, { recursive: true });
    const db = await openDuckDb(stagedDb, { ...opts.duckdb, tempDirectory });
    try {
      // frequencies first: a frequency-based feed is refused before its big files are loaded
      await loadRawTables(db.connection, acquired.files, ['frequencies']);
      await checkFrequencies(db.connection);
      await loadRawTables(db.connection, acquired.files, OTHER_TABLES);
      const { timezone, agencyCount, warnings } = await validateFeed(db.connection);
      const counts: FeedCounts = {
        agencies: agencyCount,
        stops: await countRows(db.connection, 'stops'),
        routes: await countRows(db.connection, 'routes'),
        trips: await countRows(db.connection, 'trips'),
        stop_times: await countRows(db.connection, 'stop_times'),
      };
      const feedInfo = await queryOne<{ v: string | null }>(db.connection, `SELECT max(feed_version) AS v FROM raw_feed_info`);
      await db.connection.run('CHECKPOINT');
      const sha256 = await hashing;
      return {
        status: 'included', spec, sha256, sourceUpdatedAt, sourceVersion: feedInfo?.v ?? acquired.etag,
        timezone, agencyCount, counts, warnings, stagedDb,
      };
    } finally {
      db.close();
    }
  } catch (err) {
    if (err instanceof FeedRefusedError) return { status: 'refused', spec, reason: err.reason, sourceUpdatedAt };
    // DuckDB rejecting the data itself (a cast the checks did not foresee) concerns this feed only;
    // I/O and memory errors propagate and the job is retried.
    if (err instanceof Error && DATA_ERROR.test(err.message)) {
      return { status: 'refused', spec, reason: `feed data could not be processed: ${err.message.split('\n')[0]}`, sourceUpdatedAt };
    }
    throw err;
  }
}

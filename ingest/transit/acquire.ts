import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { downloadToFile } from './download.ts';
import { isHttpSource } from './feeds-list.ts';
import { combineFileHashes, hashFeedFiles } from './content-hash.ts';
import { listFeedFiles, type FeedFiles } from './feed-files.ts';
import { refuse } from './refusal.ts';
import { extractFeedZip, type EntrySelection } from './unzip.ts';

export interface AcquiredFeed {
  /** The files to load (a zip's other .txt files are hashed but not extracted). */
  files: FeedFiles;
  /**
   * Normalized content hash of every .txt file (content-hash.ts): known once a zip is extracted;
   * a directory's files are still being hashed, so the hash can overlap loading.
   */
  contentHash: Promise<string>;
  /** Last-Modified of the download, else the mtime of the local zip (or newest .txt of a directory). */
  sourceUpdatedAt: string | null;
  etag: string | null;
}

export interface AcquireOptions {
  fetchTimeoutMs: number;
  maxDownloadBytes: number;
}

export interface FeedSelection extends EntrySelection {
  /** Aborted once the feed is refused: a directory's files are then no longer hashed. */
  signal?: AbortSignal;
}

/**
 * Brings one feed's .txt files onto local disk: downloads a URL or reads a local zip into
 * workDir and extracts the files `select.keep` accepts (hashing all of them); a local directory
 * is read in place. `select.checkNames` sees the file names before any content is read.
 * Reads `feed.location` when given, else `feed.source`; refusals name the source as written.
 */
export async function acquireFeed(
  feed: { source: string; location?: string },
  workDir: string,
  opts: AcquireOptions,
  select: FeedSelection = {},
): Promise<AcquiredFeed> {
  await mkdir(workDir, { recursive: true });
  const extracted = path.join(workDir, 'extracted');
  const { source } = feed;
  if (isHttpSource(source)) {
    const zipPath = path.join(workDir, 'download.zip');
    const download = await downloadToFile(source, zipPath, opts);
    await mkdir(extracted);
    const { files, hashes } = await extractFeedZip(zipPath, extracted, undefined, select);
    return { files, contentHash: Promise.resolve(combineFileHashes(hashes)), sourceUpdatedAt: download.lastModified, etag: download.etag };
  }
  const local = path.resolve(feed.location ?? source);
  const info = await stat(local).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') refuse(`source ${source} does not exist`);
    throw err;
  });
  if (info.isDirectory()) {
    const files = await listFeedFiles(local, source);
    select.checkNames?.(new Set(files.keys()));
    const contentHash = hashFeedFiles(files, select.signal);
    contentHash.catch(() => {}); // awaited by the caller unless the feed is refused first
    const mtimes = await Promise.all([...files.values()].map(async (file) => (await stat(file)).mtimeMs));
    const keep = select.keep ?? (() => true);
    return { files: new Map([...files].filter(([name]) => keep(name))), contentHash, sourceUpdatedAt: new Date(Math.max(...mtimes)).toISOString(), etag: null };
  }
  if (!info.isFile()) refuse(`source ${source} is neither a file nor a directory`);
  await mkdir(extracted);
  const { files, hashes } = await extractFeedZip(local, extracted, undefined, select);
  return { files, contentHash: Promise.resolve(combineFileHashes(hashes)), sourceUpdatedAt: info.mtime.toISOString(), etag: null };
}

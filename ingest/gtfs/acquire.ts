import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { downloadToFile } from './download.ts';
import { isHttpSource } from './feeds-list.ts';
import { combineFileHashes, hashFeedFiles } from './content-hash.ts';
import { listFeedFiles, type FeedFiles } from './feed-files.ts';
import { refuse } from './refusal.ts';
import { extractFeedZip } from './unzip.ts';

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

/**
 * Brings one feed's .txt files onto local disk: downloads a URL or reads a local zip into
 * workDir and extracts the files `keep` accepts (hashing all of them); a local directory is
 * read in place.
 */
export async function acquireFeed(source: string, workDir: string, opts: AcquireOptions, keep: (name: string) => boolean = () => true): Promise<AcquiredFeed> {
  await mkdir(workDir, { recursive: true });
  const extracted = path.join(workDir, 'extracted');
  if (isHttpSource(source)) {
    const zipPath = path.join(workDir, 'download.zip');
    const download = await downloadToFile(source, zipPath, opts);
    await mkdir(extracted);
    const { files, hashes } = await extractFeedZip(zipPath, extracted, undefined, keep);
    return { files, contentHash: Promise.resolve(combineFileHashes(hashes)), sourceUpdatedAt: download.lastModified, etag: download.etag };
  }
  const local = path.resolve(source);
  const info = await stat(local).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') refuse(`source ${local} does not exist`);
    throw err;
  });
  if (info.isDirectory()) {
    const files = await listFeedFiles(local);
    const contentHash = hashFeedFiles(files);
    contentHash.catch(() => {}); // awaited by the caller unless the feed is refused first
    const mtimes = await Promise.all([...files.values()].map(async (file) => (await stat(file)).mtimeMs));
    return { files: new Map([...files].filter(([name]) => keep(name))), contentHash, sourceUpdatedAt: new Date(Math.max(...mtimes)).toISOString(), etag: null };
  }
  if (!info.isFile()) refuse(`source ${local} is neither a file nor a directory`);
  await mkdir(extracted);
  const { files, hashes } = await extractFeedZip(local, extracted, undefined, keep);
  return { files, contentHash: Promise.resolve(combineFileHashes(hashes)), sourceUpdatedAt: info.mtime.toISOString(), etag: null };
}

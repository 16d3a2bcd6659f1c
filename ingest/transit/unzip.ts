import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { NormalizedHasher, type FileHashes } from './content-hash.ts';
import { isJunkPath, type FeedFiles } from './feed-files.ts';
import { FeedRefusedError, refuse } from './refusal.ts';

export interface ZipLimits {
  /** Cap on the sum of uncompressed sizes of the extracted files. */
  maxTotalBytes: number;
  /** Entries larger than minRatioCheckBytes may not expand more than this many times. */
  maxRatio: number;
  minRatioCheckBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxTotalBytes: 2 * 1024 ** 3, maxRatio: 200, minRatioCheckBytes: 1024 ** 2 };

export interface ExtractedFeed {
  /** The extracted files: lower-cased name → path in destDir. */
  files: FeedFiles;
  /** Normalized sha256 of every .txt file of the zip, extracted or not (see content-hash.ts). */
  hashes: FileHashes;
}

/** Entries inflated at once: overlaps the small files with the big one without opening hundreds of streams. */
const PARALLEL_ENTRIES = 4;

export interface EntrySelection {
  /** Which .txt files (lower-cased names) are written; the others are only hashed. All by default. */
  keep?(name: string): boolean;
  /** Sees the lower-cased names of the feed's .txt files before anything is inflated; may refuse the feed. */
  checkNames?(names: ReadonlySet<string>): void;
}

/**
 * Extracts the .txt files of a GTFS zip into destDir (flat), streaming, and hashes each one on
 * the way. `select` limits which files are written and can refuse the feed from its file names
 * alone. Refuses anything that is not a zip, unsafe names (absolute, `..`), zip bombs (declared or
 * actual size/ratio over the limits) and .txt files spread over several folders (a feed nested
 * in one folder is fine).
 */
export async function extractFeedZip(
  zipPath: string,
  destDir: string,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  select: EntrySelection = {},
): Promise<ExtractedFeed> {
  const keep = select.keep ?? (() => true);
  const zip = await openZip(zipPath);
  try {
    const entries = await readEntries(zip);
    const wanted = selectFeedEntries(entries, limits);
    select.checkNames?.(new Set(wanted.map((entry) => path.posix.basename(entry.fileName).toLowerCase())));
    const files: FeedFiles = new Map();
    const hashes: FileHashes = new Map();
    let total = 0;
    const extract = async (entry: yauzl.Entry): Promise<void> => {
      const name = path.posix.basename(entry.fileName).toLowerCase();
      const target = keep(name) ? path.join(destDir, path.posix.basename(entry.fileName)) : null;
      const source = await openEntry(zip, entry);
      const hasher = new NormalizedHasher();
      let entryBytes = 0;
      const guard = new Transform({
        transform(chunk: Buffer, _enc, done) {
          entryBytes += chunk.length;
          total += chunk.length;
          // same wording as yauzl's own size check, which our inflater replaces
          if (entryBytes > entry.uncompressedSize) return done(new Error(`too many bytes in the stream. expected ${entry.uncompressedSize}. got at least ${entryBytes}`));
          if (total > limits.maxTotalBytes) return done(new FeedRefusedError(`zip expands to more than ${limits.maxTotalBytes} bytes: refused as a zip bomb`));
          if (entryBytes > limits.minRatioCheckBytes && entryBytes > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
            return done(new FeedRefusedError(`zip entry ${entry.fileName} expands more than ${limits.maxRatio}:1 (${entry.compressedSize} compressed bytes): refused as a zip bomb`));
          }
          hasher.update(chunk);
          done(null, chunk);
        },
        flush(done) {
          if (entryBytes < entry.uncompressedSize) return done(new Error(`not enough bytes in the stream. expected ${entry.uncompressedSize}. got only ${entryBytes}`));
          done();
        },
      });
      try {
        const sink = target ? createWriteStream(target, { flags: 'wx' }) : discard();
        if (isPlainDeflate(entry)) await pipeline(source, zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES }), guard, sink);
        else await pipeline(source, guard, sink);
      } catch (err) {
        if (err instanceof FeedRefusedError) throw err;
        if (/^too many bytes in the stream/.test((err as Error).message)) {
          refuse(`zip entry ${entry.fileName} inflates to more than the ${entry.uncompressedSize} bytes its header claims: refused as a zip bomb`);
        }
        refuse(`zip entry ${entry.fileName} cannot be extracted: ${(err as Error).message}`);
      }
      hashes.set(name, hasher.digest());
      if (target) files.set(name, target);
    };
    const outcomes = await inBatches(wanted, PARALLEL_ENTRIES, extract);
    // the first failure in zip order, so the reason does not depend on timing
    const failed = outcomes.find((o): o is PromiseRejectedResult => o?.status === 'rejected');
    if (failed) throw failed.reason;
    return { files, hashes };
  } finally {
    zip.close();
  }
}

function discard(): Writable {
  return new Writable({ write: (_chunk, _enc, done) => done() });
}

/**
 * Runs fn over items in order with at most `width` running at once; after a failure no new item
 * starts. Resolves when every started item has settled (unstarted ones have no outcome).
 */
async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<(PromiseSettledResult<void> | undefined)[]> {
  const outcomes: (PromiseSettledResult<void> | undefined)[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      outcomes[index] = await fn(items[index]!).then(
        (value) => ({ status: 'fulfilled', value }) as const,
        (reason: unknown) => {
          failed = true;
          return { status: 'rejected', reason } as const;
        },
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return outcomes;
}

function selectFeedEntries(entries: yauzl.Entry[], limits: ZipLimits): yauzl.Entry[] {
  const files = entries.filter((e) => !e.fileName.endsWith('/') && !isJunkPath(e.fileName));
  for (const entry of files) {
    const { uncompressedSize: size, compressedSize: packed } = entry;
    if (size > limits.minRatioCheckBytes && size > limits.maxRatio * Math.max(packed, 1)) {
      refuse(`zip entry ${entry.fileName} claims ${size} bytes from ${packed} compressed (over ${limits.maxRatio}:1): refused as a zip bomb`);
    }
  }
  const texts = files.filter((e) => e.fileName.toLowerCase().endsWith('.txt'));
  if (texts.length === 0) refuse('zip contains no .txt files');
  const folders = [...new Set(texts.map((e) => path.posix.dirname(e.fileName)))];
  if (folders.length > 1) {
    refuse(`zip has .txt files in ${folders.length} folders (${folders.slice(0, 3).map((f) => (f === '.' ? '(top level)' : `${f}/`)).join(', ')}): a feed must keep its files in one folder`);
  }
  const seen = new Set<string>();
  for (const entry of texts) {
    const name = path.posix.basename(entry.fileName).toLowerCase();
    if (seen.has(name)) refuse(`zip has ${path.posix.basename(entry.fileName)} twice`);
    seen.add(name);
  }
  const declaredTotal = texts.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declaredTotal > limits.maxTotalBytes) refuse(`zip claims ${declaredTotal} uncompressed bytes, over the ${limits.maxTotalBytes}-byte limit: refused as a zip bomb`);
  return texts;
}

const ZIP_OPTIONS: yauzl.Options = { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true };

async function openZip(zipPath: string): Promise<yauzl.ZipFile> {
  try {
    return await openWith((cb) => yauzl.open(zipPath, ZIP_OPTIONS, cb));
  } catch (err) {
    // Some published zips carry bytes after the end record (e.g. an HTML page appended by a
    // download portal). Info-ZIP reads them; so do we, by hiding the tail from yauzl.
    const size = /^Invalid comment length/.test((err as Error).message) ? await zipSizeWithoutTail(zipPath) : null;
    if (size === null) throw new FeedRefusedError(`not a zip file: ${(err as Error).message}`);
    try {
      return await openWith((cb) => yauzl.fromRandomAccessReader(new FileRangeReader(zipPath), size, ZIP_OPTIONS, cb));
    } catch (retryErr) {
      throw new FeedRefusedError(`not a zip file: ${(retryErr as Error).message}`);
    }
  }
}

function openWith(open: (cb: (err: Error | null, zip: yauzl.ZipFile) => void) => void): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => open((err, zip) => (err ? reject(err) : resolve(zip))));
}

class FileRangeReader extends yauzl.RandomAccessReader {
  constructor(private readonly file: string) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    return createReadStream(this.file, { start, end: end - 1 });
  }
}

/** Length of the zip up to the end of its end-of-central-directory record, or null if none is found. */
async function zipSizeWithoutTail(zipPath: string): Promise<number | null> {
  const handle = await open(zipPath, 'r');
  try {
    const { size } = await handle.stat();
    const window = Math.min(size, 1024 * 1024);
    const buffer = Buffer.alloc(window);
    await handle.read(buffer, 0, window, size - window);
    for (let at = window - 22; at >= 0; at--) {
      if (buffer.readUInt32LE(at) !== 0x06054b50) continue;
      const end = size - window + at + 22 + buffer.readUInt16LE(at + 20);
      if (end <= size) return end;
    }
    return null;
  } finally {
    await handle.close();
  }
}

function readEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (err: Error) => {
      const unsafe = /^(absolute path|invalid relative path|invalid characters in fileName)/.test(err.message);
      reject(new FeedRefusedError(unsafe ? `zip has an unsafe entry name (${err.message})` : `zip is damaged: ${err.message}`));
    });
    zip.readEntry();
  });
}

/** Deflated, not encrypted: inflated here rather than by yauzl (see openEntry). */
function isPlainDeflate(entry: yauzl.Entry): boolean {
  return entry.compressionMethod === 8 && !entry.isEncrypted();
}

/**
 * Inflater output chunk: yauzl's inflater uses zlib's default 16 KiB, so every 16 KiB makes a
 * round trip through the thread pool and four streams; 256 KiB chunks halve the extraction time.
 */
const INFLATE_CHUNK_BYTES = 256 * 1024;

/** The entry's bytes: still deflated for a plain deflated entry, else as yauzl decodes them (stored, or its error). */
function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, stream: Readable) => {
      if (err) reject(new FeedRefusedError(`zip entry ${entry.fileName} cannot be read: ${err.message}`));
      else resolve(stream);
    };
    if (isPlainDeflate(entry)) zip.openReadStream(entry, { decodeFileData: false }, done);
    else zip.openReadStream(entry, done);
  });
}

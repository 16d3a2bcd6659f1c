import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FeedFiles } from './feed-files.ts';

/** Lower-cased .txt file name (e.g. "stops.txt") → sha256 hex of its normalized content. */
export type FileHashes = Map<string, string>;

/**
 * sha256 of the normalized feed: for each .txt file in name order, its lower-cased name and the
 * sha256 of its content with a leading UTF-8 BOM removed and CRLF turned into LF. Re-zipping or
 * re-saving a feed with other line endings gives the same hash.
 */
export function combineFileHashes(hashes: FileHashes): string {
  const outer = createHash('sha256');
  for (const name of [...hashes.keys()].sort()) outer.update(`${name}\0${hashes.get(name)!}\n`);
  return outer.digest('hex');
}

/**
 * The feed hash of files on disk (a directory feed; a zip is hashed while it is extracted).
 * Aborting `signal` stops reading at once (the promise then rejects).
 */
export async function hashFeedFiles(files: FeedFiles, signal?: AbortSignal): Promise<string> {
  const names = [...files.keys()];
  const digests = await Promise.all(names.map((name) => hashNormalizedFile(files.get(name)!, signal)));
  return combineFileHashes(new Map(names.map((name, i) => [name, digests[i]!])));
}

export async function hashNormalizedFile(file: string, signal?: AbortSignal): Promise<string> {
  const hasher = new NormalizedHasher();
  // checked per chunk rather than handed to each stream: one listener per file on a shared signal adds up
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    signal?.throwIfAborted(); // leaving the loop closes the stream
    hasher.update(chunk as Buffer);
  }
  return hasher.digest();
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CR = 0x0d;
const LF = 0x0a;

/** sha256 of a byte stream fed in chunks, without a leading BOM and with every CRLF read as LF. */
export class NormalizedHasher {
  private readonly hash: Hash = createHash('sha256');
  /** Bytes held back at the start until it is known whether they are a BOM. */
  private head: Buffer | null = Buffer.alloc(0);
  private pendingCr = false;

  update(raw: Buffer): void {
    let chunk = raw;
    if (this.head !== null) {
      const head = Buffer.concat([this.head, chunk]);
      if (head.length < BOM.length && BOM.subarray(0, head.length).equals(head)) {
        this.head = head;
        return;
      }
      this.head = null;
      chunk = head.subarray(0, 3).equals(BOM) ? head.subarray(3) : head;
    }
    if (chunk.length === 0) return;
    if (this.pendingCr) {
      // a CR at the end of the previous chunk: drop it if this chunk starts with LF
      if (chunk[0] !== LF) this.hash.update(Buffer.of(CR));
      this.pendingCr = false;
    }
    if (chunk[chunk.length - 1] === CR) {
      this.pendingCr = true;
      chunk = chunk.subarray(0, chunk.length - 1);
    }
    this.updateWithoutCrLf(chunk);
  }

  digest(): string {
    if (this.head !== null && this.head.length > 0) this.hash.update(this.head);
    if (this.pendingCr) this.hash.update(Buffer.of(CR));
    return this.hash.digest('hex');
  }

  private updateWithoutCrLf(chunk: Buffer): void {
    let start = 0;
    let at = chunk.indexOf('\r\n');
    while (at !== -1) {
      this.hash.update(chunk.subarray(start, at));
      start = at + 1; // keep the LF
      at = chunk.indexOf('\r\n', start);
    }
    this.hash.update(chunk.subarray(start));
  }
}

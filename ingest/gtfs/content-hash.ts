import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FeedFiles } from './feed-files.ts';

/**
 * sha256 of the normalized feed: for each .txt file in name order, its lower-cased name and the
 * sha256 of its content with a leading UTF-8 BOM removed and CRLF turned into LF. Re-zipping or
 * re-saving a feed with other line endings gives the same hash.
 */
export async function hashFeedFiles(files: FeedFiles): Promise<string> {
  const outer = createHash('sha256');
  for (const name of [...files.keys()].sort()) {
    outer.update(`${name}\0${await hashNormalizedFile(files.get(name)!)}\n`);
  }
  return outer.digest('hex');
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CR = 0x0d;
const LF = 0x0a;

export async function hashNormalizedFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  let first = true;
  let pendingCr = false;
  for await (const raw of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    let chunk = raw as Buffer;
    if (first) {
      first = false;
      if (chunk.subarray(0, 3).equals(BOM)) chunk = chunk.subarray(3);
    }
    if (pendingCr) {
      // a CR at the end of the previous chunk: drop it if this chunk starts with LF
      if (chunk[0] !== LF) hash.update(Buffer.of(CR));
      pendingCr = false;
    }
    if (chunk.length > 0 && chunk[chunk.length - 1] === CR) {
      pendingCr = true;
      chunk = chunk.subarray(0, chunk.length - 1);
    }
    hash.update(stripCrBeforeLf(chunk));
  }
  if (pendingCr) hash.update(Buffer.of(CR));
  return hash.digest('hex');
}

function stripCrBeforeLf(chunk: Buffer): Buffer {
  let at = chunk.indexOf('\r\n');
  if (at === -1) return chunk;
  const parts: Buffer[] = [];
  let start = 0;
  while (at !== -1) {
    parts.push(chunk.subarray(start, at));
    start = at + 1; // keep the LF
    at = chunk.indexOf('\r\n', start);
  }
  parts.push(chunk.subarray(start));
  return Buffer.concat(parts);
}

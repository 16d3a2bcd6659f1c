/**
 * PBF file framing: reads one length-prefixed BlobHeader + Blob at a time through a FileHandle
 * and returns its decompressed block bytes (zlib through node:zlib on the thread pool).
 */
import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { PbfReader } from 'pbf';
import { InvalidInputError } from '../errors.ts';
import { BLOB, BLOB_HEADER, MAX_BLOB_BYTES, MAX_BLOB_HEADER_BYTES } from './format.ts';
import { expectEnd, guard } from './pbf-message.ts';

const inflateAsync = promisify(inflate);

export interface LoadedBlob {
  type: string;
  /** File offset of the blob's length prefix, for messages. */
  offset: number;
  /** File offset of the next blob. */
  next: number;
  /** Decompressed block bytes. */
  data: Uint8Array;
}

export async function loadBlob(fh: FileHandle, offset: number, totalBytes: number, path: string): Promise<LoadedBlob | null> {
  if (offset >= totalBytes) return null;
  const prefix = await readExactly(fh, offset, 4, path);
  const headerLength = prefix.readUInt32BE(0);
  if (headerLength === 0 || headerLength > MAX_BLOB_HEADER_BYTES) {
    throw new InvalidInputError(
      offset === 0
        ? `not an OSM PBF file: ${path} (first 4 bytes give a blob header length of ${headerLength})`
        : `corrupt OSM PBF file ${path}: blob header length ${headerLength} at offset ${offset}`,
    );
  }
  const headerBytes = await readExactly(fh, offset + 4, headerLength, path);
  const header = guard(offset, path, () => decodeBlobHeader(headerBytes));
  if (offset === 0 && header.type !== 'OSMHeader') {
    throw new InvalidInputError(`not an OSM PBF file: ${path} does not start with an OSMHeader blob`);
  }
  if (header.datasize <= 0 || header.datasize > MAX_BLOB_BYTES) {
    throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob size ${header.datasize} at offset ${offset} (at most ${MAX_BLOB_BYTES})`);
  }
  const blobStart = offset + 4 + headerLength;
  const blobBytes = await readExactly(fh, blobStart, header.datasize, path);
  const data = await decompressBlob(blobBytes, offset, path);
  return { type: header.type, offset, next: blobStart + header.datasize, data };
}

async function readExactly(fh: FileHandle, position: number, length: number, path: string): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, position + got);
    if (bytesRead === 0) {
      throw new InvalidInputError(`truncated OSM PBF file ${path}: wanted ${length} bytes at offset ${position}, file ends after ${got}`);
    }
    got += bytesRead;
  }
  return buf;
}

function decodeBlobHeader(buf: Uint8Array): { type: string; datasize: number } {
  const pbf = new PbfReader(buf);
  let type = '';
  let datasize = -1;
  let tag: number;
  while ((tag = pbf.nextField())) {
    if (tag === BLOB_HEADER.type) type = pbf.readString();
    else if (tag === BLOB_HEADER.datasize) datasize = pbf.readVarint(true);
  }
  expectEnd(pbf, buf.length);
  if (!type) throw new Error('blob header without a type');
  return { type, datasize };
}

const COMPRESSIONS: Record<number, string> = {
  [BLOB.lzmaData]: 'lzma',
  [BLOB.bzip2Data]: 'bzip2',
  [BLOB.lz4Data]: 'lz4',
  [BLOB.zstdData]: 'zstd',
};

async function decompressBlob(buf: Uint8Array, offset: number, path: string): Promise<Uint8Array> {
  let raw: Uint8Array | null = null;
  let zlib: Uint8Array | null = null;
  let rawSize = -1;
  let other: string | null = null;
  guard(offset, path, () => {
    const pbf = new PbfReader(buf);
    let tag: number;
    while ((tag = pbf.nextField())) {
      if (tag === BLOB.raw) raw = pbf.readBytes();
      else if (tag === BLOB.rawSize) rawSize = pbf.readVarint(true);
      else if (tag === BLOB.zlibData) zlib = pbf.readBytes();
      else if (COMPRESSIONS[tag]) other = COMPRESSIONS[tag]!;
    }
    expectEnd(pbf, buf.length);
  });
  if (raw) return raw;
  if (zlib) {
    if (rawSize > MAX_BLOB_BYTES) {
      throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset} claims ${rawSize} bytes uncompressed (at most ${MAX_BLOB_BYTES})`);
    }
    let out: Buffer;
    try {
      out = await inflateAsync(zlib, { maxOutputLength: MAX_BLOB_BYTES });
    } catch (err) {
      throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset} does not inflate (${(err as Error).message})`);
    }
    if (rawSize >= 0 && out.length !== rawSize) {
      throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset} inflates to ${out.length} bytes, its header says ${rawSize}`);
    }
    return out;
  }
  if (other) {
    throw new InvalidInputError(
      `OSM PBF file ${path}: blob at offset ${offset} uses ${other} compression, which is not supported (only uncompressed and zlib blobs); ` +
        're-encode the file with zlib (for example `osmium cat -f pbf,pbf_compression=zlib`)',
    );
  }
  throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset} has no data`);
}

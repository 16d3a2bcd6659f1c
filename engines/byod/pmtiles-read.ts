import { gunzipSync } from 'node:zlib';
import { Compression, readVarint, type DecompressFunc, type RangeResponse, type Source } from 'pmtiles';

/**
 * What reading an archive of unknown origin through the `pmtiles` package needs: a decompress
 * that refuses bombs and unknown codings, and a directory guard (the package would allocate as
 * many entries as a directory's first varint claims), plus a Source over bytes in memory.
 */

/** Far above any directory or metadata of a 5 MB archive, far below what would hurt. */
export const MAX_INTERNAL_BYTES = 32 * 1024 * 1024;

export class ArchiveDecodeError extends Error {}

export const boundedDecompress: DecompressFunc = async (buf, compression) => {
  if (compression === Compression.None || compression === Compression.Unknown) return buf;
  if (compression !== Compression.Gzip) throw new ArchiveDecodeError(`compression ${Compression[compression] ?? compression} is not supported`);
  try {
    const out = gunzipSync(new Uint8Array(buf), { maxOutputLength: MAX_INTERNAL_BYTES });
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
  } catch (err) {
    throw new ArchiveDecodeError((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? `a section decompresses to more than ${MAX_INTERNAL_BYTES} bytes`
      : 'a section is not valid gzip');
  }
};

/**
 * The same, for directories: a directory's entry count must be possible for its size (each
 * entry takes at least four varint bytes), so a forged count cannot make the reader allocate.
 */
export const directoryDecompress: DecompressFunc = async (buf, compression) => {
  const out = await boundedDecompress(buf, compression);
  const bytes = new Uint8Array(out);
  if (bytes.length === 0) throw new ArchiveDecodeError('a directory is empty');
  let entries: number;
  try {
    entries = readVarint({ buf: bytes, pos: 0 });
  } catch {
    throw new ArchiveDecodeError('a directory does not start with an entry count');
  }
  if (!Number.isSafeInteger(entries) || entries * 4 > bytes.length) {
    throw new ArchiveDecodeError(`a directory claims ${entries} entries in ${bytes.length} bytes`);
  }
  return out;
};

/** An archive held in memory (an upload being checked) as a `pmtiles` Source. */
export class BufferSource implements Source {
  constructor(private readonly bytes: Uint8Array, private readonly key = 'upload') {}

  getKey(): string {
    return this.key;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const end = Math.min(this.bytes.length, offset + length);
    // A copy: a Buffer's subarray shares (and its .buffer exposes) a larger pool.
    return { data: new Uint8Array(this.bytes.subarray(Math.min(offset, end), end)).buffer };
  }
}

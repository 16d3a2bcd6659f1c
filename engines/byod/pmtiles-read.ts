import { gunzipSync } from 'node:zlib';
import { Compression, readVarint, type DecompressFunc, type RangeResponse, type Source } from 'pmtiles';

/**
 * What reading an archive of unknown origin through the `pmtiles` package needs: a decompress
 * that refuses bombs and unknown codings, and a directory guard that counts what every directory
 * costs against the bounds of one archive (the package would allocate as many entries as a
 * directory's first varint claims), plus a Source over bytes in memory.
 */

/**
 * The bounds of one uploaded archive's directories, checked at upload and again when it is served.
 * Writers make leaves of 4,096 entries or more (go-pmtiles, tippecanoe, engines/tiles/pmtiles);
 * a 5 MB archive has well under 100,000 tiles, each entry inflates to 4 to 23 bytes.
 */
export const DIRECTORY_LIMITS = {
  /** Inflated bytes of one directory (root or leaf). */
  directoryBytes: 4 * 1024 * 1024,
  /** Entries of one directory. */
  directoryEntries: 100_000,
  /** Inflated bytes of every directory read, root and leaves. */
  totalBytes: 16 * 1024 * 1024,
  /** Entries of every directory read, root and leaves. */
  totalEntries: 500_000,
  /** The root and at most three levels of leaves (what readers follow). */
  depth: 4,
  /** Inflated bytes of the JSON metadata. */
  metadataBytes: 4 * 1024 * 1024,
} as const;

export class ArchiveDecodeError extends Error {}
/**
 * A section within its format but over one of DIRECTORY_LIMITS; the message names the bound, of
 * one section (to follow its name) or, `whole`, of the archive (a sentence of its own).
 */
export class ArchiveLimitError extends ArchiveDecodeError {
  constructor(message: string, readonly whole = false) {
    super(message);
  }
}

const mib = (bytes: number) => `${bytes} bytes (${bytes / (1024 * 1024)} MiB)`;

/** A section inflated, refused past maxBytes (the message: "decompresses to more than …, at most … {scope} are accepted"). */
export function inflateBounded(buf: ArrayBuffer | Uint8Array, compression: Compression, maxBytes: number, scope: string): Uint8Array {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  const over = () => new ArchiveLimitError(`decompresses to more than ${maxBytes} bytes; at most ${mib(maxBytes)} ${scope} are accepted`);
  if (compression === Compression.None || compression === Compression.Unknown) {
    if (bytes.length > maxBytes) throw over();
    return bytes;
  }
  if (compression !== Compression.Gzip) throw new ArchiveDecodeError(`compression ${Compression[compression] ?? compression} is not supported`);
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw over();
    throw new ArchiveDecodeError('a section is not valid gzip');
  }
}

const toArrayBuffer = (out: Uint8Array) => out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;

/** The metadata section, inflated within its bound. */
export const metadataDecompress: DecompressFunc = async (buf, compression) =>
  toArrayBuffer(inflateBounded(buf, compression, DIRECTORY_LIMITS.metadataBytes, 'of metadata'));

/** The entry count a directory starts with, refused when its size cannot hold it or it is over the bound. */
export function directoryEntryCount(bytes: Uint8Array): number {
  if (bytes.length === 0) throw new ArchiveDecodeError('a directory is empty');
  let entries: number;
  try {
    entries = readVarint({ buf: bytes, pos: 0 });
  } catch {
    throw new ArchiveDecodeError('a directory does not start with an entry count');
  }
  // Each entry takes at least four varint bytes.
  if (!Number.isSafeInteger(entries) || entries * 4 > bytes.length) {
    throw new ArchiveDecodeError(`a directory claims ${entries} entries in ${bytes.length} bytes`);
  }
  if (entries > DIRECTORY_LIMITS.directoryEntries) {
    throw new ArchiveLimitError(`claims ${entries} entries; at most ${DIRECTORY_LIMITS.directoryEntries} entries per directory are accepted`);
  }
  return entries;
}

/**
 * Directory reads of one archive: each inflated within the per-directory bounds, and all of them
 * together within the total of inflated bytes (the caller counts the entries it walks).
 */
export class DirectoryBudget {
  private bytes = 0;

  readonly decompress: DecompressFunc = async (buf, compression) => {
    const out = inflateBounded(buf, compression, DIRECTORY_LIMITS.directoryBytes, 'per directory');
    this.bytes += out.length;
    if (this.bytes > DIRECTORY_LIMITS.totalBytes) {
      throw new ArchiveLimitError(`the directories decompress to more than ${DIRECTORY_LIMITS.totalBytes} bytes in all; at most ${mib(DIRECTORY_LIMITS.totalBytes)} are accepted`, true);
    }
    directoryEntryCount(out);
    return toArrayBuffer(out);
  };
}

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

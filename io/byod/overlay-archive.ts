import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { bytesToHeader, Compression, type Header } from 'pmtiles';
import { zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';
import { HotTiles, NO_HOT_TILES } from '../../engines/tiles/hot-tiles.ts';
import type { DirectoryCache, PackedDirectory } from '../../engines/byod/directory-cache.ts';
import { DIRECTORY_LIMITS, directoryEntryCount } from '../../engines/byod/pmtiles-read.ts';

/**
 * Tile reads of one uploaded overlay's archive for GET /byod/{id}/{z}/{x}/{y}, answering a tile's
 * stored bytes as they are. Its directories go through the process's DirectoryCache (bounded by
 * bytes), each inflated on the thread pool (not the event loop) within DIRECTORY_LIMITS, so an
 * archive stored before those bounds were enforced at upload still costs no more than they allow;
 * one over them is refused with an OverlayArchiveError.
 */

const FIRST_READ_BYTES = 16_384;
const inflate = promisify(gunzip);

export class OverlayArchiveError extends Error {}

export class OverlayArchive {
  private constructor(
    private readonly file: FileHandle,
    readonly header: Header,
    private readonly key: string,
    private readonly cache: DirectoryCache,
    private readonly hot: HotTiles,
    private readonly slot: number,
  ) {}

  /** `key` names the archive in the cache (the overlay id: an id's archive never changes); served tiles are kept in `hot`. */
  static async open(path: string, key: string, cache: DirectoryCache, hot: HotTiles = NO_HOT_TILES): Promise<OverlayArchive> {
    const file = await open(path, 'r');
    try {
      const first = Buffer.alloc(FIRST_READ_BYTES);
      const { bytesRead } = await file.read(first, 0, FIRST_READ_BYTES, 0);
      const header = bytesToHeader(first.buffer.slice(0, bytesRead) as ArrayBuffer);
      if (header.specVersion !== 3) throw new OverlayArchiveError(`unsupported PMTiles version ${header.specVersion}`);
      if (header.internalCompression !== Compression.Gzip && header.internalCompression !== Compression.None) {
        throw new OverlayArchiveError(`unsupported directory compression ${header.internalCompression}`);
      }
      return new OverlayArchive(file, header, key, cache, hot, hot.slot());
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  /** The tile's stored bytes (compressed as header.tileCompression says), or null when there is none. */
  async tile(z: number, x: number, y: number): Promise<Buffer | null> {
    const h = this.header;
    if (z < h.minZoom || z > h.maxZoom) return null;
    return this.hot.through(this.slot, zxyToTileId(z, x, y), (id) => this.find(id));
  }

  private async find(id: number): Promise<Buffer | null> {
    const h = this.header;
    let directory = await this.directory(h.rootDirectoryOffset, h.rootDirectoryLength);
    for (let depth = 1; depth <= DIRECTORY_LIMITS.depth; depth++) {
      const i = findEntry(directory, id);
      if (i < 0) return null;
      const offset = directory.offsets[i]!;
      const length = directory.lengths[i]!;
      if (directory.runLengths[i]! > 0) {
        const bytes = Buffer.alloc(length);
        await this.file.read(bytes, 0, length, h.tileDataOffset + offset);
        return bytes;
      }
      directory = await this.directory(h.leafDirectoryOffset + offset, length);
    }
    throw new OverlayArchiveError(`its directories nest deeper than ${DIRECTORY_LIMITS.depth} levels`);
  }

  /** The archive's JSON metadata, inflated on the thread pool within the upload bound; {} when it has none. */
  async metadata(): Promise<unknown> {
    const { jsonMetadataOffset: offset, jsonMetadataLength: length } = this.header;
    if (length === 0) return {};
    const limit = DIRECTORY_LIMITS.metadataBytes;
    if (length > limit + 1024) throw new OverlayArchiveError(`its metadata of ${length} bytes is over the limit`);
    const raw = Buffer.alloc(length);
    await this.file.read(raw, 0, length, offset);
    let bytes: Buffer = raw;
    if (this.header.internalCompression === Compression.Gzip) {
      bytes = await inflate(raw, { maxOutputLength: limit }).catch(() => {
        throw new OverlayArchiveError(`its metadata does not inflate within ${limit} bytes`);
      });
    } else if (bytes.length > limit) throw new OverlayArchiveError(`its metadata is over ${limit} bytes`);
    try {
      return JSON.parse(bytes.toString('utf8')) as unknown;
    } catch {
      throw new OverlayArchiveError('its metadata is not JSON');
    }
  }

  close(): Promise<void> {
    this.hot.close(this.slot, 0);
    return this.file.close();
  }

  private directory(offset: number, length: number): Promise<PackedDirectory> {
    return this.cache.get(`${this.key}:${offset}`, async () => {
      // A compressed directory is no larger than its inflated bound (plus gzip's framing).
      if (length > DIRECTORY_LIMITS.directoryBytes + 1024) throw new OverlayArchiveError(`a directory of ${length} bytes is over the limit`);
      const raw = Buffer.alloc(length);
      await this.file.read(raw, 0, length, offset);
      let bytes: Buffer = raw;
      if (this.header.internalCompression === Compression.Gzip) {
        try {
          bytes = await inflate(raw, { maxOutputLength: DIRECTORY_LIMITS.directoryBytes });
        } catch (err) {
          throw new OverlayArchiveError((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
            ? `a directory does not inflate within ${DIRECTORY_LIMITS.directoryBytes} bytes`
            : 'a directory is not valid gzip');
        }
      } else if (bytes.length > DIRECTORY_LIMITS.directoryBytes) {
        throw new OverlayArchiveError(`a directory is over ${DIRECTORY_LIMITS.directoryBytes} bytes`);
      }
      try {
        return parsePacked(bytes);
      } catch (err) {
        throw new OverlayArchiveError(`a directory does not decode (${(err as Error).message})`);
      }
    });
  }
}

/**
 * A directory's columns (tile-id deltas, run lengths, lengths, offsets; engines/tiles/pmtiles/
 * directory.ts) straight into typed arrays: no object per entry, a few ms for the largest allowed.
 */
function parsePacked(buf: Uint8Array): PackedDirectory {
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let scale = 1; ; scale *= 0x80) {
      if (at >= buf.length) throw new Error('truncated PMTiles directory');
      const byte = buf[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
    }
  };
  const n = directoryEntryCount(buf);
  varint();
  const d: PackedDirectory = { tileIds: new Float64Array(n), offsets: new Float64Array(n), lengths: new Float64Array(n), runLengths: new Float64Array(n) };
  let lastId = 0;
  for (let i = 0; i < n; i++) d.tileIds[i] = lastId += varint();
  for (let i = 0; i < n; i++) d.runLengths[i] = varint();
  for (let i = 0; i < n; i++) d.lengths[i] = varint();
  for (let i = 0; i < n; i++) {
    const v = varint();
    d.offsets[i] = v === 0 && i > 0 ? d.offsets[i - 1]! + d.lengths[i - 1]! : v - 1;
    if (d.offsets[i]! < 0 || !Number.isSafeInteger(d.offsets[i]! + d.lengths[i]!)) throw new Error('an entry has no valid offset');
  }
  return d;
}

/** The entry holding tile `id` or the leaf pointer to follow for it (as pmtiles' findTile), else -1. */
function findEntry(d: PackedDirectory, id: number): number {
  let lo = 0;
  let hi = d.tileIds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const cmp = id - d.tileIds[mid]!;
    if (cmp > 0) lo = mid + 1;
    else if (cmp < 0) hi = mid - 1;
    else return mid;
  }
  if (hi < 0) return -1;
  return d.runLengths[hi] === 0 || id - d.tileIds[hi]! < d.runLengths[hi]! ? hi : -1;
}

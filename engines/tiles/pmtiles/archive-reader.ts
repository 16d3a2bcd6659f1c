import { open, type FileHandle } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { bytesToHeader, findTile, type Entry, type Header } from 'pmtiles';
import { zxyToTileId } from './tile-id.ts';
import { Compression } from './header.ts';
import { HotTiles, NO_HOT_TILES } from '../hot-tiles.ts';

const FIRST_READ_BYTES = 16_384;
const LEAF_CACHE_SIZE = 64;

function readVarint(buf: Buffer, pos: { at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (pos.at >= buf.length) throw new Error('truncated PMTiles directory');
    const byte = buf[pos.at++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 0x80;
  }
}

/** A PMTiles v3 directory (the column layout of directory.ts). */
export function parseDirectory(buf: Buffer): Entry[] {
  const pos = { at: 0 };
  const count = readVarint(buf, pos);
  const entries: Entry[] = [];
  let lastId = 0;
  for (let i = 0; i < count; i++) {
    lastId += readVarint(buf, pos);
    entries.push({ tileId: lastId, offset: 0, length: 0, runLength: 0 });
  }
  for (const e of entries) e.runLength = readVarint(buf, pos);
  for (const e of entries) e.length = readVarint(buf, pos);
  let previous: Entry | undefined;
  for (const e of entries) {
    const v = readVarint(buf, pos);
    e.offset = v === 0 && previous ? previous.offset + previous.length : v - 1;
    previous = e;
  }
  return entries;
}

/**
 * Reads of one local archive that answer a tile's stored bytes as they are (still gzip): the API
 * serves them without re-compressing. The root directory stays in memory, recent leaf directories
 * in a small cache. With a share of the process's HotTiles, a small archive is read whole at open
 * (its tiles are then slices of that buffer) and a large one keeps its recently served tiles.
 */
export class TileArchive {
  private readonly leaves = new Map<number, Entry[]>();
  private metadataRead: Promise<unknown> | null = null;
  private root: Entry[] = [];

  private constructor(
    private readonly file: FileHandle,
    readonly header: Header,
    private readonly whole: Buffer | null,
    private readonly hot: HotTiles,
    private readonly slot: number,
  ) {}

  static async open(path: string, hot: HotTiles = NO_HOT_TILES): Promise<TileArchive> {
    const file = await open(path, 'r');
    const slot = hot.slot();
    let resident = 0;
    try {
      const { size } = await file.stat();
      const whole = hot.reserveResident(size) ? ((resident = size), await file.readFile()) : null;
      const first = whole ?? Buffer.alloc(FIRST_READ_BYTES);
      const bytesRead = whole ? whole.length : (await file.read(first, 0, FIRST_READ_BYTES, 0)).bytesRead;
      const header = bytesToHeader(first.buffer.slice(first.byteOffset, first.byteOffset + Math.min(bytesRead, FIRST_READ_BYTES)) as ArrayBuffer);
      if (header.specVersion !== 3) throw new Error(`unsupported PMTiles version ${header.specVersion}`);
      const archive = new TileArchive(file, header, whole, hot, slot);
      archive.root = await archive.directory(header.rootDirectoryOffset, header.rootDirectoryLength);
      return archive;
    } catch (err) {
      hot.close(slot, resident);
      await file.close();
      throw err;
    }
  }

  /** Whether the archive is held whole in memory. */
  get resident(): boolean {
    return this.whole !== null;
  }

  private async bytesAt(offset: number, length: number): Promise<Buffer> {
    if (this.whole) {
      if (offset + length > this.whole.length) throw new Error('PMTiles range beyond the end of the archive');
      return this.whole.subarray(offset, offset + length);
    }
    const bytes = Buffer.alloc(length);
    await this.file.read(bytes, 0, length, offset);
    return bytes;
  }

  private async directory(offset: number, length: number): Promise<Entry[]> {
    const raw = await this.bytesAt(offset, length);
    const compression = this.header.internalCompression;
    if (compression !== Compression.gzip && compression !== Compression.none) throw new Error(`unsupported directory compression ${compression}`);
    return parseDirectory(compression === Compression.gzip ? gunzipSync(raw) : raw);
  }

  private async leaf(offset: number, length: number): Promise<Entry[]> {
    const cached = this.leaves.get(offset);
    if (cached) return cached;
    const entries = await this.directory(this.header.leafDirectoryOffset + offset, length);
    if (this.leaves.size >= LEAF_CACHE_SIZE) this.leaves.delete(this.leaves.keys().next().value!);
    this.leaves.set(offset, entries);
    return entries;
  }

  /** The tile's stored bytes (compressed as header.tileCompression says), or null when there is none. */
  async tile(z: number, x: number, y: number): Promise<Buffer | null> {
    if (z < this.header.minZoom || z > this.header.maxZoom) return null;
    const id = zxyToTileId(z, x, y);
    return this.whole ? this.find(id) : this.hot.through(this.slot, id, (tileId) => this.find(tileId));
  }

  private async find(id: number): Promise<Buffer | null> {
    let entries = this.root;
    for (let depth = 0; depth < 4; depth++) {
      const entry = findTile(entries, id);
      if (!entry) return null;
      if (entry.runLength > 0) return this.bytesAt(this.header.tileDataOffset + entry.offset, entry.length);
      entries = await this.leaf(entry.offset, entry.length);
    }
    throw new Error('PMTiles directories nest deeper than 3 levels');
  }

  /** The archive's JSON metadata (vector_layers, attribution, …), read once; {} when it has none. */
  metadata(): Promise<unknown> {
    this.metadataRead ??= this.readMetadata();
    return this.metadataRead;
  }

  private async readMetadata(): Promise<unknown> {
    const { jsonMetadataOffset: offset, jsonMetadataLength: length, internalCompression: compression } = this.header;
    if (length === 0) return {};
    if (compression !== Compression.gzip && compression !== Compression.none) throw new Error(`unsupported metadata compression ${compression}`);
    const raw = await this.bytesAt(offset, length);
    return JSON.parse((compression === Compression.gzip ? gunzipSync(raw) : raw).toString('utf8'));
  }

  close(): Promise<void> {
    this.hot.close(this.slot, this.whole?.length ?? 0);
    return this.file.close();
  }
}

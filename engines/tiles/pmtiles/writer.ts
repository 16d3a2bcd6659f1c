import { hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { buildDirectories, HEADER_BYTES, type Entry } from './directory.ts';
import { Compression, encodeHeader, TileType, type Bounds } from './header.ts';
import { tileIdToZxy, zxyToTileId } from './tile-id.ts';

/**
 * Writes a PMTiles v3 archive: tiles in any order (clustered when they came in tile-id order),
 * identical tile bytes stored once, runs of consecutive ids with the same bytes as one entry,
 * gzip-compressed directories split into leaves when the root would not fit, and gzip JSON
 * metadata. Tile bytes go to a scratch file beside the archive as they come, so memory holds
 * only the directory entries and one hash per distinct tile.
 */

export interface WriterOptions {
  /** TileType code (header.ts): mvt by default. */
  tileType?: number;
  /** How the given tile bytes are already compressed (Compression code): gzip by default. */
  tileCompression?: number;
}

export interface FinishOptions {
  /** The archive's JSON metadata (vector_layers, attribution, …); bounds/center/zooms are added. */
  metadata?: Record<string, unknown>;
  /** Defaults to the extent of the tiles at the highest zoom written. */
  bounds?: Bounds;
  /** [lon, lat, zoom]; defaults to the middle of the bounds at the lowest zoom. */
  center?: [number, number, number];
}

export interface ArchiveSummary {
  path: string;
  bytes: number;
  addressedTiles: number;
  tileEntries: number;
  tileContents: number;
  leafDirectories: number;
  clustered: boolean;
  minZoom: number;
  maxZoom: number;
  bounds: Bounds;
}

const FLUSH_BYTES = 4 << 20;

function tileBounds(z: number, x0: number, y0: number, x1: number, y1: number): Bounds {
  const n = 2 ** z;
  const lon = (x: number) => (x / n) * 360 - 180;
  const lat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI;
  return { minLon: lon(x0), maxLon: lon(x1 + 1), minLat: lat(y1 + 1), maxLat: lat(y0) };
}

export class PMTilesWriter {
  private readonly entries: Entry[] = [];
  private readonly contents = new Map<string, { offset: number; length: number }>();
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dataBytes = 0;
  private inOrder = true;
  private lastId = -1;
  private minZoom = Infinity;
  private maxZoom = -Infinity;
  /** Tile extent at the highest zoom written: [x0, y0, x1, y1]. */
  private extent: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  private done = false;

  private constructor(readonly path: string, private readonly scratch: FileHandle, private readonly options: Required<WriterOptions>) {}

  static async create(path: string, options: WriterOptions = {}): Promise<PMTilesWriter> {
    const scratch = await open(`${path}.tiledata`, 'w');
    return new PMTilesWriter(path, scratch, { tileType: options.tileType ?? TileType.mvt, tileCompression: options.tileCompression ?? Compression.gzip });
  }

  async addTile(z: number, x: number, y: number, data: Uint8Array): Promise<void> {
    if (this.done) throw new Error('the archive is already finished');
    if (data.length === 0) throw new RangeError(`tile ${z}/${x}/${y} is empty: leave it out instead`);
    const tileId = zxyToTileId(z, x, y);
    if (tileId <= this.lastId) {
      if (this.inOrder && this.entries.some((e) => tileId >= e.tileId && tileId < e.tileId + e.runLength)) {
        throw new Error(`tile ${z}/${x}/${y} was already added`);
      }
      this.inOrder = false;
    }
    this.trackZoom(z, x, y);
    const digest = hash('sha1', data, 'base64');
    let content = this.contents.get(digest);
    if (!content) {
      content = { offset: this.dataBytes, length: data.length };
      this.contents.set(digest, content);
      this.pending.push(Buffer.from(data));
      this.pendingBytes += data.length;
      this.dataBytes += data.length;
      if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
    }
    const last = this.entries.at(-1);
    if (this.inOrder && last && last.offset === content.offset && last.tileId + last.runLength === tileId) last.runLength += 1;
    else this.entries.push({ tileId, offset: content.offset, length: content.length, runLength: 1 });
    this.lastId = Math.max(this.lastId, tileId);
  }

  async finish(options: FinishOptions = {}): Promise<ArchiveSummary> {
    if (this.done) throw new Error('the archive is already finished');
    this.done = true;
    if (this.entries.length === 0) throw new Error('an archive needs at least one tile');
    await this.flush();
    await this.scratch.close();
    const entries = this.inOrder ? this.entries : mergeRuns(this.entries);
    const [z, x0, y0, x1, y1] = [this.maxZoom, ...this.extent];
    const bounds = options.bounds ?? tileBounds(z, x0, y0, x1, y1);
    const [centerLon, centerLat, centerZoom] = options.center
      ?? [(bounds.minLon + bounds.maxLon) / 2, (bounds.minLat + bounds.maxLat) / 2, this.minZoom];
    const metadata = gzipSync(JSON.stringify({
      ...options.metadata,
      bounds: [bounds.minLon, bounds.minLat, bounds.maxLon, bounds.maxLat],
      center: [centerLon, centerLat, centerZoom],
      minzoom: this.minZoom,
      maxzoom: this.maxZoom,
    }));
    const { root, leaves, leafCount } = buildDirectories(entries);
    const rootOffset = HEADER_BYTES;
    const metadataOffset = rootOffset + root.length;
    const leavesOffset = metadataOffset + metadata.length;
    const tileDataOffset = leavesOffset + leaves.length;
    const header = encodeHeader({
      rootOffset, rootLength: root.length, metadataOffset, metadataLength: metadata.length,
      leavesOffset, leavesLength: leaves.length, tileDataOffset, tileDataLength: this.dataBytes,
      addressedTiles: entries.reduce((n, e) => n + e.runLength, 0), tileEntries: entries.length, tileContents: this.contents.size,
      clustered: this.inOrder, internalCompression: Compression.gzip, tileCompression: this.options.tileCompression,
      tileType: this.options.tileType, minZoom: this.minZoom, maxZoom: this.maxZoom,
      ...bounds, centerZoom, centerLon, centerLat,
    });
    const out = await open(this.path, 'w');
    try {
      await out.writev([header, root, metadata, leaves]);
      for await (const chunk of createReadStream(`${this.path}.tiledata`, { highWaterMark: 1 << 20 })) await out.write(chunk as Buffer);
    } finally {
      await out.close();
      await rm(`${this.path}.tiledata`, { force: true });
    }
    return {
      path: this.path, bytes: tileDataOffset + this.dataBytes, addressedTiles: entries.reduce((n, e) => n + e.runLength, 0),
      tileEntries: entries.length, tileContents: this.contents.size, leafDirectories: leafCount, clustered: this.inOrder,
      minZoom: this.minZoom, maxZoom: this.maxZoom, bounds,
    };
  }

  /** Gives up: removes the scratch file (the archive itself was never written). */
  async abort(): Promise<void> {
    if (!this.done) {
      this.done = true;
      await this.scratch.close().catch(() => {});
    }
    await rm(`${this.path}.tiledata`, { force: true });
  }

  private trackZoom(z: number, x: number, y: number): void {
    this.minZoom = Math.min(this.minZoom, z);
    if (z > this.maxZoom) {
      this.maxZoom = z;
      this.extent = [x, y, x, y];
    } else if (z === this.maxZoom) {
      const e = this.extent;
      this.extent = [Math.min(e[0], x), Math.min(e[1], y), Math.max(e[2], x), Math.max(e[3], y)];
    }
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const chunk = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.scratch.write(chunk);
  }
}

/** Sorts entries by tile id (refusing a tile added twice) and merges runs of one content. */
function mergeRuns(entries: Entry[]): Entry[] {
  const sorted = [...entries].sort((a, b) => a.tileId - b.tileId);
  const merged: Entry[] = [];
  for (const e of sorted) {
    const last = merged.at(-1);
    if (last && e.tileId < last.tileId + last.runLength) throw new Error(`tile ${tileIdToZxy(e.tileId).join('/')} was added twice`);
    if (last && last.offset === e.offset && last.tileId + last.runLength === e.tileId) last.runLength += e.runLength;
    else merged.push({ ...e });
  }
  return merged;
}

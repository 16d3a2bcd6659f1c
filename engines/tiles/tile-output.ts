import type { GzipPool } from './gzip-pool.ts';
import type { MadeTile } from './tile-maker.ts';
import type { TileSpool } from './tile-spool.ts';

/**
 * Where made tiles go: gzip in batches on the pool's threads (the tiler's thread keeps making
 * tiles meanwhile, a bounded number of batches in flight), then the spool in the order they were
 * made; and the per-zoom counts of the report, the budget's drops included.
 */

const BATCH_TILES = 256;
const BATCH_BYTES = 2 << 20;
const BATCHES_IN_FLIGHT = 8;

interface Pending {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
  compressed: boolean;
}

export interface ZoomStats {
  zoom: number;
  tiles: number;
  features: number;
}

export interface ZoomDrops {
  zoom: number;
  /** Tiles over the byte or feature cap. */
  tilesOverBudget: number;
  /** Features those tiles left out. */
  featuresDropped: number;
  /** Gzip bytes of the tiles over the byte cap as first encoded (absent when only the feature cap was hit). */
  bytesBefore?: number;
}

/** The tiles made so far take more bytes than the tiling may write (`TilingOptions.maxTileBytes`). */
export class TilesTooLargeError extends Error {
  override readonly name = 'TilesTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`the tiles take more than ${limitBytes} bytes`);
  }
}

export class TileOutput {
  private batch: Pending[] = [];
  private batchBytes = 0;
  private readonly inFlight: Promise<Pending[]>[] = [];
  private readonly stats = new Map<number, ZoomStats>();
  private readonly drops = new Map<number, ZoomDrops>();
  tiles = 0;
  /** Compressed bytes of the tiles spooled so far. */
  private bytes = 0;

  get bytesSpooled(): number {
    return this.bytes;
  }

  constructor(
    private readonly spool: TileSpool,
    private readonly pool: GzipPool,
    private readonly onTiles?: (tiles: number) => void,
    private readonly maxBytes = Infinity,
  ) {}

  async add(z: number, x: number, y: number, tile: MadeTile): Promise<void> {
    if (tile.dropped > 0) {
      const d = this.drops.get(z) ?? { zoom: z, tilesOverBudget: 0, featuresDropped: 0 };
      d.tilesOverBudget += 1;
      d.featuresDropped += tile.dropped;
      if (tile.bytesBefore !== undefined) d.bytesBefore = (d.bytesBefore ?? 0) + tile.bytesBefore;
      this.drops.set(z, d);
    }
    if (tile.data.length === 0) return;
    const s = this.stats.get(z) ?? { zoom: z, tiles: 0, features: 0 };
    s.tiles += 1;
    s.features += tile.features;
    this.stats.set(z, s);
    this.tiles += 1;
    if (this.onTiles && this.tiles % 10_000 === 0) this.onTiles(this.tiles);
    this.batch.push({ z, x, y, data: tile.data, compressed: tile.compressed });
    this.batchBytes += tile.data.length;
    if (this.batch.length >= BATCH_TILES || this.batchBytes >= BATCH_BYTES) await this.send();
  }

  async flush(): Promise<void> {
    await this.send();
    while (this.inFlight.length) await this.settleOldest();
  }

  zoomStats(): ZoomStats[] {
    return [...this.stats.values()].sort((a, b) => a.zoom - b.zoom);
  }

  zoomDrops(): ZoomDrops[] {
    return [...this.drops.values()].sort((a, b) => a.zoom - b.zoom);
  }

  private async send(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    const raw = batch.filter((t) => !t.compressed);
    const done = this.pool.gzipBatch(raw.map((t) => t.data)).then((compressed) => {
      raw.forEach((t, i) => (t.data = compressed[i]!));
      return batch;
    });
    done.catch(() => {}); // awaited in settleOldest; a build that fails meanwhile must not crash on it
    this.inFlight.push(done);
    if (this.inFlight.length >= BATCHES_IN_FLIGHT) await this.settleOldest();
  }

  private async settleOldest(): Promise<void> {
    for (const { z, x, y, data } of await this.inFlight.shift()!) {
      this.bytes += data.length;
      if (this.bytes > this.maxBytes) throw new TilesTooLargeError(this.maxBytes);
      this.spool.add(z, x, y, data);
    }
  }
}

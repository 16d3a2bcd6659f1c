/**
 * The memory one API process spends on stored tile bytes, shared by every archive it serves
 * (basemap, overlays, uploads, terrain, contours), bounded by TILE_CACHE_MB:
 *
 * - an archive of at most a quarter of the budget is read whole when it opens ("resident") while
 *   the budget has room for it, so its tiles are slices of one buffer: no read, no copy;
 * - the tiles of larger archives are kept as they are served, least recently used first out.
 *   A tile is never changed in an archive, so a kept tile is never stale; "no tile here" is kept
 *   too (ocean, outside the data), at a nominal size.
 *
 * Each archive takes a slot; closing it releases its resident bytes and drops its tiles.
 */
const NO_TILE = Buffer.alloc(0);
/** What a kept "no tile" and a key are counted as. */
const ENTRY_OVERHEAD_BYTES = 96;

export class HotTiles {
  private readonly kept = new Map<string, Buffer>();
  private keptBytes = 0;
  private residentBytes = 0;
  private nextSlot = 1;
  private readonly slotPrefixes = new Map<number, string>();
  private hits = 0;
  private misses = 0;

  constructor(readonly budgetBytes: number) {
    if (!(budgetBytes >= 0)) throw new RangeError(`tile cache budget must be ≥ 0 bytes, got ${budgetBytes}`);
  }

  /** Opens a slot for one archive's tiles. */
  slot(): number {
    if (this.budgetBytes === 0) return 0;
    const slot = this.nextSlot++;
    this.slotPrefixes.set(slot, `${slot}/`);
    return slot;
  }

  /** Reserves `bytes` for an archive held whole; false when it is over a quarter of the budget or the budget is spent. */
  reserveResident(bytes: number): boolean {
    if (bytes > this.budgetBytes / 4 || this.residentBytes + bytes > this.budgetBytes) return false;
    this.residentBytes += bytes;
    this.evictOver(this.budgetBytes - this.residentBytes);
    return true;
  }

  /** The kept bytes of a tile; null when it is known to have none; undefined when not kept. */
  get(slot: number, tileId: number): Buffer | null | undefined {
    const prefix = this.slotPrefixes.get(slot);
    if (prefix === undefined) return undefined;
    const key = prefix + tileId;
    const bytes = this.kept.get(key);
    if (bytes === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Map keeps insertion order: re-inserted, the tile becomes the most recently used.
    this.kept.delete(key);
    this.kept.set(key, bytes);
    return bytes === NO_TILE ? null : bytes;
  }

  set(slot: number, tileId: number, bytes: Buffer | null): void {
    const prefix = this.slotPrefixes.get(slot);
    if (prefix === undefined) return; // no budget, or closed meanwhile
    const room = this.budgetBytes - this.residentBytes;
    const size = (bytes?.length ?? 0) + ENTRY_OVERHEAD_BYTES;
    // One tile may take at most 1/16 of the room, so a few large ones do not flush the rest.
    if (size > room / 16) return;
    const key = prefix + tileId;
    const previous = this.kept.get(key);
    if (previous !== undefined) this.keptBytes -= previous.length + ENTRY_OVERHEAD_BYTES;
    this.kept.delete(key);
    this.kept.set(key, bytes ?? NO_TILE);
    this.keptBytes += size;
    this.evictOver(room);
  }

  /** The tile's kept bytes, else what `read` answers (then kept). */
  async through(slot: number, tileId: number, read: (tileId: number) => Promise<Buffer | null>): Promise<Buffer | null> {
    const kept = this.get(slot, tileId);
    if (kept !== undefined) return kept;
    const bytes = await read(tileId);
    this.set(slot, tileId, bytes);
    return bytes;
  }

  /** Forgets an archive: its resident reservation and its kept tiles. */
  close(slot: number, residentBytes: number): void {
    const prefix = this.slotPrefixes.get(slot);
    if (prefix === undefined) return;
    this.slotPrefixes.delete(slot);
    this.residentBytes -= residentBytes;
    for (const [key, bytes] of this.kept) {
      if (!key.startsWith(prefix)) continue;
      this.kept.delete(key);
      this.keptBytes -= bytes.length + ENTRY_OVERHEAD_BYTES;
    }
  }

  /** Bytes held (resident archives, kept tiles) and the lookups of kept tiles since start. */
  stats(): { residentBytes: number; keptBytes: number; keptTiles: number; hits: number; misses: number } {
    return { residentBytes: this.residentBytes, keptBytes: this.keptBytes, keptTiles: this.kept.size, hits: this.hits, misses: this.misses };
  }

  private evictOver(room: number): void {
    for (const [key, bytes] of this.kept) {
      if (this.keptBytes <= room) return;
      this.kept.delete(key);
      this.keptBytes -= bytes.length + ENTRY_OVERHEAD_BYTES;
    }
  }
}

/** The process's hot tiles as TILE_CACHE_MB sets them. */
export const hotTilesOf = (config: { tileCacheMb: number }): HotTiles => new HotTiles(config.tileCacheMb * 2 ** 20);

/** A budget of nothing: every tile is read from its archive (tests, tools, the build side). */
export const NO_HOT_TILES = new HotTiles(0);

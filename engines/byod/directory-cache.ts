/**
 * The PMTiles directories the API holds for uploaded overlays' tiles, across all of them: one
 * least-recently-used cache bounded by bytes (not by a count of archives or directories), so what
 * a process keeps stays under `maxBytes` however the uploads are shaped. A directory is kept
 * packed in typed arrays (32 bytes an entry); one larger than the whole budget is used, not kept.
 */

export interface PackedDirectory {
  tileIds: Float64Array;
  offsets: Float64Array;
  lengths: Float64Array;
  runLengths: Float64Array;
}

export const packedBytes = (d: PackedDirectory) => d.tileIds.byteLength * 4;

export class DirectoryCache {
  private readonly kept = new Map<string, { directory: PackedDirectory; bytes: number }>();
  private readonly loading = new Map<string, Promise<PackedDirectory>>();
  private bytes = 0;
  /** Counts drops: a directory whose load began before a drop is used but not kept (it may be of the dropped overlay). */
  private drops = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes of the directories held now. */
  get residentBytes(): number {
    return this.bytes;
  }

  async get(key: string, load: () => Promise<PackedDirectory>): Promise<PackedDirectory> {
    const hit = this.kept.get(key);
    if (hit) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit.directory;
    }
    let pending = this.loading.get(key);
    if (!pending) {
      const dropsBefore = this.drops;
      pending = load().finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
      pending.then((directory) => {
        if (this.drops === dropsBefore) this.keep(key, directory);
      }, () => {});
    }
    return pending;
  }

  /** Drops the directories whose keys start with `prefix` (an overlay deleted or evicted). */
  drop(prefix: string): void {
    this.drops += 1;
    for (const [key, { bytes }] of this.kept) {
      if (!key.startsWith(prefix)) continue;
      this.kept.delete(key);
      this.bytes -= bytes;
    }
  }

  private keep(key: string, directory: PackedDirectory): void {
    const bytes = packedBytes(directory);
    if (bytes > this.maxBytes || this.kept.has(key)) return;
    this.kept.set(key, { directory, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}

import { TileArchive } from '../tiles/pmtiles/archive-reader.ts';

/**
 * The overlays' archives the API has open for tile requests: the most recently used few, by
 * overlay id (an id's archive never changes: it is written once, then only deleted). An archive
 * that fails to open is not kept, so the next request tries again.
 */
export class OpenArchives {
  private readonly open = new Map<string, Promise<TileArchive>>();
  /** Evicted or forgotten archives, closed once the reads that may still use them are done. */
  private readonly closing = new Set<Promise<TileArchive>>();

  constructor(private readonly maxOpen = 32, private readonly closeAfterMs = 10_000) {}

  async get(id: string, path: string): Promise<TileArchive> {
    let archive = this.open.get(id);
    if (archive) {
      // Most recently used last.
      this.open.delete(id);
      this.open.set(id, archive);
      return archive;
    }
    archive = TileArchive.open(path);
    this.open.set(id, archive);
    archive.catch(() => {
      if (this.open.get(id) === archive) this.open.delete(id);
    });
    while (this.open.size > this.maxOpen) this.forget(this.open.keys().next().value!);
    return archive;
  }

  /** Drops an overlay's archive (deleted, or evicted); its file is closed a little later. */
  forget(id: string): void {
    const archive = this.open.get(id);
    if (!archive) return;
    this.open.delete(id);
    this.closing.add(archive);
    setTimeout(() => {
      if (this.closing.delete(archive)) void closeQuietly(archive);
    }, this.closeAfterMs).unref();
  }

  async close(): Promise<void> {
    const all = [...this.open.values(), ...this.closing];
    this.open.clear();
    this.closing.clear();
    await Promise.all(all.map(closeQuietly));
  }
}

async function closeQuietly(archive: Promise<TileArchive>): Promise<void> {
  await archive.then((a) => a.close(), () => {}).catch(() => {});
}

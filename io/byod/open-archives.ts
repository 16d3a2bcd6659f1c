import { DirectoryCache } from '../../engines/byod/directory-cache.ts';
import { OverlayArchive } from './overlay-archive.ts';
import { HotTiles, NO_HOT_TILES } from '../../engines/tiles/hot-tiles.ts';

/**
 * The overlays' archives the API has open for tile requests: the most recently used few, by
 * overlay id (an id's archive never changes: it is written once, then only deleted), and their
 * directories in one cache bounded by bytes across all of them (directory-cache.ts), so memory
 * stays bounded whatever the archives hold. An archive that fails to open is not kept, so the
 * next request tries again.
 */
export const DIRECTORY_CACHE_BYTES = 64 * 1024 * 1024;

export class OpenArchives {
  private readonly open = new Map<string, Promise<OverlayArchive>>();
  /** Evicted or forgotten archives, closed once the reads that may still use them are done. */
  private readonly closing = new Set<Promise<OverlayArchive>>();
  readonly directories: DirectoryCache;

  private readonly maxOpen: number;
  private readonly closeAfterMs: number;
  private readonly hot: HotTiles;

  /** `hot`: the process's memory for served tile bytes (none when omitted). */
  constructor(options: { maxOpen?: number; closeAfterMs?: number; directoryBytes?: number; hot?: HotTiles } = {}) {
    this.maxOpen = options.maxOpen ?? 32;
    this.closeAfterMs = options.closeAfterMs ?? 10_000;
    this.hot = options.hot ?? NO_HOT_TILES;
    this.directories = new DirectoryCache(options.directoryBytes ?? DIRECTORY_CACHE_BYTES);
  }

  async get(id: string, path: string): Promise<OverlayArchive> {
    let archive = this.open.get(id);
    if (archive) {
      // Most recently used last.
      this.open.delete(id);
      this.open.set(id, archive);
      return archive;
    }
    archive = OverlayArchive.open(path, id, this.directories, this.hot);
    this.open.set(id, archive);
    archive.catch(() => {
      if (this.open.get(id) === archive) this.open.delete(id);
    });
    while (this.open.size > this.maxOpen) this.forget(this.open.keys().next().value!);
    return archive;
  }

  /** Drops an overlay's archive (deleted, or evicted) and its directories; its file is closed a little later. */
  forget(id: string): void {
    this.directories.drop(`${id}:`);
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

async function closeQuietly(archive: Promise<OverlayArchive>): Promise<void> {
  await archive.then((a) => a.close(), () => {}).catch(() => {});
}

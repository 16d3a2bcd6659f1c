import type { KeyRecord } from '../../lib/keys.ts';

interface Entry {
  record: KeyRecord | null;
  expiresAt: number;
}

/**
 * Key lookups by hash, remembered for `ttlMs` (misses too, so unknown and disabled keys cost the
 * same and neither hits Postgres on every request). Bounded: past `maxEntries` the oldest insert
 * is dropped; entries are re-inserted on every reload, so this behaves close to LRU without
 * reordering the map on each hit. Concurrent misses for one hash share a single query.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<KeyRecord | null>>();

  constructor(
    private readonly lookup: (keyHash: string) => Promise<KeyRecord | null>,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    /** Epoch ms; tests pass their own clock. */
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached answer (a record or null), or undefined when it must be loaded. */
  peek(keyHash: string): KeyRecord | null | undefined {
    const entry = this.entries.get(keyHash);
    if (entry === undefined || entry.expiresAt <= this.now()) return undefined;
    return entry.record;
  }

  load(keyHash: string): Promise<KeyRecord | null> {
    const pending = this.loading.get(keyHash);
    if (pending) return pending;
    const promise = this.lookup(keyHash)
      .then((record) => {
        this.remember(keyHash, record);
        return record;
      })
      .finally(() => this.loading.delete(keyHash));
    this.loading.set(keyHash, promise);
    return promise;
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(keyHash: string, record: KeyRecord | null): void {
    this.entries.delete(keyHash);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(keyHash, { record, expiresAt: this.now() + this.ttlMs });
  }
}

/**
 * A binary min-heap of (Float64 key, Uint32 id) pairs in typed arrays: no object per entry.
 * Searches push an id again when its key improves and skip stale pops (lazy deletion).
 */
export class MinHeap {
  private keys: Float64Array;
  private ids: Uint32Array;
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.ids = new Uint32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(key: number, id: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys;
    const ids = this.ids;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      const pk = keys[parent]!;
      if (pk <= key) break;
      keys[i] = pk;
      ids[i] = ids[parent]!;
      i = parent;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** The smallest key (undefined behaviour when empty: check size first). */
  peekKey(): number {
    return this.keys[0]!;
  }

  /** Removes the smallest entry and returns its id; its key was peekKey(). */
  pop(): number {
    const keys = this.keys;
    const ids = this.ids;
    const top = ids[0]!;
    const n = --this.size;
    if (n === 0) return top;
    const key = keys[n]!;
    const id = ids[n]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      keys[i] = keys[child]!;
      ids[i] = ids[child]!;
      i = child;
    }
    keys[i] = key;
    ids[i] = id;
    return top;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const ids = new Uint32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.keys = keys;
    this.ids = ids;
  }
}

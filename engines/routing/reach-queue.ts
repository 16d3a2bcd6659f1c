/**
 * The queue of the node-label reach (reach-nodes.ts): a 4-ary min-heap of (Float64 key, Uint32
 * id) pairs in typed arrays, half as deep as heap.ts's binary one, so a pop (a reach's commonest
 * operation) moves fewer entries; the four children share a cache line. Same contract as MinHeap:
 * ids pushed again when their key improves, stale pops skipped by the caller.
 */
export class QuaternaryHeap {
  private keys = new Float64Array(4096);
  private ids = new Uint32Array(4096);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  push(key: number, id: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys;
    const ids = this.ids;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >>> 2;
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
      const first = 4 * i + 1;
      if (first >= n) break;
      let child = first;
      let ck = keys[first]!;
      const last = Math.min(first + 4, n);
      for (let c = first + 1; c < last; c++) {
        if (keys[c]! < ck) {
          ck = keys[c]!;
          child = c;
        }
      }
      if (ck >= key) break;
      keys[i] = ck;
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

type NumberArray = Float64Array | Uint32Array;

/** An append-only typed array that doubles its storage as it fills (lists of unknown length). */
export class GrowableArray<A extends NumberArray> {
  private data: A;
  length = 0;

  constructor(private readonly make: (size: number) => A, capacity = 1024) {
    this.data = make(Math.max(16, capacity));
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  /** The items so far, sharing storage with the list (valid until the next push or clear). */
  view(): A {
    return this.data.subarray(0, this.length) as A;
  }

  /** A right-sized copy of the items. */
  finish(): A {
    return this.data.slice(0, this.length) as A;
  }

  /** Drops every item and the storage. */
  clear(): void {
    this.data = this.make(16);
    this.length = 0;
  }
}

export const float64List = (capacity?: number) => new GrowableArray((n) => new Float64Array(n), capacity);
export const uint32List = (capacity?: number) => new GrowableArray((n) => new Uint32Array(n), capacity);

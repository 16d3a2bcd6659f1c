/** Append-only Uint32 list (CSR payloads of unknown size). */
export class U32List {
  private data: Uint32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  finish(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/** CSR builder: call row() once per row in order, push() its items in between. */
export class CsrBuilder {
  readonly offsets: Uint32Array;
  readonly items = new U32List();
  private rows = 0;
  constructor(rowCount: number) {
    this.offsets = new Uint32Array(rowCount + 1);
  }
  push(v: number): void {
    this.items.push(v);
  }
  /** Closes the current row. */
  row(): void {
    this.offsets[++this.rows] = this.items.length;
  }
  finish(): { offsets: Uint32Array; ids: Uint32Array } {
    if (this.rows !== this.offsets.length - 1) throw new Error(`CSR: ${this.rows} rows closed, ${this.offsets.length - 1} expected`);
    return { offsets: this.offsets, ids: this.items.finish() };
  }
}

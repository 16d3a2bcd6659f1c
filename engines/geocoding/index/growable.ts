import { uint32List } from '../../../lib/growable-array.ts';

/** CSR builder: call row() once per row in order, push() its items in between. */
export class CsrBuilder {
  readonly offsets: Uint32Array;
  readonly items = uint32List();
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

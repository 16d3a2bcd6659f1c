import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { lowerBound, upperBound } from '../../lib/sorted-search.ts';

/**
 * Node coordinates on disk, for inputs of any size (Canada has some 400 million nodes): nodes
 * arrive in ascending id order, as a file sorted by type then id gives them, and are written in
 * pages of PAGE_NODES entries (ids, longitudes, latitudes: float64 each, so coordinates come
 * back exactly as read). Memory holds each page's first id and a cache of pages read back,
 * replaced by the clock (second-chance) rule, its size set by the caller's budget. Ways refer
 * to nodes mapped at about the same time, so consecutive lookups mostly hit cached pages.
 */

export const PAGE_NODES = 4096;
const PAGE_BYTES = PAGE_NODES * 3 * 8;

export class UnsortedNodesError extends Error {
  constructor(what: string) {
    super(`${what}: the file is not sorted by type then id`);
  }
}

export class NodeTableWriter {
  private readonly fd: number;
  private readonly page = new Float64Array(PAGE_NODES * 3);
  private inPage = 0;
  private readonly firstIds: number[] = [];
  private last = -Infinity;
  count = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  append(id: number, lng: number, lat: number): void {
    if (id <= this.last) throw new UnsortedNodesError(`node ${id} comes after node ${this.last}`);
    this.last = id;
    const page = this.page;
    const i = this.inPage;
    if (i === 0) this.firstIds.push(id);
    page[i] = id;
    page[PAGE_NODES + i] = lng;
    page[2 * PAGE_NODES + i] = lat;
    this.count += 1;
    if (++this.inPage === PAGE_NODES) this.flush();
  }

  /** Bytes of the file so far. */
  get bytes(): number {
    return (this.firstIds.length - (this.inPage > 0 ? 1 : 0)) * PAGE_BYTES;
  }

  /** Writes the last page and opens the table for lookups with room for `cacheBytes` of pages. */
  finish(cacheBytes: number): NodeTable {
    const lastCount = this.inPage === 0 ? PAGE_NODES : this.inPage;
    if (this.inPage > 0) this.flush();
    closeSync(this.fd);
    return new NodeTable(this.path, Float64Array.from(this.firstIds), lastCount, Math.max(2, Math.floor(cacheBytes / PAGE_BYTES)));
  }

  /** Closes the file without opening the table (after an error). */
  abandon(): void {
    try { closeSync(this.fd); } catch { /* already closed */ }
  }

  private flush(): void {
    const bytes = new Uint8Array(this.page.buffer);
    let done = 0;
    while (done < PAGE_BYTES) done += writeSync(this.fd, bytes, done, PAGE_BYTES - done);
    this.inPage = 0;
  }
}

export class NodeTable {
  private readonly fd: number;
  private readonly slots: Float64Array[] = [];
  private readonly slotPage: Int32Array;
  private readonly referenced: Uint8Array;
  private readonly pageSlot: Int32Array;
  private hand = 0;
  /** Pages read from disk (cache misses), for the build's report. */
  reads = 0;

  constructor(readonly path: string, private readonly firstIds: Float64Array, private readonly lastCount: number, readonly cacheSlots: number) {
    this.fd = openSync(path, 'r');
    this.pageSlot = new Int32Array(firstIds.length).fill(-1);
    this.slotPage = new Int32Array(cacheSlots).fill(-1);
    this.referenced = new Uint8Array(cacheSlots);
  }

  /** [lng, lat] of the node, or null when the file does not hold it. */
  get(id: number): [number, number] | null {
    const p = this.pageOf(id);
    if (p < 0) return null;
    const page = this.load(p);
    const count = p === this.firstIds.length - 1 ? this.lastCount : PAGE_NODES;
    const lo = lowerBound(page, id, 0, count);
    if (lo === count || page[lo] !== id) return null;
    return [page[PAGE_NODES + lo]!, page[2 * PAGE_NODES + lo]!];
  }

  close(): void {
    closeSync(this.fd);
  }

  /** The last page whose first id is ≤ id, or -1. */
  private pageOf(id: number): number {
    return upperBound(this.firstIds, id) - 1;
  }

  private load(p: number): Float64Array {
    const cached = this.pageSlot[p]!;
    if (cached >= 0) {
      this.referenced[cached] = 1;
      return this.slots[cached]!;
    }
    const slot = this.freeSlot();
    const page = (this.slots[slot] ??= new Float64Array(PAGE_NODES * 3));
    const bytes = new Uint8Array(page.buffer);
    let done = 0;
    while (done < PAGE_BYTES) {
      const read = readSync(this.fd, bytes, done, PAGE_BYTES - done, p * PAGE_BYTES + done);
      if (read === 0) throw new Error(`${this.path}: truncated at page ${p}`);
      done += read;
    }
    this.reads += 1;
    this.pageSlot[p] = slot;
    this.slotPage[slot] = p;
    this.referenced[slot] = 1;
    return page;
  }

  /** A slot to fill: an empty one while there are some, then the clock's next unreferenced one. */
  private freeSlot(): number {
    if (this.slots.length < this.cacheSlots) return this.slots.length;
    for (;;) {
      const slot = this.hand;
      this.hand = (this.hand + 1) % this.cacheSlots;
      if (this.referenced[slot]) {
        this.referenced[slot] = 0;
        continue;
      }
      this.pageSlot[this.slotPage[slot]!] = -1;
      return slot;
    }
  }
}

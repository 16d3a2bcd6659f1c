/**
 * Strings as utf8 blob + Uint32 offsets: a pool (append or intern; id 0 = '') and sorted
 * string tables (token dictionary, house-number keys, postcodes, prefixes).
 */
const CHUNK = 1 << 24;

export class StringPoolBuilder {
  private chunks: Buffer[] = [];
  private current = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  private total = 0;
  private offsets: number[] = [0];
  private interned = new Map<string, number>();

  constructor() {
    this.interned.set('', this.add(''));
  }

  /** Appends without de-duplication (unique values such as source ids). */
  add(s: string): number {
    if (s.length > 0) {
      const need = Buffer.byteLength(s, 'utf8');
      if (this.used + need > this.current.length) {
        this.chunks.push(this.current.subarray(0, this.used));
        this.current = Buffer.allocUnsafe(Math.max(CHUNK, need));
        this.used = 0;
      }
      this.used += this.current.write(s, this.used, 'utf8');
      this.total += need;
      if (this.total > 0xffffffff) throw new Error('string pool exceeds 4 GiB');
    }
    this.offsets.push(this.total);
    return this.offsets.length - 2;
  }

  /** Appends once per distinct value. */
  intern(s: string): number {
    const known = this.interned.get(s);
    if (known !== undefined) return known;
    const id = this.add(s);
    this.interned.set(s, id);
    return id;
  }

  /** Drops the intern map (frees memory before building large columns). */
  forgetInterned(): void {
    this.interned = new Map([['', 0]]);
  }

  finish(): { blob: Uint8Array; offsets: Uint32Array } {
    this.chunks.push(this.current.subarray(0, this.used));
    const blob = new Uint8Array(this.total);
    let at = 0;
    for (const chunk of this.chunks) {
      blob.set(chunk, at);
      at += chunk.length;
    }
    this.chunks = [];
    return { blob, offsets: Uint32Array.from(this.offsets) };
  }
}

/** Encodes strings in the given order. */
export function encodeStringTable(strings: readonly string[]): { blob: Uint8Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(strings.length + 1);
  let total = 0;
  for (let i = 0; i < strings.length; i++) {
    total += Buffer.byteLength(strings[i]!, 'utf8');
    offsets[i + 1] = total;
  }
  const blob = Buffer.allocUnsafe(total);
  for (let i = 0; i < strings.length; i++) blob.write(strings[i]!, offsets[i]!, 'utf8');
  return { blob: new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength), offsets };
}

export function decodeStringTable(blob: Uint8Array, offsets: Uint32Array): string[] {
  const buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Array<string>(offsets.length - 1);
  for (let i = 0; i < out.length; i++) out[i] = buf.toString('utf8', offsets[i]!, offsets[i + 1]!);
  return out;
}

/** Reads single strings out of a pool on demand. */
export class StringPool {
  private readonly buf: Buffer;
  constructor(blob: Uint8Array, private readonly offsets: Uint32Array) {
    this.buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  }
  get(id: number): string {
    if (id === 0) return '';
    return this.buf.toString('utf8', this.offsets[id]!, this.offsets[id + 1]!);
  }
  get size(): number {
    return this.offsets.length - 1;
  }
}

/** First index whose string is >= key (sorted table, JS code-unit order). */
export function lowerBoundString(table: readonly string[], key: string, lo = 0, hi = table.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** [lo, hi) of the entries starting with prefix. */
export function prefixRange(table: readonly string[], prefix: string): [number, number] {
  const lo = lowerBoundString(table, prefix);
  // Every string starting with prefix sorts before prefix + U+FFFF.
  const hi = lowerBoundString(table, prefix + '\uffff', lo);
  return [lo, hi];
}

/** Index of key, or -1. */
export function indexOfSorted(table: readonly string[], key: string): number {
  const i = lowerBoundString(table, key);
  return i < table.length && table[i] === key ? i : -1;
}

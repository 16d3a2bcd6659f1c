import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * Scratch files of length-prefixed records (a u32 little-endian byte count that includes itself,
 * then the body), written and read back in order through one large buffer. The tiler's partitions
 * and tile spool use them; they hold one build's intermediate data and are deleted as it goes.
 * Synchronous: the tiler is CPU-bound and runs in a build process, never beside HTTP traffic.
 */

const CHUNK = 8 << 20;

export class RecordWriter {
  private buffer: Buffer;
  private length = 0;
  private fd: number | null;
  /** Records and bytes written so far. */
  count = 0;
  bytes = 0;

  /** `chunk`: bytes buffered before each write (many writers open at once take less). */
  constructor(readonly path: string, chunk = CHUNK) {
    this.buffer = Buffer.allocUnsafe(chunk);
    this.fd = openSync(path, 'w');
  }

  /** Room for one record of `size` bytes (prefix included) at the returned offset of `buffer`. */
  reserve(size: number): { buffer: Buffer; offset: number } {
    if (this.length + size > this.buffer.length) {
      this.flush();
      if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    }
    const offset = this.length;
    this.buffer.writeUInt32LE(size, offset);
    this.length += size;
    this.count += 1;
    this.bytes += size;
    return { buffer: this.buffer, offset };
  }

  /** Appends a whole record (prefix included) as it was read. */
  copy(source: Uint8Array, offset: number, size: number): void {
    const { buffer, offset: at } = this.reserve(size);
    buffer.set(source.subarray(offset, offset + size), at);
  }

  close(): void {
    if (this.fd === null) return;
    this.flush();
    closeSync(this.fd);
    this.fd = null;
  }

  private flush(): void {
    let done = 0;
    while (done < this.length) done += writeSync(this.fd!, this.buffer, done, this.length - done);
    this.length = 0;
  }
}

/** Each record of the file in order, as (buffer, offset, size) with the prefix at `offset`; the buffer is reused. */
export function* readRecords(path: string): Generator<[Buffer, number, number]> {
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(CHUNK);
    let filled = 0;
    let position = 0;
    for (;;) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, position);
      position += read;
      filled += read;
      let offset = 0;
      while (filled - offset >= 4) {
        const size = buffer.readUInt32LE(offset);
        if (size < 4) throw new Error(`${path}: corrupt record at byte ${position - filled + offset}`);
        if (filled - offset < size) break;
        yield [buffer, offset, size];
        offset += size;
      }
      if (read === 0) {
        if (offset !== filled) throw new Error(`${path}: truncated record at byte ${position - filled + offset}`);
        return;
      }
      const rest = filled - offset;
      const needed = rest >= 4 ? buffer.readUInt32LE(offset) : 4;
      const next = needed > buffer.length ? Buffer.allocUnsafe(needed + CHUNK) : buffer;
      buffer.copy(next, 0, offset, filled);
      buffer = next;
      filled = rest;
    }
  } finally {
    closeSync(fd);
  }
}

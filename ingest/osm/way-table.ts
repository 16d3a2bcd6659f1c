import { closeSync, openSync, readSync } from 'node:fs';
import { RecordWriter } from '../../engines/tiles/record-file.ts';
import { float64List } from '../../lib/growable-array.ts';
import { lowerBound } from '../../lib/sorted-search.ts';
import type { MemberWay, Position } from './multipolygon.ts';

/**
 * Relation member ways on disk, by id: each way's node ids and coordinates (NaN where the file
 * lacks the node) as one record, written as the ways pass reads them; memory holds only the id,
 * offset and size of each. The relations, which come after every way, read their members back.
 */

const HEAD = 16;

export class WayTableWriter {
  private readonly file: RecordWriter;
  private readonly ids = float64List(1 << 12);
  private readonly offsets = float64List(1 << 12);

  constructor(path: string) {
    this.file = new RecordWriter(path, 1 << 20);
  }

  add(id: number, refs: readonly number[], coords: readonly (Position | null)[]): void {
    const n = refs.length;
    this.ids.push(id);
    this.offsets.push(this.file.bytes);
    const { buffer, offset } = this.file.reserve(HEAD + 24 * n);
    buffer.writeUInt32LE(n, offset + 4);
    buffer.writeDoubleLE(id, offset + 8);
    let at = offset + HEAD;
    for (let i = 0; i < n; i++, at += 8) buffer.writeDoubleLE(refs[i]!, at);
    for (const c of coords) {
      buffer.writeDoubleLE(c ? c[0] : Number.NaN, at);
      buffer.writeDoubleLE(c ? c[1] : Number.NaN, at + 8);
      at += 16;
    }
  }

  get bytes(): number {
    return this.file.bytes;
  }

  finish(): WayTable {
    this.file.close();
    const ids = this.ids.finish();
    const offsets = this.offsets.finish();
    const order = Array.from(ids.keys()).sort((a, b) => ids[a]! - ids[b]!);
    return new WayTable(this.file.path, Float64Array.from(order, (i) => ids[i]!), Float64Array.from(order, (i) => offsets[i]!));
  }

  abandon(): void {
    this.file.close();
  }
}

export class WayTable {
  private readonly fd: number;
  private buffer = Buffer.allocUnsafe(1 << 16);

  constructor(readonly path: string, private readonly ids: Float64Array, private readonly offsets: Float64Array) {
    this.fd = openSync(path, 'r');
  }

  get size(): number {
    return this.ids.length;
  }

  /** The member as multipolygon.ts takes it; `refs: null` when the file does not hold the way. */
  member(id: number, role: string): MemberWay {
    const i = this.indexOf(id);
    if (i < 0) return { id, role, refs: null, coords: [] };
    const at = this.offsets[i]!;
    const size = this.readAt(at, 4).readUInt32LE(0);
    const record = this.readAt(at, size);
    const n = record.readUInt32LE(4);
    const refs: number[] = new Array(n);
    const coords: (Position | null)[] = new Array(n);
    for (let k = 0; k < n; k++) {
      refs[k] = record.readDoubleLE(HEAD + 8 * k);
      const lng = record.readDoubleLE(HEAD + 8 * n + 16 * k);
      coords[k] = Number.isNaN(lng) ? null : [lng, record.readDoubleLE(HEAD + 8 * n + 16 * k + 8)];
    }
    return { id, role, refs, coords };
  }

  close(): void {
    closeSync(this.fd);
  }

  private indexOf(id: number): number {
    const i = lowerBound(this.ids, id);
    return i < this.ids.length && this.ids[i] === id ? i : -1;
  }

  private readAt(position: number, size: number): Buffer {
    if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const read = readSync(this.fd, this.buffer, done, size - done, position + done);
      if (read === 0) throw new Error(`${this.path}: truncated record at byte ${position}`);
      done += read;
    }
    return this.buffer;
  }
}

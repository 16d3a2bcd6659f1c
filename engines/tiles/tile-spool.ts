import { rmSync } from 'node:fs';
import path from 'node:path';
import type { PMTilesWriter } from './pmtiles/writer.ts';
import { readRecords, RecordWriter } from './record-file.ts';

/**
 * Finished tiles parked per zoom until the archive is written. The tile tree visits children in
 * tile-id order, so each zoom's tiles arrive in tile-id order (a Hilbert range per subtree), but
 * the zooms interleave; written zoom after zoom, the archive gets every tile in id order and comes
 * out clustered, read sequentially from these files.
 */
export class TileSpool {
  private readonly zooms = new Map<number, RecordWriter>();

  constructor(private readonly dir: string) {}

  add(z: number, x: number, y: number, data: Uint8Array): void {
    let file = this.zooms.get(z);
    if (!file) this.zooms.set(z, (file = new RecordWriter(path.join(this.dir, `tiles-z${z}.spool`))));
    const { buffer, offset } = file.reserve(12 + data.length);
    buffer.writeUInt32LE(x, offset + 4);
    buffer.writeUInt32LE(y, offset + 8);
    buffer.set(data, offset + 12);
  }

  /** Adds every tile to the writer, lowest zoom first, deleting each zoom's file once read. */
  async drainInto(writer: PMTilesWriter): Promise<void> {
    for (const z of [...this.zooms.keys()].sort((a, b) => a - b)) {
      const file = this.zooms.get(z)!;
      file.close();
      for (const [buffer, offset, size] of readRecords(file.path)) {
        await writer.addTile(z, buffer.readUInt32LE(offset + 4), buffer.readUInt32LE(offset + 8), buffer.subarray(offset + 12, offset + size));
      }
      rmSync(file.path, { force: true });
      this.zooms.delete(z);
    }
  }

  /** Closes and deletes what is left (after an error). */
  discard(): void {
    for (const file of this.zooms.values()) {
      file.close();
      rmSync(file.path, { force: true });
    }
    this.zooms.clear();
  }
}

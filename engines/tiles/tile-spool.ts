import { rmSync } from 'node:fs';
import path from 'node:path';
import type { PMTilesWriter } from './pmtiles/writer.ts';
import { zxyToTileId } from './pmtiles/tile-id.ts';
import { readRecords, RecordWriter } from './record-file.ts';

/** Write buffer per zoom: fifteen zooms on each tiling thread. */
const SPOOL_CHUNK = 1 << 20;

/**
 * Finished tiles parked per zoom until the archive is written. The tile tree visits children in
 * tile-id order, so each zoom's tiles arrive in tile-id order (a Hilbert range per subtree), but
 * the zooms interleave; written zoom after zoom (drainMerged), the archive gets every tile in id
 * order and comes out clustered, read sequentially from these files.
 */
export class TileSpool {
  private readonly zooms = new Map<number, RecordWriter>();

  constructor(private readonly dir: string) {}

  add(z: number, x: number, y: number, data: Uint8Array): void {
    let file = this.zooms.get(z);
    if (!file) this.zooms.set(z, (file = new RecordWriter(path.join(this.dir, `tiles-z${z}.spool`), SPOOL_CHUNK)));
    const { buffer, offset } = file.reserve(12 + data.length);
    buffer.writeUInt32LE(x, offset + 4);
    buffer.writeUInt32LE(y, offset + 8);
    buffer.set(data, offset + 12);
  }

  /** Closes the zooms' files and hands them over (to drainMerged), by zoom. */
  close(): Map<number, string> {
    const files = new Map<number, string>();
    for (const [z, file] of this.zooms) {
      file.close();
      files.set(z, file.path);
    }
    this.zooms.clear();
    return files;
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

/**
 * One or more closed spools written into the archive as one: zoom after zoom, their tiles merged
 * by tile id (the threads of parallel-tiling.ts each spool their own subtrees). Each file is
 * deleted once read.
 */
export async function drainMerged(shares: readonly Map<number, string>[], writer: PMTilesWriter): Promise<void> {
  const zooms = [...new Set(shares.flatMap((s) => [...s.keys()]))].sort((a, b) => a - b);
  for (const z of zooms) {
    const heads = shares.flatMap((s) => (s.has(z) ? [readRecords(s.get(z)!)] : [])).map((records) => ({ records, next: records.next() }));
    for (;;) {
      let best: (typeof heads)[number] | undefined;
      let bestId = Infinity;
      for (const h of heads) {
        if (h.next.done) continue;
        const [buffer, offset] = h.next.value;
        const id = zxyToTileId(z, buffer.readUInt32LE(offset + 4), buffer.readUInt32LE(offset + 8));
        if (id < bestId) [best, bestId] = [h, id];
      }
      if (!best) break;
      const [buffer, offset, size] = best.next.value as [Buffer, number, number];
      await writer.addTile(z, buffer.readUInt32LE(offset + 4), buffer.readUInt32LE(offset + 8), buffer.subarray(offset + 12, offset + size));
      best.next = best.records.next();
    }
    for (const s of shares) if (s.has(z)) rmSync(s.get(z)!, { force: true });
  }
}

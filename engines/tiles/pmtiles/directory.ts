import { gzipSync } from 'node:zlib';

/**
 * PMTiles v3 directories: entries sorted by tile id, serialized column by column as varints
 * (tile-id deltas, run lengths, lengths, offsets with 0 meaning "right after the previous entry"),
 * then compressed. A root that does not fit the first 16 KiB with the header is split into leaf
 * directories, the root then pointing at each leaf (run length 0).
 */

export interface Entry {
  tileId: number;
  /** Into the tile data section; for a leaf pointer, into the leaf directories section. */
  offset: number;
  length: number;
  /** Consecutive tile ids sharing these bytes; 0 marks a pointer to a leaf directory. */
  runLength: number;
}

export const HEADER_BYTES = 127;
/** Header and root directory together must fit the first 16 KiB a client fetches. */
export const ROOT_BUDGET_BYTES = 16_384 - HEADER_BYTES;

class VarintWriter {
  private bytes: number[] = [];

  write(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint ${value} is not a non-negative safe integer`);
    while (value >= 0x80) {
      this.bytes.push((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    this.bytes.push(value);
  }

  toBuffer(): Buffer {
    return Buffer.from(this.bytes);
  }
}

export function serializeDirectory(entries: readonly Entry[]): Buffer {
  const out = new VarintWriter();
  out.write(entries.length);
  let lastId = 0;
  for (const e of entries) {
    out.write(e.tileId - lastId);
    lastId = e.tileId;
  }
  for (const e of entries) out.write(e.runLength);
  for (const e of entries) out.write(e.length);
  entries.forEach((e, i) => {
    const previous = entries[i - 1];
    out.write(previous && e.offset === previous.offset + previous.length ? 0 : e.offset + 1);
  });
  return out.toBuffer();
}

export interface Directories {
  root: Buffer;
  /** Every leaf directory, back to back (empty when the root holds every entry). */
  leaves: Buffer;
  leafCount: number;
}

const compress = (entries: readonly Entry[]) => gzipSync(serializeDirectory(entries));

/**
 * The root (and leaves) for sorted entries: the root alone when it fits its budget, else leaves
 * of `leafSize` entries, growing by a fifth until the root of leaf pointers fits.
 */
export function buildDirectories(entries: readonly Entry[], rootBudget = ROOT_BUDGET_BYTES): Directories {
  const whole = compress(entries);
  if (whole.length <= rootBudget) return { root: whole, leaves: Buffer.alloc(0), leafCount: 0 };
  for (let leafSize = Math.max(4096, Math.ceil(entries.length / 3500)); ; leafSize = Math.ceil(leafSize * 1.2)) {
    const pointers: Entry[] = [];
    const leaves: Buffer[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = compress(entries.slice(i, i + leafSize));
      pointers.push({ tileId: entries[i]!.tileId, offset, length: leaf.length, runLength: 0 });
      leaves.push(leaf);
      offset += leaf.length;
    }
    const root = compress(pointers);
    if (root.length <= rootBudget) return { root, leaves: Buffer.concat(leaves), leafCount: leaves.length };
  }
}

import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import Flatbush from 'flatbush';
import { GrowableArray } from '../../lib/growable-array.ts';
import { encodedSize, encodeGeometry } from './geometry-codec.ts';
import { FEATURES_HEADER_BYTES, FEATURES_MAGIC, featuresFileName, spatialIndexFileName, type StoredProperties } from './feature-store-format.ts';

const FLUSH_BYTES = 1 << 20;

function bboxOf(geometry: GeoJSON.Geometry, into: GrowableArray<Float64Array>): void {
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  const visit = (coords: unknown): void => {
    if (typeof (coords as number[])[0] === 'number') {
      const x = (coords as number[])[0]!, y = (coords as number[])[1]!;
      if (x < w) w = x;
      if (x > e) e = x;
      if (y < s) s = y;
      if (y > n) n = y;
    } else for (const c of coords as unknown[]) visit(c);
  };
  visit((geometry as Exclude<GeoJSON.Geometry, GeoJSON.GeometryCollection>).coordinates);
  into.push(w);
  into.push(s);
  into.push(e);
  into.push(n);
}

/**
 * Writes a layer's feature store in one pass: records go to a spill file as they come (only the
 * offsets and bboxes stay in memory, 40 bytes a feature), then the header, offsets and R-tree.
 */
export class FeatureStoreWriter {
  private readonly offsets = new GrowableArray((n) => new Float64Array(n));
  private readonly bboxes = new GrowableArray((n) => new Float64Array(n));
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private written = 0;

  private constructor(private readonly dir: string, private readonly layerId: string, private readonly spill: FileHandle, private readonly spillPath: string) {
    this.offsets.push(0);
  }

  static async create(dir: string, layerId: string): Promise<FeatureStoreWriter> {
    const spillPath = path.join(dir, `${featuresFileName(layerId)}.records`);
    return new FeatureStoreWriter(dir, layerId, await open(spillPath, 'w'), spillPath);
  }

  get count(): number {
    return this.offsets.length - 1;
  }

  async add(properties: StoredProperties, geometry: GeoJSON.Geometry): Promise<void> {
    const json = Buffer.from(JSON.stringify(properties), 'utf8');
    const record = Buffer.allocUnsafe(4 + json.length + encodedSize(geometry));
    record.writeUInt32LE(json.length, 0);
    json.copy(record, 4);
    encodeGeometry(geometry, record, 4 + json.length);
    bboxOf(geometry, this.bboxes);
    this.written += record.length;
    this.offsets.push(this.written);
    this.pending.push(record);
    this.pendingBytes += record.length;
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.pendingBytes) return;
    await this.spill.write(Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Writes `<layer>.features` and `<layer>.flatbush` into the directory; returns their bytes. */
  async finish(): Promise<{ features: number; bytes: number }> {
    await this.flush();
    await this.spill.close();
    const count = this.count;
    const header = Buffer.alloc(FEATURES_HEADER_BYTES);
    FEATURES_MAGIC.copy(header, 0);
    header.writeUInt32LE(count, 8);
    const offsets = this.offsets.view();
    const out = await open(path.join(this.dir, featuresFileName(this.layerId)), 'w');
    try {
      await out.write(header);
      await out.write(new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength));
      const spill = await open(this.spillPath, 'r');
      try {
        for await (const chunk of spill.createReadStream({ highWaterMark: FLUSH_BYTES })) await out.write(chunk as Buffer);
      } finally {
        await spill.close();
      }
    } finally {
      await out.close();
    }
    await rm(this.spillPath, { force: true });
    const index = new Flatbush(Math.max(1, count));
    const boxes = this.bboxes.view();
    for (let i = 0; i < count; i++) index.add(boxes[4 * i]!, boxes[4 * i + 1]!, boxes[4 * i + 2]!, boxes[4 * i + 3]!);
    // An empty layer still gets a valid index: one box far outside any lng/lat query.
    if (count === 0) index.add(1e9, 1e9, 1e9, 1e9);
    index.finish();
    const indexFile = await open(path.join(this.dir, spatialIndexFileName(this.layerId)), 'w');
    try {
      await indexFile.write(new Uint8Array(index.data));
    } finally {
      await indexFile.close();
    }
    return { features: count, bytes: FEATURES_HEADER_BYTES + offsets.byteLength + this.written + index.data.byteLength };
  }

  /** Drops the spill file after a failed build. */
  async abort(): Promise<void> {
    await this.spill.close().catch(() => {});
    await rm(this.spillPath, { force: true });
  }
}

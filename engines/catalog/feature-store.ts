import { open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import Flatbush from 'flatbush';
import { decodeGeometry, type DecodedGeometry } from './geometry-codec.ts';
import { FEATURES_HEADER_BYTES, FEATURES_MAGIC, featuresFileName, spatialIndexFileName, type StoredProperties } from './feature-store-format.ts';

export interface StoredFeature {
  properties: StoredProperties;
  geometry: DecodedGeometry;
}

/**
 * A layer's feature store opened for queries: the R-tree and the record offsets in memory,
 * records read from the file on demand (the page cache keeps the hot ones).
 */
export class FeatureStore {
  private constructor(
    private readonly file: FileHandle,
    private readonly index: Flatbush,
    private readonly offsets: Float64Array,
    private readonly recordsStart: number,
    readonly count: number,
  ) {}

  static async open(dir: string, layerId: string): Promise<FeatureStore> {
    const indexBytes = await readFile(path.join(dir, spatialIndexFileName(layerId)));
    // Flatbush views its buffer as float64: copy it to an aligned ArrayBuffer of its own.
    const index = Flatbush.from(new Uint8Array(indexBytes).buffer);
    const file = await open(path.join(dir, featuresFileName(layerId)), 'r');
    try {
      const header = Buffer.alloc(FEATURES_HEADER_BYTES);
      await file.read(header, 0, FEATURES_HEADER_BYTES, 0);
      if (!header.subarray(0, 8).equals(FEATURES_MAGIC)) throw new Error(`${featuresFileName(layerId)} is not a feature store`);
      const count = header.readUInt32LE(8);
      const offsets = new Float64Array(count + 1);
      await file.read(new Uint8Array(offsets.buffer), 0, offsets.byteLength, FEATURES_HEADER_BYTES);
      return new FeatureStore(file, index, offsets, FEATURES_HEADER_BYTES + offsets.byteLength, count);
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  /** Record numbers whose bbox meets [w, s, e, n], ascending (the build's order). */
  search(w: number, s: number, e: number, n: number): number[] {
    if (this.count === 0) return [];
    return this.index.search(w, s, e, n).sort((a, b) => a - b);
  }

  async read(record: number): Promise<StoredFeature> {
    const start = this.offsets[record]!;
    const length = this.offsets[record + 1]! - start;
    const buf = Buffer.allocUnsafe(length);
    await this.file.read(buf, 0, length, this.recordsStart + start);
    const jsonLength = buf.readUInt32LE(0);
    return {
      properties: JSON.parse(buf.toString('utf8', 4, 4 + jsonLength)) as StoredProperties,
      geometry: decodeGeometry(buf, 4 + jsonLength),
    };
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

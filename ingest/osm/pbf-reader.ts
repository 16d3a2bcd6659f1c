/**
 * Streaming OSM PBF reader: one blob at a time through a FileHandle (never the whole file in
 * memory), zlib through node:zlib on the thread pool while the previous block is decoded.
 * Nodes (plain and DenseNodes), ways and relations are delivered to their handlers; a kind
 * without a handler is not decoded (relations are still counted).
 */
import { open } from 'node:fs/promises';
import { InvalidInputError } from '../errors.ts';
import { SORTED_FEATURE, SUPPORTED_REQUIRED_FEATURES } from './format.ts';
import { loadBlob, type LoadedBlob } from './pbf-blob.ts';
import { decodeHeaderBlock, type OsmFileHeader } from './pbf-header-block.ts';
import { guard } from './pbf-message.ts';
import { decodePrimitiveBlock, type OsmHandlers } from './pbf-primitive-block.ts';

export interface OsmReadOptions {
  onProgress?(bytesRead: number, totalBytes: number): void;
}

export interface OsmReadSummary {
  header: OsmFileHeader;
  blobs: number;
  /** Nodes and ways decoded (only kinds with a handler are decoded). */
  nodes: number;
  ways: number;
  /** Relations seen (decoded only with a relation handler). */
  relations: number;
  bytesRead: number;
  totalBytes: number;
  /** True when a file sorted by type let the reader stop before its end (no way or relation handler). */
  stoppedEarly: boolean;
}

/** Reads an OSM PBF file, calling the handlers for every node, way and relation in file order. */
export async function readOsm(path: string, handlers: OsmHandlers, options: OsmReadOptions = {}): Promise<OsmReadSummary> {
  const fh = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ENOENT' ? new InvalidInputError(`OSM PBF file not found: ${path}`) : err;
  });
  try {
    const totalBytes = (await fh.stat()).size;
    if (totalBytes === 0) throw new InvalidInputError(`not an OSM PBF file: ${path} is empty`);
    const first = await loadBlob(fh, 0, totalBytes, path);
    if (!first || first.type !== 'OSMHeader') {
      throw new InvalidInputError(`not an OSM PBF file: ${path} does not start with an OSMHeader blob`);
    }
    const header = guard(first.offset, path, () => decodeHeaderBlock(first.data));
    const unsupported = header.requiredFeatures.filter((f) => !SUPPORTED_REQUIRED_FEATURES.includes(f));
    if (unsupported.length > 0) {
      throw new InvalidInputError(
        `OSM PBF file ${path} requires unsupported feature(s) ${unsupported.map((f) => `"${f}"`).join(', ')} ` +
          `(supported: ${SUPPORTED_REQUIRED_FEATURES.join(', ')})`,
      );
    }
    const sorted = header.optionalFeatures.includes(SORTED_FEATURE);
    const summary: OsmReadSummary = { header, blobs: 1, nodes: 0, ways: 0, relations: 0, bytesRead: first.next, totalBytes, stoppedEarly: false };
    options.onProgress?.(first.next, totalBytes);

    // Read and inflate blob k+1 while blob k is decoded.
    let pending: Promise<LoadedBlob | null> = loadBlob(fh, first.next, totalBytes, path);
    try {
      for (;;) {
        const blob = await pending;
        if (!blob) break;
        pending = loadBlob(fh, blob.next, totalBytes, path);
        summary.blobs++;
        summary.bytesRead = blob.next;
        if (blob.type === 'OSMData') {
          const block = guard(blob.offset, path, () => decodePrimitiveBlock(blob.data, handlers));
          summary.relations += block.relationCount;
          summary.nodes += block.nodes.length;
          summary.ways += block.ways.length;
          if (handlers.node) for (const n of block.nodes) handlers.node(n);
          if (handlers.way) for (const w of block.ways) handlers.way(w);
          if (handlers.relation) for (const r of block.relations) handlers.relation(r);
          // Only nodes wanted: in a file sorted by type, nothing after the first way or relation matters.
          if (sorted && !handlers.way && !handlers.relation && (block.sawWays || block.relationCount > 0)) {
            summary.stoppedEarly = blob.next < totalBytes;
            break;
          }
        } else if (blob.type === 'OSMHeader') {
          throw new InvalidInputError(`OSM PBF file ${path} has a second OSMHeader blob at offset ${blob.offset}`);
        }
        // Other blob types are skipped, as the format asks of readers.
        options.onProgress?.(blob.next, totalBytes);
      }
    } finally {
      // let an in-flight read finish before the handle closes
      await pending.catch(() => undefined);
    }
    return summary;
  } finally {
    await fh.close();
  }
}

/**
 * Streaming OSM PBF reader: one blob at a time through a FileHandle (never the whole file in
 * memory), zlib through node:zlib on the thread pool while the previous block is decoded.
 * Nodes (plain and DenseNodes) and ways are delivered; relations are counted and skipped.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { PbfReader } from 'pbf';
import { InvalidInputError } from '../../errors.ts';
import {
  BLOB,
  BLOB_HEADER,
  DEFAULT_GRANULARITY,
  DENSE_NODES,
  HEADER_BBOX,
  HEADER_BLOCK,
  MAX_BLOB_BYTES,
  MAX_BLOB_HEADER_BYTES,
  NODE,
  PRIMITIVE_BLOCK,
  PRIMITIVE_GROUP,
  SORTED_FEATURE,
  STRING_TABLE,
  SUPPORTED_REQUIRED_FEATURES,
  WAY,
} from './format.ts';

const inflateAsync = promisify(inflate);

export type OsmTags = Readonly<Record<string, string>>;

export interface OsmNode {
  id: number;
  lng: number;
  lat: number;
  /** Untagged nodes all share one frozen empty object. */
  tags: OsmTags;
}

export interface OsmWay {
  id: number;
  refs: number[];
  tags: OsmTags;
}

export interface OsmHandlers {
  node?(node: OsmNode): void;
  way?(way: OsmWay): void;
}

export interface OsmReadOptions {
  onProgress?(bytesRead: number, totalBytes: number): void;
}

export interface OsmFileHeader {
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram: string | null;
  source: string | null;
  /** [minLng, minLat, maxLng, maxLat] when the header has one. */
  bbox: [number, number, number, number] | null;
  /** Seconds since the epoch (osmosis_replication_timestamp), null when absent. */
  replicationTimestamp: number | null;
}

export interface OsmReadSummary {
  header: OsmFileHeader;
  blobs: number;
  /** Nodes and ways decoded (only kinds with a handler are decoded). */
  nodes: number;
  ways: number;
  /** Relations seen (counted, not decoded). */
  relations: number;
  bytesRead: number;
  totalBytes: number;
  /** True when a file sorted by type let the reader stop before its end (no way handler). */
  stoppedEarly: boolean;
}

const NO_TAGS: OsmTags = Object.freeze({});

/** Reads an OSM PBF file, calling the handlers for every node and way in file order. */
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
          summary.relations += block.relations;
          summary.nodes += block.nodes.length;
          summary.ways += block.ways.length;
          if (handlers.node) for (const n of block.nodes) handlers.node(n);
          if (handlers.way) for (const w of block.ways) handlers.way(w);
          if (sorted && !handlers.way && (block.sawWays || block.relations > 0)) {
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

interface LoadedBlob {
  type: string;
  /** File offset of the blob's length prefix, for messages. */
  offset: number;
  /** File offset of the next blob. */
  next: number;
  /** Decompressed block bytes. */
  data: Uint8Array;
}

async function loadBlob(fh: FileHandle, offset: number, totalBytes: number, path: string): Promise<LoadedBlob | null> {
  if (offset >= totalBytes) return null;
  const prefix = await readExactly(fh, offset, 4, path);
  const headerLength = prefix.readUInt32BE(0);
  if (headerLength === 0 || headerLength > MAX_BLOB_HEADER_BYTES) {
    throw new InvalidInputError(
      offset === 0
        ? `not an OSM PBF file: ${path} (first 4 bytes give a blob header length of ${headerLength})`
        : `corrupt OSM PBF file ${path}: blob header length ${headerLength} at offset ${offset}`,
    );
  }
  const headerBytes = await readExactly(fh, offset + 4, headerLength, path);
  const header = guard(offset, path, () => decodeBlobHeader(headerBytes));
  if (offset === 0 && header.type !== 'OSMHeader') {
    throw new InvalidInputError(`not an OSM PBF file: ${path} does not start with an OSMHeader blob`);
  }
  if (header.datasize <= 0 || header.datasize > MAX_BLOB_BYTES) {
    throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob size ${header.datasize} at offset ${offset} (at most ${MAX_BLOB_BYTES})`);
  }
  const blobStart = offset + 4 + headerLength;
  const blobBytes = await readExactly(fh, blobStart, header.datasize, path);
  const data = await decompressBlob(blobBytes, offset, path);
  return { type: header.type, offset, next: blobStart + header.datasize, data };
}

async function readExactly(fh: FileHandle, position: number, length: number, path: string): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, position + got);
    if (bytesRead === 0) {
      throw new InvalidInputError(`truncated OSM PBF file ${path}: wanted ${length} bytes at offset ${position}, file ends after ${got}`);
    }
    got += bytesRead;
  }
  return buf;
}

function decodeBlobHeader(buf: Uint8Array): { type: string; datasize: number } {
  const pbf = new PbfReader(buf);
  let type = '';
  let datasize = -1;
  let tag: number;
  while ((tag = pbf.nextField())) {
    if (tag === BLOB_HEADER.type) type = pbf.readString();
    else if (tag === BLOB_HEADER.datasize) datasize = pbf.readVarint(true);
  }
  expectEnd(pbf, buf.length);
  if (!type) throw new Error('blob header without a type');
  return { type, datasize };
}

const COMPRESSIONS: Record<number, string> = {
  [BLOB.lzmaData]: 'lzma',
  [BLOB.bzip2Data]: 'bzip2',
  [BLOB.lz4Data]: 'lz4',
  [BLOB.zstdData]: 'zstd',
};

async function decompressBlob(buf: Uint8Array, offset: number, path: string): Promise<Uint8Array> {
  let raw: Uint8Array | null = null;
  let zlib: Uint8Array | null = null;
  let rawSize = -1;
  let other: string | null = null;
  guard(offset, path, () => {
    const pbf = new PbfReader(buf);
    let tag: number;
    while ((tag = pbf.nextField())) {
      if (tag === BLOB.raw) raw = pbf.readBytes();
      else if (tag === BLOB.rawSize) rawSize = pbf.readVarint(true);
      else if (tag === BLOB.zlibData) zlib = pbf.readBytes();
      else if (COMPRESSIONS[tag]) other = COMPRESSIONS[tag]!;
    }
    expectEnd(pbf, buf.length);
  });
  if (raw) return raw;
  if (zlib) {
    if (rawSize > MAX_BLOB_BYTES) {
      throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset} claims ${rawSize} bytes uncompressed (at most ${MAX_BLOB_BYTES})`);
    }
    let out: Buffer;
    try {
      out = await inflateAsync(zlib, { maxOutputLength: MAX_BLOB_BYTES });
    } catch (err) {
      throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset} does not inflate (${(err as Error).message})`);
    }
    if (rawSize >= 0 && out.length !== rawSize) {
      throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset} inflates to ${out.length} bytes, its header says ${rawSize}`);
    }
    return out;
  }
  if (other) {
    throw new InvalidInputError(
      `OSM PBF file ${path}: blob at offset ${offset} uses ${other} compression, which is not supported (only uncompressed and zlib blobs); ` +
        're-encode the file with zlib (for example `osmium cat -f pbf,pbf_compression=zlib`)',
    );
  }
  throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset} has no data`);
}

function decodeHeaderBlock(buf: Uint8Array): OsmFileHeader {
  const pbf = new PbfReader(buf);
  const header: OsmFileHeader = { requiredFeatures: [], optionalFeatures: [], writingProgram: null, source: null, bbox: null, replicationTimestamp: null };
  let tag: number;
  while ((tag = pbf.nextField())) {
    switch (tag) {
      case HEADER_BLOCK.bbox: {
        const end = pbf.readVarint() + pbf.pos;
        const nano = [0, 0, 0, 0];
        let t: number;
        while ((t = pbf.nextField(end))) {
          if (t === HEADER_BBOX.left) nano[0] = pbf.readSVarint();
          else if (t === HEADER_BBOX.bottom) nano[1] = pbf.readSVarint();
          else if (t === HEADER_BBOX.right) nano[2] = pbf.readSVarint();
          else if (t === HEADER_BBOX.top) nano[3] = pbf.readSVarint();
        }
        expectEnd(pbf, end);
        header.bbox = [nano[0]! / 1e9, nano[1]! / 1e9, nano[2]! / 1e9, nano[3]! / 1e9];
        break;
      }
      case HEADER_BLOCK.requiredFeatures:
        header.requiredFeatures.push(pbf.readString());
        break;
      case HEADER_BLOCK.optionalFeatures:
        header.optionalFeatures.push(pbf.readString());
        break;
      case HEADER_BLOCK.writingProgram:
        header.writingProgram = pbf.readString();
        break;
      case HEADER_BLOCK.source:
        header.source = pbf.readString();
        break;
      case HEADER_BLOCK.replicationTimestamp:
        header.replicationTimestamp = pbf.readVarint(true);
        break;
    }
  }
  expectEnd(pbf, buf.length);
  return header;
}

interface DecodedBlock {
  nodes: OsmNode[];
  ways: OsmWay[];
  relations: number;
  sawWays: boolean;
}

interface BlockContext {
  strings: string[];
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

function decodePrimitiveBlock(buf: Uint8Array, handlers: OsmHandlers): DecodedBlock {
  const pbf = new PbfReader(buf);
  const ctx: BlockContext = { strings: [], granularity: DEFAULT_GRANULARITY, latOffset: 0, lonOffset: 0 };
  // Groups may precede granularity and offsets in the message: note where they are first.
  const groups: Array<[number, number]> = [];
  let tag: number;
  while ((tag = pbf.nextField())) {
    switch (tag) {
      case PRIMITIVE_BLOCK.stringTable: {
        const end = pbf.readVarint() + pbf.pos;
        let t: number;
        while ((t = pbf.nextField(end))) if (t === STRING_TABLE.s) ctx.strings.push(pbf.readString());
        expectEnd(pbf, end);
        break;
      }
      case PRIMITIVE_BLOCK.group: {
        const end = pbf.readVarint() + pbf.pos;
        groups.push([pbf.pos, end]);
        pbf.pos = end;
        break;
      }
      case PRIMITIVE_BLOCK.granularity:
        ctx.granularity = pbf.readVarint(true);
        break;
      case PRIMITIVE_BLOCK.latOffset:
        ctx.latOffset = pbf.readVarint(true);
        break;
      case PRIMITIVE_BLOCK.lonOffset:
        ctx.lonOffset = pbf.readVarint(true);
        break;
    }
  }
  expectEnd(pbf, buf.length);

  const out: DecodedBlock = { nodes: [], ways: [], relations: 0, sawWays: false };
  for (const [start, end] of groups) {
    pbf.pos = start;
    while ((tag = pbf.nextField(end))) {
      switch (tag) {
        case PRIMITIVE_GROUP.nodes:
          if (handlers.node) out.nodes.push(readNode(pbf, ctx));
          break;
        case PRIMITIVE_GROUP.dense:
          if (handlers.node) readDenseNodes(pbf, ctx, out.nodes);
          break;
        case PRIMITIVE_GROUP.ways:
          out.sawWays = true;
          if (handlers.way) out.ways.push(readWay(pbf, ctx));
          break;
        case PRIMITIVE_GROUP.relations:
          out.relations++;
          break;
      }
    }
    expectEnd(pbf, end);
  }
  return out;
}

function readNode(pbf: PbfReader, ctx: BlockContext): OsmNode {
  const end = pbf.readVarint() + pbf.pos;
  let id = 0;
  let lat = 0;
  let lon = 0;
  const keys: number[] = [];
  const vals: number[] = [];
  let tag: number;
  while ((tag = pbf.nextField(end))) {
    if (tag === NODE.id) id = pbf.readSVarint();
    else if (tag === NODE.keys) pbf.readPackedVarint(keys);
    else if (tag === NODE.vals) pbf.readPackedVarint(vals);
    else if (tag === NODE.lat) lat = pbf.readSVarint();
    else if (tag === NODE.lon) lon = pbf.readSVarint();
  }
  expectEnd(pbf, end);
  return {
    id,
    lng: (ctx.lonOffset + ctx.granularity * lon) / 1e9,
    lat: (ctx.latOffset + ctx.granularity * lat) / 1e9,
    tags: tagsOf(keys, vals, ctx.strings),
  };
}

function readDenseNodes(pbf: PbfReader, ctx: BlockContext, out: OsmNode[]): void {
  const end = pbf.readVarint() + pbf.pos;
  const ids: number[] = [];
  const lats: number[] = [];
  const lons: number[] = [];
  const kv: number[] = [];
  let tag: number;
  while ((tag = pbf.nextField(end))) {
    if (tag === DENSE_NODES.id) pbf.readPackedSVarint(ids);
    else if (tag === DENSE_NODES.lat) pbf.readPackedSVarint(lats);
    else if (tag === DENSE_NODES.lon) pbf.readPackedSVarint(lons);
    else if (tag === DENSE_NODES.keysVals) pbf.readPackedVarint(kv);
  }
  expectEnd(pbf, end);
  if (lats.length !== ids.length || lons.length !== ids.length) {
    throw new Error(`dense nodes with ${ids.length} ids, ${lats.length} lats, ${lons.length} lons`);
  }
  const { strings, granularity, latOffset, lonOffset } = ctx;
  let id = 0;
  let lat = 0;
  let lon = 0;
  let k = 0;
  for (let i = 0; i < ids.length; i++) {
    id += ids[i]!;
    lat += lats[i]!;
    lon += lons[i]!;
    let tags = NO_TAGS;
    // keys_vals: per node, key/value string indexes then a 0; empty when no node has tags
    if (k < kv.length && kv[k] !== 0) {
      const t: Record<string, string> = {};
      while (k < kv.length && kv[k] !== 0) {
        const key = strings[kv[k]!];
        const value = strings[kv[k + 1]!];
        if (key === undefined || value === undefined) throw new Error(`string index out of range in node ${id}`);
        t[key] = value;
        k += 2;
      }
      tags = t;
    }
    k++;
    out.push({ id, lng: (lonOffset + granularity * lon) / 1e9, lat: (latOffset + granularity * lat) / 1e9, tags });
  }
}

function readWay(pbf: PbfReader, ctx: BlockContext): OsmWay {
  const end = pbf.readVarint() + pbf.pos;
  let id = 0;
  const keys: number[] = [];
  const vals: number[] = [];
  const refs: number[] = [];
  let tag: number;
  while ((tag = pbf.nextField(end))) {
    if (tag === WAY.id) id = pbf.readVarint(true);
    else if (tag === WAY.keys) pbf.readPackedVarint(keys);
    else if (tag === WAY.vals) pbf.readPackedVarint(vals);
    else if (tag === WAY.refs) pbf.readPackedSVarint(refs);
  }
  expectEnd(pbf, end);
  for (let i = 1; i < refs.length; i++) refs[i]! += refs[i - 1]!;
  return { id, refs, tags: tagsOf(keys, vals, ctx.strings) };
}

function tagsOf(keys: number[], vals: number[], strings: string[]): OsmTags {
  if (keys.length === 0) return NO_TAGS;
  if (keys.length !== vals.length) throw new Error(`${keys.length} tag keys but ${vals.length} values`);
  const tags: Record<string, string> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = strings[keys[i]!];
    const value = strings[vals[i]!];
    if (key === undefined || value === undefined) throw new Error('string index out of range');
    tags[key] = value;
  }
  return tags;
}

function expectEnd(pbf: PbfReader, end: number): void {
  if (pbf.pos !== end) throw new Error(`message overruns its length (at ${pbf.pos}, expected end ${end})`);
}

/** Runs a decoder; any error it throws means the bytes are not what the format says. */
function guard<T>(offset: number, path: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof InvalidInputError) throw err;
    throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset}: ${(err as Error).message}`);
  }
}

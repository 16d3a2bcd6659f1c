/**
 * A minimal streaming OSM PBF writer: an OSMHeader blob, then OSMData blobs of at most
 * `blockSize` entities (DenseNodes for nodes, plain ways), zlib-compressed, written with
 * synchronous appends so memory stays at one block whatever the entity count.
 * Used by tests, the demo sample and the national benchmark generator.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PbfWriter } from 'pbf';
import {
  BLOB,
  BLOB_HEADER,
  DENSE_NODES,
  HEADER_BBOX,
  HEADER_BLOCK,
  PRIMITIVE_BLOCK,
  PRIMITIVE_GROUP,
  SORTED_FEATURE,
  STRING_TABLE,
  SUPPORTED_REQUIRED_FEATURES,
  WAY,
  RELATION,
  MEMBER_TYPES,
} from '../../ingest/osm/format.ts';

export interface OsmWriteNode {
  id: number;
  lng: number;
  lat: number;
  tags?: Readonly<Record<string, string>>;
}

export interface OsmWriteWay {
  id: number;
  refs: readonly number[];
  tags?: Readonly<Record<string, string>>;
}

export interface OsmWriteRelation {
  id: number;
  members: readonly { type: 'node' | 'way' | 'relation'; ref: number; role: string }[];
  tags?: Readonly<Record<string, string>>;
}

export interface OsmWriterOptions {
  /** Entities per block (default 8000). */
  blockSize?: number;
  /** zlib blobs (default) or raw ones. */
  compress?: boolean;
  writingProgram?: string;
  /** [minLng, minLat, maxLng, maxLat] for the header. */
  bbox?: readonly [number, number, number, number];
  /**
   * Declare Sort.Type_then_ID: the writer then insists on nodes before ways, each by
   * ascending id, and throws on the first entity out of order.
   */
  sorted?: boolean;
}

export interface OsmWriteSummary {
  nodes: number;
  ways: number;
  relations: number;
  blobs: number;
  bytes: number;
}

const E7 = 1e7;

export class OsmPbfWriter {
  private readonly fd: number;
  private readonly blockSize: number;
  private readonly compress: boolean;
  private readonly sorted: boolean;
  private nodes: OsmWriteNode[] = [];
  private ways: OsmWriteWay[] = [];
  private relations: OsmWriteRelation[] = [];
  private lastNodeId = -Infinity;
  private lastWayId = -Infinity;
  private lastRelationId = -Infinity;
  private closed = false;
  private readonly summary: OsmWriteSummary = { nodes: 0, ways: 0, relations: 0, blobs: 0, bytes: 0 };

  constructor(path: string, options: OsmWriterOptions = {}) {
    this.blockSize = options.blockSize ?? 8000;
    this.compress = options.compress ?? true;
    this.sorted = options.sorted ?? false;
    this.fd = openSync(path, 'w');
    try {
      this.writeBlob('OSMHeader', encodeHeader(options));
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
  }

  node(n: OsmWriteNode): void {
    this.assertOpen();
    if (this.sorted) {
      if (this.summary.ways > 0 || this.ways.length > 0) throw new Error(`sorted OSM file: node ${n.id} after ways`);
      if (n.id <= this.lastNodeId) throw new Error(`sorted OSM file: node ${n.id} after node ${this.lastNodeId}`);
      this.lastNodeId = n.id;
    }
    if (!Number.isFinite(n.lng) || !Number.isFinite(n.lat) || Math.abs(n.lng) > 180 || Math.abs(n.lat) > 90) {
      throw new Error(`node ${n.id} has invalid coordinates ${n.lng},${n.lat}`);
    }
    checkTags('node', n.id, n.tags);
    if (this.ways.length > 0) this.flushWays();
    this.nodes.push(n);
    if (this.nodes.length >= this.blockSize) this.flushNodes();
  }

  way(w: OsmWriteWay): void {
    this.assertOpen();
    if (this.sorted) {
      if (this.summary.relations > 0 || this.relations.length > 0) throw new Error(`sorted OSM file: way ${w.id} after relations`);
      if (w.id <= this.lastWayId) throw new Error(`sorted OSM file: way ${w.id} after way ${this.lastWayId}`);
      this.lastWayId = w.id;
    }
    checkTags('way', w.id, w.tags);
    if (this.nodes.length > 0) this.flushNodes();
    this.ways.push(w);
    if (this.ways.length >= this.blockSize) this.flushWays();
  }

  relation(r: OsmWriteRelation): void {
    this.assertOpen();
    if (this.sorted) {
      if (r.id <= this.lastRelationId) throw new Error(`sorted OSM file: relation ${r.id} after relation ${this.lastRelationId}`);
      this.lastRelationId = r.id;
    }
    checkTags('relation', r.id, r.tags);
    if (this.nodes.length > 0) this.flushNodes();
    if (this.ways.length > 0) this.flushWays();
    this.relations.push(r);
    if (this.relations.length >= this.blockSize) this.flushRelations();
  }

  close(): OsmWriteSummary {
    if (this.closed) return this.summary;
    try {
      if (this.nodes.length > 0) this.flushNodes();
      if (this.ways.length > 0) this.flushWays();
      if (this.relations.length > 0) this.flushRelations();
    } finally {
      this.closed = true;
      closeSync(this.fd);
    }
    return this.summary;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('OSM PBF writer is closed');
  }

  private flushNodes(): void {
    const nodes = this.nodes;
    this.nodes = [];
    const strings = new StringTable();
    const ids: number[] = [];
    const lats: number[] = [];
    const lons: number[] = [];
    const kv: number[] = [];
    let anyTags = false;
    let pid = 0;
    let plat = 0;
    let plon = 0;
    for (const n of nodes) {
      const lat = Math.round(n.lat * E7);
      const lon = Math.round(n.lng * E7);
      ids.push(n.id - pid);
      lats.push(lat - plat);
      lons.push(lon - plon);
      pid = n.id;
      plat = lat;
      plon = lon;
      if (n.tags) {
        for (const key in n.tags) {
          kv.push(strings.index(key), strings.index(n.tags[key]!));
          anyTags = true;
        }
      }
      kv.push(0);
    }
    const group = (pbf: PbfWriter) =>
      pbf.writeMessage(PRIMITIVE_GROUP.dense, (_: null, p: PbfWriter) => {
        p.writePackedSVarint(DENSE_NODES.id, ids);
        p.writePackedSVarint(DENSE_NODES.lat, lats);
        p.writePackedSVarint(DENSE_NODES.lon, lons);
        if (anyTags) p.writePackedVarint(DENSE_NODES.keysVals, kv);
      }, null);
    this.writeBlob('OSMData', encodeBlock(strings, group));
    this.summary.nodes += nodes.length;
  }

  private flushWays(): void {
    const ways = this.ways;
    this.ways = [];
    const strings = new StringTable();
    const group = (pbf: PbfWriter) => {
      for (const w of ways) {
        pbf.writeMessage(PRIMITIVE_GROUP.ways, (_: null, p: PbfWriter) => {
          p.writeVarintField(WAY.id, w.id);
          if (w.tags) {
            const keys: number[] = [];
            const vals: number[] = [];
            for (const key in w.tags) {
              keys.push(strings.index(key));
              vals.push(strings.index(w.tags[key]!));
            }
            p.writePackedVarint(WAY.keys, keys);
            p.writePackedVarint(WAY.vals, vals);
          }
          const deltas: number[] = [];
          let prev = 0;
          for (const r of w.refs) {
            deltas.push(r - prev);
            prev = r;
          }
          p.writePackedSVarint(WAY.refs, deltas);
        }, null);
      }
    };
    this.writeBlob('OSMData', encodeBlock(strings, group));
    this.summary.ways += ways.length;
  }

  private flushRelations(): void {
    const relations = this.relations;
    this.relations = [];
    const strings = new StringTable();
    const group = (pbf: PbfWriter) => {
      for (const r of relations) {
        pbf.writeMessage(PRIMITIVE_GROUP.relations, (_: null, p: PbfWriter) => {
          p.writeVarintField(RELATION.id, r.id);
          if (r.tags) {
            p.writePackedVarint(RELATION.keys, Object.keys(r.tags).map((k) => strings.index(k)));
            p.writePackedVarint(RELATION.vals, Object.values(r.tags).map((v) => strings.index(v)));
          }
          p.writePackedVarint(RELATION.rolesSid, r.members.map((m) => strings.index(m.role)));
          let prev = 0;
          p.writePackedSVarint(RELATION.memids, r.members.map((m) => {
            const delta = m.ref - prev;
            prev = m.ref;
            return delta;
          }));
          p.writePackedVarint(RELATION.types, r.members.map((m) => MEMBER_TYPES.indexOf(m.type)));
        }, null);
      }
    };
    this.writeBlob('OSMData', encodeBlock(strings, group));
    this.summary.relations += relations.length;
  }

  private writeBlob(type: string, raw: Uint8Array): void {
    const blob = new PbfWriter();
    if (this.compress) {
      blob.writeVarintField(BLOB.rawSize, raw.length);
      blob.writeBytesField(BLOB.zlibData, deflateSync(raw));
    } else {
      blob.writeBytesField(BLOB.raw, raw);
    }
    const blobBytes = blob.finish();
    const header = new PbfWriter();
    header.writeStringField(BLOB_HEADER.type, type);
    header.writeVarintField(BLOB_HEADER.datasize, blobBytes.length);
    const headerBytes = header.finish();
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(headerBytes.length, 0);
    for (const chunk of [prefix, headerBytes, blobBytes]) {
      let off = 0;
      while (off < chunk.length) off += writeSync(this.fd, chunk, off, chunk.length - off);
      this.summary.bytes += chunk.length;
    }
    this.summary.blobs++;
  }
}

function checkTags(kind: string, id: number, tags: Readonly<Record<string, string>> | undefined): void {
  if (tags && '' in tags) throw new Error(`${kind} ${id} has a tag with an empty key`);
}

class StringTable {
  private readonly map = new Map<string, number>([['', 0]]);
  readonly list: string[] = [''];

  index(s: string): number {
    let i = this.map.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.map.set(s, i);
    }
    return i;
  }
}

function encodeBlock(strings: StringTable, writeGroup: (pbf: PbfWriter) => void): Uint8Array {
  // The group is encoded first so that the string table is complete when it is written.
  const group = new PbfWriter();
  writeGroup(group);
  const groupBytes = group.finish();
  const pbf = new PbfWriter();
  pbf.writeMessage(PRIMITIVE_BLOCK.stringTable, (_: null, p: PbfWriter) => {
    for (const s of strings.list) p.writeStringField(STRING_TABLE.s, s);
  }, null);
  pbf.writeBytesField(PRIMITIVE_BLOCK.group, groupBytes);
  return pbf.finish();
}

function encodeHeader(options: OsmWriterOptions): Uint8Array {
  const pbf = new PbfWriter();
  if (options.bbox) {
    const [minLng, minLat, maxLng, maxLat] = options.bbox;
    pbf.writeMessage(HEADER_BLOCK.bbox, (_: null, p: PbfWriter) => {
      p.writeSVarintField(HEADER_BBOX.left, Math.round(minLng * 1e9));
      p.writeSVarintField(HEADER_BBOX.right, Math.round(maxLng * 1e9));
      p.writeSVarintField(HEADER_BBOX.top, Math.round(maxLat * 1e9));
      p.writeSVarintField(HEADER_BBOX.bottom, Math.round(minLat * 1e9));
    }, null);
  }
  for (const f of SUPPORTED_REQUIRED_FEATURES) pbf.writeStringField(HEADER_BLOCK.requiredFeatures, f);
  if (options.sorted) pbf.writeStringField(HEADER_BLOCK.optionalFeatures, SORTED_FEATURE);
  pbf.writeStringField(HEADER_BLOCK.writingProgram, options.writingProgram ?? 'canmap');
  return pbf.finish();
}

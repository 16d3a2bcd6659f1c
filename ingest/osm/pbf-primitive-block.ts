/**
 * Decoding of OSMData primitive blocks: the string table, then the nodes (plain and DenseNodes),
 * ways and relations of each primitive group. Only kinds with a handler are decoded; relations
 * are always counted.
 */
import { PbfReader } from 'pbf';
import { DEFAULT_GRANULARITY, DENSE_NODES, MEMBER_TYPES, NODE, PRIMITIVE_BLOCK, PRIMITIVE_GROUP, RELATION, STRING_TABLE, WAY } from './format.ts';
import { expectEnd } from './pbf-message.ts';

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

export type OsmMemberType = (typeof MEMBER_TYPES)[number];

export interface OsmMember {
  type: OsmMemberType;
  ref: number;
  role: string;
}

export interface OsmRelation {
  id: number;
  tags: OsmTags;
  members: OsmMember[];
}

export interface OsmHandlers {
  node?(node: OsmNode): void;
  way?(way: OsmWay): void;
  relation?(relation: OsmRelation): void;
}

export const NO_TAGS: OsmTags = Object.freeze({});

export interface DecodedBlock {
  nodes: OsmNode[];
  ways: OsmWay[];
  relations: OsmRelation[];
  /** Relations in the block, decoded or not. */
  relationCount: number;
  sawWays: boolean;
}

interface BlockContext {
  strings: string[];
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

export function decodePrimitiveBlock(buf: Uint8Array, handlers: OsmHandlers): DecodedBlock {
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

  const out: DecodedBlock = { nodes: [], ways: [], relations: [], relationCount: 0, sawWays: false };
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
          out.relationCount++;
          if (handlers.relation) out.relations.push(readRelation(pbf, ctx));
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

function readRelation(pbf: PbfReader, ctx: BlockContext): OsmRelation {
  const end = pbf.readVarint() + pbf.pos;
  let id = 0;
  const keys: number[] = [];
  const vals: number[] = [];
  const roles: number[] = [];
  const memids: number[] = [];
  const types: number[] = [];
  let tag: number;
  while ((tag = pbf.nextField(end))) {
    if (tag === RELATION.id) id = pbf.readVarint(true);
    else if (tag === RELATION.keys) pbf.readPackedVarint(keys);
    else if (tag === RELATION.vals) pbf.readPackedVarint(vals);
    else if (tag === RELATION.rolesSid) pbf.readPackedVarint(roles, true);
    else if (tag === RELATION.memids) pbf.readPackedSVarint(memids);
    else if (tag === RELATION.types) pbf.readPackedVarint(types);
  }
  expectEnd(pbf, end);
  if (roles.length !== memids.length || types.length !== memids.length) {
    throw new Error(`relation ${id} with ${memids.length} member ids, ${roles.length} roles, ${types.length} types`);
  }
  const members: OsmMember[] = new Array(memids.length);
  let ref = 0;
  for (let i = 0; i < memids.length; i++) {
    ref += memids[i]!;
    const type = MEMBER_TYPES[types[i]!];
    const role = ctx.strings[roles[i]!];
    if (type === undefined) throw new Error(`relation ${id} has a member of unknown type ${types[i]}`);
    if (role === undefined) throw new Error(`string index out of range in relation ${id}`);
    members[i] = { type, ref, role };
  }
  return { id, tags: tagsOf(keys, vals, ctx.strings), members };
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

/**
 * Relation decoding of the shared OSM PBF reader.
 * Real data: ../shared/data/osm/pelias-vancouver_canada.osm.pbf (Vancouver, 2015; pelias/openstreetmap
 * test fixture, data © OpenStreetMap contributors, ODbL — see ../shared/data/SOURCES.md).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PbfWriter } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '../support/paths.ts';
import type { OsmRelation } from '../../ingest/osm/pbf-primitive-block.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';

const VANCOUVER = sharedData('osm', 'pelias-vancouver_canada.osm.pbf');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-osm-relations-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readOsm relations on the Vancouver extract', () => {
  const relations = new Map<number, OsmRelation>();
  let summary: Awaited<ReturnType<typeof readOsm>>;
  let nodes = 0;

  beforeAll(async () => {
    // nodes and relations but no ways: the reader must go past the way blocks to the relations
    summary = await readOsm(VANCOUVER, { node: () => nodes++, relation: (r) => relations.set(r.id, r) });
  });

  it('reads every relation to the end of a file sorted by type', () => {
    expect(summary.stoppedEarly).toBe(false);
    expect(summary.bytesRead).toBe(summary.totalBytes);
    expect(summary.relations).toBe(672);
    expect(relations.size).toBe(672);
    expect(nodes).toBe(320_720);
    const members = [...relations.values()].flatMap((r) => r.members);
    expect(members.length).toBe(9786);
    expect(members.filter((m) => m.type === 'way').length).toBe(9281);
    expect(members.filter((m) => m.type === 'node').length).toBe(438);
    expect(members.filter((m) => m.type === 'relation').length).toBe(67);
  });

  it('decodes tags, delta-coded member ids, member types and roles', () => {
    const richmond = relations.get(2221097)!;
    expect(richmond.tags).toEqual({ name: 'Richmond', type: 'boundary', boundary: 'administrative', admin_level: '8' });
    expect(richmond.members).toEqual([
      { type: 'way', ref: 166620614, role: 'outer' },
      { type: 'way', ref: 159762660, role: 'outer' },
      { type: 'way', ref: 161030591, role: 'outer' },
      { type: 'way', ref: 95307039, role: 'outer' },
      { type: 'way', ref: 166620612, role: 'outer' },
      { type: 'way', ref: 137484633, role: 'outer' },
      { type: 'node', ref: 52556261, role: 'admin_centre' },
    ]);
    expect(relations.get(1613140)!.members.map((m) => m.role)).toEqual(['inner', 'outer', 'outer', 'outer']);
    // a route master groups route relations, with empty roles
    expect(relations.get(1561159)!.members).toEqual([
      { type: 'relation', ref: 1561158, role: '' },
      { type: 'relation', ref: 1561157, role: '' },
    ]);
  });

  it('only counts relations when no relation handler is given, and still stops early for nodes alone', async () => {
    const ways = await readOsm(VANCOUVER, { way: () => undefined });
    expect(ways.relations).toBe(672);
    const nodesOnly = await readOsm(VANCOUVER, { node: () => undefined });
    expect(nodesOnly.stoppedEarly).toBe(true);
  });
});

describe('readOsm relations on a hand-made block', () => {
  it('decodes negative member-id deltas and 64-bit ids', async () => {
    const file = path.join(dir, 'relation.osm.pbf');
    const strings = ['', 'type', 'multipolygon', 'outer', 'inner', 'label'];
    const block = new PbfWriter();
    block.writeMessage(1, (_: null, p: PbfWriter) => { for (const s of strings) p.writeStringField(1, s); }, null);
    block.writeMessage(2, (_: null, g: PbfWriter) => {
      g.writeMessage(4, (_r: null, r: PbfWriter) => {
        r.writeVarintField(1, 12_000_000_001);
        r.writePackedVarint(2, [1]);
        r.writePackedVarint(3, [2]);
        r.writePackedVarint(8, [3, 4, 5, 0]);
        // ids 500, 200, 12000000000, 7 as deltas
        r.writePackedSVarint(9, [500, -300, 12_000_000_000 - 200, 7 - 12_000_000_000]);
        r.writePackedVarint(10, [1, 1, 0, 2]);
      }, null);
    }, null);
    await writeFile(file, fileWithBlock(block.finish()));
    const got: OsmRelation[] = [];
    const s = await readOsm(file, { relation: (r) => got.push(r) });
    expect(s.relations).toBe(1);
    expect(got).toEqual([{
      id: 12_000_000_001,
      tags: { type: 'multipolygon' },
      members: [
        { type: 'way', ref: 500, role: 'outer' },
        { type: 'way', ref: 200, role: 'inner' },
        { type: 'node', ref: 12_000_000_000, role: 'label' },
        { type: 'relation', ref: 7, role: '' },
      ],
    }]);
  });
});

/** An OSMHeader blob, then one raw (uncompressed) OSMData blob holding `block`. */
function fileWithBlock(block: Uint8Array): Buffer {
  const chunks: Buffer[] = [];
  const pushBlob = (type: string, body: Uint8Array) => {
    const header = new PbfWriter();
    header.writeStringField(1, type);
    header.writeVarintField(3, body.length);
    const h = header.finish();
    const len = Buffer.alloc(4);
    len.writeUInt32BE(h.length);
    chunks.push(len, Buffer.from(h), Buffer.from(body));
  };
  const headerBlock = new PbfWriter();
  for (const f of ['OsmSchema-V0.6', 'DenseNodes']) headerBlock.writeStringField(4, f);
  const headerBlob = new PbfWriter();
  headerBlob.writeBytesField(1, headerBlock.finish());
  pushBlob('OSMHeader', headerBlob.finish());
  const dataBlob = new PbfWriter();
  dataBlob.writeBytesField(1, block);
  pushBlob('OSMData', dataBlob.finish());
  return Buffer.concat(chunks);
}

/**
 * OSM PBF reading, writing and extraction.
 * Real data: ../shared/data/osm/pelias-vancouver_canada.osm.pbf (Vancouver, 2015; pelias/openstreetmap
 * test fixture, data © OpenStreetMap contributors, ODbL — see ../shared/data/SOURCES.md).
 */
import { copyFile, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { PbfWriter } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '../support/paths.ts';
import { InvalidInputError } from '../../ingest/errors.ts';
import { extractOsm, type OsmExtract } from '../../ingest/geocoding/osm/extract.ts';
import { parseHousenumber } from '../../ingest/geocoding/osm/housenumber.ts';
import type { OsmNode, OsmWay } from '../../ingest/osm/pbf-primitive-block.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import { OsmPbfWriter, type OsmWriteNode, type OsmWriteWay } from '../../samples/geocoding/pbf-writer.ts';
import { rejection } from '../support/rejection.ts';

const VANCOUVER = sharedData('osm', 'pelias-vancouver_canada.osm.pbf');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-osm-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readOsm on the Vancouver extract', () => {
  let nodes: Map<number, OsmNode>;
  let ways: Map<number, OsmWay>;
  let summary: Awaited<ReturnType<typeof readOsm>>;

  beforeAll(async () => {
    nodes = new Map();
    ways = new Map();
    summary = await readOsm(VANCOUVER, { node: (n) => nodes.set(n.id, n), way: (w) => ways.set(w.id, w) });
  });

  it('reads the header and every entity', () => {
    expect(summary.header.requiredFeatures).toEqual(['OsmSchema-V0.6', 'DenseNodes']);
    expect(summary.header.optionalFeatures).toContain('Sort.Type_then_ID');
    expect(summary.header.writingProgram).toBe('osmconvert 0.7T');
    // the bbox the data README gives for this file
    expect(summary.header.bbox).toEqual([-123.29, 49.195, -123.02, 49.32]);
    expect(summary.nodes).toBe(320_720);
    expect(summary.ways).toBe(52_072);
    expect(summary.relations).toBe(672);
    expect(nodes.size).toBe(summary.nodes);
    expect(summary.bytesRead).toBe(summary.totalBytes);
    expect(summary.stoppedEarly).toBe(false);
    // "15.7k highway ways" (data README)
    expect([...ways.values()].filter((w) => w.tags.highway !== undefined).length).toBe(15_754);
  });

  it('decodes dense-node coordinates and tags', () => {
    const n = nodes.get(638747933)!;
    expect(n).toMatchObject({ lng: -123.1268559, lat: 49.2765386 });
    expect(n.tags).toMatchObject({ 'addr:housenumber': '1250', 'addr:street': 'Granville Street', 'addr:unit': '2' });
    // every node inside the header bbox
    for (const node of nodes.values()) {
      expect(node.lng >= -123.3 && node.lng <= -123.0 && node.lat >= 49.19 && node.lat <= 49.33).toBe(true);
    }
  });

  it('decodes ways with delta-coded refs that point at nodes of the file', () => {
    const w = ways.get(37084312)!;
    expect(w.tags).toMatchObject({ name: 'TELUS World of Science', alt_name: 'Science World' });
    expect(w.refs.length).toBeGreaterThan(3);
    expect(w.refs[0]).toBe(w.refs[w.refs.length - 1]);
    let missing = 0;
    for (const way of ways.values()) for (const r of way.refs) if (!nodes.has(r)) missing++;
    // a clipped extract: a few ways cross the bbox, their outside nodes are absent
    const total = [...ways.values()].reduce((s, way) => s + way.refs.length, 0);
    expect(missing / total).toBeLessThan(0.02);
    const science = w.refs.map((r) => nodes.get(r)!);
    expect(science.every((n) => Math.abs(n.lng + 123.1036) < 0.001 && Math.abs(n.lat - 49.2734) < 0.001)).toBe(true);
  });

  it('stops at the first way block of a file sorted by type when no way handler is given', async () => {
    let count = 0;
    const s = await readOsm(VANCOUVER, { node: () => count++ });
    expect(s.stoppedEarly).toBe(true);
    expect(count).toBe(320_720);
  });

  it('lets an error thrown by a handler through unchanged', async () => {
    const boom = new Error('handler failed');
    const err = await rejection(readOsm(VANCOUVER, { node: (n) => { if (n.id > 1_000_000) throw boom; } }));
    expect(err).toBe(boom);
  });

  it('reports progress up to the file size', async () => {
    const seen: number[] = [];
    const s = await readOsm(VANCOUVER, { way: () => undefined }, { onProgress: (read, total) => { seen.push(read); expect(total).toBe(3_023_482); } });
    expect(seen.at(-1)).toBe(s.totalBytes);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
  });
});

describe('OsmPbfWriter round trip', () => {
  const nodes: OsmWriteNode[] = [
    { id: 1, lng: -123.1207375, lat: 49.2827291, tags: { name: 'Café Étoile', amenity: 'cafe', 'name:fr': 'Café Étoile' } },
    { id: 2, lng: -73.5673, lat: 45.5017 },
    { id: 12_000_000_001, lng: 179.9999999, lat: -89.9999999, tags: { note: '北京' } },
    { id: 12_000_000_005, lng: -0.0000001, lat: 0.0000001 },
    { id: 12_000_000_006, lng: -68.517, lat: 63.747, tags: { a: '', b: ' ' } },
  ];
  const ways: OsmWriteWay[] = [
    { id: 10, refs: [1, 2, 12_000_000_001, 1], tags: { highway: 'residential', name: 'Rue Saint-Denis' } },
    { id: 11, refs: [12_000_000_006, 12_000_000_005] },
    { id: 9_000_000_000, refs: [2], tags: { building: 'yes' } },
  ];

  for (const [label, options] of [
    ['zlib, one block', {}],
    ['zlib, blocks of 2', { blockSize: 2 }],
    ['raw blobs', { compress: false, blockSize: 3 }],
  ] as const) {
    it(`reads back what it wrote (${label})`, async () => {
      const file = path.join(dir, `rt-${label.replace(/\W+/g, '-')}.osm.pbf`);
      const w = new OsmPbfWriter(file, { ...options, sorted: true, bbox: [-1, -2, 3, 4], writingProgram: 'test' });
      for (const n of nodes) w.node(n);
      for (const way of ways) w.way(way);
      const written = w.close();
      expect(written).toMatchObject({ nodes: 5, ways: 3 });
      const gotNodes: OsmNode[] = [];
      const gotWays: OsmWay[] = [];
      const s = await readOsm(file, { node: (n) => gotNodes.push(n), way: (way) => gotWays.push(way) });
      expect(s.header).toMatchObject({ bbox: [-1, -2, 3, 4], writingProgram: 'test', optionalFeatures: ['Sort.Type_then_ID'] });
      expect(s.blobs).toBe(written.blobs);
      expect(s.totalBytes).toBe(written.bytes);
      expect(gotNodes).toEqual(nodes.map((n) => ({ tags: {}, ...n })));
      expect(gotWays).toEqual(ways.map((way) => ({ tags: {}, ...way })));
    });
  }

  it('refuses an empty tag key (string 0 ends a node in DenseNodes)', () => {
    const w = new OsmPbfWriter(path.join(dir, 'empty-key.osm.pbf'));
    expect(() => w.node({ id: 1, lng: 0, lat: 1, tags: { '': 'x' } })).toThrow('node 1 has a tag with an empty key');
    expect(() => w.way({ id: 1, refs: [1], tags: { '': 'x' } })).toThrow('way 1 has a tag with an empty key');
    w.close();
  });

  it('refuses out-of-order entities when it declared a sorted file', () => {
    const w = new OsmPbfWriter(path.join(dir, 'unsorted.osm.pbf'), { sorted: true });
    w.node({ id: 5, lng: 0, lat: 1 });
    expect(() => w.node({ id: 4, lng: 0, lat: 1 })).toThrow(/node 4 after node 5/);
    w.way({ id: 1, refs: [5] });
    expect(() => w.node({ id: 6, lng: 0, lat: 1 })).toThrow(/node 6 after ways/);
    w.close();
  });

  it('writes 100k nodes in bounded blocks', async () => {
    const file = path.join(dir, 'many.osm.pbf');
    const w = new OsmPbfWriter(file);
    for (let i = 1; i <= 100_000; i++) w.node({ id: i, lng: -79 + i * 1e-6, lat: 43 + i * 1e-6, tags: i % 10 === 0 ? { amenity: 'atm' } : undefined });
    const s = w.close();
    expect(s.blobs).toBe(1 + Math.ceil(100_000 / 8000));
    let count = 0;
    let tagged = 0;
    let lastId = 0;
    await readOsm(file, {
      node(n) {
        count++;
        if (n.tags.amenity === 'atm') tagged++;
        expect(n.id).toBe(lastId + 1);
        lastId = n.id;
      },
    });
    expect(count).toBe(100_000);
    expect(tagged).toBe(10_000);
  });
});

/** A file from raw parts: a header block with the given required features, then one data blob. */
function craftedFile(requiredFeatures: string[], blob: (pbf: PbfWriter) => void): Buffer {
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
  const hb = new PbfWriter();
  for (const f of requiredFeatures) hb.writeStringField(4, f);
  const headerBlock = hb.finish();
  const headerBlob = new PbfWriter();
  headerBlob.writeBytesField(1, headerBlock);
  pushBlob('OSMHeader', headerBlob.finish());
  const data = new PbfWriter();
  blob(data);
  pushBlob('OSMData', data.finish());
  return Buffer.concat(chunks);
}

describe('readOsm on hand-made blocks', () => {
  it('reads plain Node messages, granularity and offsets written after the groups', async () => {
    const file = path.join(dir, 'plain-nodes.osm.pbf');
    const block = new PbfWriter();
    block.writeMessage(1, (_: null, p: PbfWriter) => { for (const str of ['', 'name', 'Tofino', 'place']) p.writeStringField(1, str); }, null);
    block.writeMessage(2, (_: null, g: PbfWriter) => {
      g.writeMessage(1, (_n: null, n: PbfWriter) => {
        n.writeSVarintField(1, 42);
        n.writePackedVarint(2, [1, 3]);
        n.writePackedVarint(3, [2, 2]);
        // granularity 1000 nanodegrees, offsets 1e9 / -2e9 nanodegrees
        n.writeSVarintField(8, 49_153_000 - 1_000_000);
        n.writeSVarintField(9, -125_904_000 + 2_000_000);
      }, null);
      g.writeMessage(4, () => undefined, null); // a relation: counted, not decoded
    }, null);
    block.writeVarintField(17, 1000);
    block.writeVarintField(19, 1_000_000_000);
    block.writeVarintField(20, -2_000_000_000);
    const raw = block.finish();
    await writeFile(file, craftedFile(['OsmSchema-V0.6'], (b) => {
      b.writeVarintField(2, raw.length);
      b.writeBytesField(3, deflateSync(raw));
    }));
    const got: OsmNode[] = [];
    const s = await readOsm(file, { node: (n) => got.push(n) });
    expect(got).toEqual([{ id: 42, lng: -125.904, lat: 49.153, tags: { name: 'Tofino', place: 'Tofino' } }]);
    expect(s.relations).toBe(1);
  });
});

describe('readOsm refusals', () => {
  it('refuses a file that is not PBF', async () => {
    const file = path.join(dir, 'not.osm.pbf');
    await writeFile(file, '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6"></osm>\n');
    const err = await rejection(readOsm(file, {}));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(/^not an OSM PBF file: .*not\.osm\.pbf \(first 4 bytes give a blob header length of \d+\)$/);
  });

  it('refuses an empty file and a missing one', async () => {
    const file = path.join(dir, 'empty.osm.pbf');
    await writeFile(file, '');
    expect(await rejection(readOsm(file, {}))).toSatisfy((e: Error) => e instanceof InvalidInputError && /is empty$/.test(e.message));
    const missing = await rejection(readOsm(path.join(dir, 'nope.osm.pbf'), {}));
    expect(missing).toBeInstanceOf(InvalidInputError);
    expect(missing.message).toMatch(/^OSM PBF file not found: /);
  });

  it('refuses a PBF whose first blob is not an OSMHeader (for example a vector tile pbf)', async () => {
    const file = path.join(dir, 'data-first.osm.pbf');
    const w = new PbfWriter();
    w.writeStringField(1, 'OSMData');
    w.writeVarintField(3, 10);
    const h = w.finish();
    const len = Buffer.alloc(4);
    len.writeUInt32BE(h.length);
    await writeFile(file, Buffer.concat([len, Buffer.from(h), Buffer.alloc(10)]));
    const err = await rejection(readOsm(file, {}));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(/does not start with an OSMHeader blob$/);
  });

  it('refuses a truncated file', async () => {
    const file = path.join(dir, 'truncated.osm.pbf');
    await copyFile(VANCOUVER, file);
    await truncate(file, 2_000_000);
    const err = await rejection(readOsm(file, { node: () => undefined }));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(/^truncated OSM PBF file .*: wanted \d+ bytes at offset \d+, file ends after \d+$/);
  });

  it('refuses a blob whose compressed bytes are damaged', async () => {
    const file = path.join(dir, 'damaged.osm.pbf');
    const bytes = await readFile(VANCOUVER);
    // the second blob starts after the first: 4-byte length, BlobHeader, Blob of datasize bytes
    const headerLen = bytes.readUInt32BE(0);
    const secondStart = 4 + headerLen + readDatasize(bytes.subarray(4, 4 + headerLen));
    for (let i = secondStart + 5_000; i < secondStart + 5_064; i++) bytes[i] = bytes[i]! ^ 0xa5;
    await writeFile(file, bytes);
    const err = await rejection(readOsm(file, { node: () => undefined }));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(new RegExp(`^corrupt OSM PBF file .*: blob at offset ${secondStart}`));
  });

  it('refuses lzma and zstd blobs by name', async () => {
    for (const [field, name] of [[4, 'lzma'], [7, 'zstd']] as const) {
      const file = path.join(dir, `${name}.osm.pbf`);
      await writeFile(file, craftedFile(['OsmSchema-V0.6', 'DenseNodes'], (b) => {
        b.writeVarintField(2, 10);
        b.writeBytesField(field, new Uint8Array([1, 2, 3]));
      }));
      const err = await rejection(readOsm(file, { node: () => undefined }));
      expect(err).toBeInstanceOf(InvalidInputError);
      expect(err.message).toMatch(new RegExp(`blob at offset \\d+ uses ${name} compression, which is not supported \\(only uncompressed and zlib blobs\\)`));
    }
  });

  it('refuses required features it does not implement', async () => {
    const file = path.join(dir, 'history.osm.pbf');
    await writeFile(file, craftedFile(['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation'], (b) => b.writeBytesField(3, deflateSync(Buffer.alloc(0)))));
    const err = await rejection(readOsm(file, {}));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(/requires unsupported feature\(s\) "HistoricalInformation" \(supported: OsmSchema-V0\.6, DenseNodes\)$/);
  });

  it('refuses a block whose protobuf is garbage', async () => {
    const file = path.join(dir, 'garbage.osm.pbf');
    const garbage = Buffer.from([0x12, 0xff, 0xff, 0x03, 0x01, 0x02]);
    await writeFile(file, craftedFile(['OsmSchema-V0.6'], (b) => {
      b.writeVarintField(2, garbage.length);
      b.writeBytesField(3, deflateSync(garbage));
    }));
    const err = await rejection(readOsm(file, { node: () => undefined }));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(/^corrupt OSM PBF file .*: blob at offset \d+: message overruns its length/);
  });
});

function readDatasize(header: Uint8Array): number {
  // BlobHeader: field 1 (type, bytes), field 3 (datasize, varint)
  let pos = 0;
  let size = -1;
  while (pos < header.length) {
    const tag = header[pos++]!;
    if (tag === 0x0a) {
      const len = header[pos++]!;
      pos += len;
    } else if (tag === 0x18) {
      let v = 0;
      let shift = 0;
      let b: number;
      do {
        b = header[pos++]!;
        v += (b & 0x7f) * 2 ** shift;
        shift += 7;
      } while (b & 0x80);
      size = v;
    } else throw new Error(`unexpected tag ${tag}`);
  }
  return size;
}

describe('extractOsm on the Vancouver extract', () => {
  let x: OsmExtract;
  beforeAll(async () => {
    x = await extractOsm(VANCOUVER);
  });

  it('finds plausible numbers of address points, street names and POIs', () => {
    // 1,126 nodes and 610 ways carry addr:housenumber (the data README's 6.9k counts addr:* tags loosely)
    expect(x.addresses.length).toBeGreaterThan(1_600);
    expect(x.addresses.length).toBeLessThan(1_900);
    const streetNames = new Set(x.streets.map((s) => s.name));
    expect(streetNames.size).toBeGreaterThan(1_300);
    expect(streetNames.size).toBeLessThan(1_900);
    expect(x.pois.length).toBeGreaterThan(3_000);
    expect(x.pois.length).toBeLessThan(4_200);
    expect(x.pois.filter((p) => p.named).length).toBeGreaterThan(2_300);
    expect(x.stats).toMatchObject({ nodes: 320_720, ways: 52_072, addresses: x.addresses.length, streets: x.streets.length, pois: x.pois.length });
    expect(x.stats.skipped.interpolationWays).toBe(1);
    expect(x.stats.wayNodesFound / x.stats.wayNodesWanted).toBeGreaterThan(0.95);
    for (const a of x.addresses) expect(a.housenumber).toMatch(/\d/);
    for (const p of [...x.addresses, ...x.streets, ...x.pois]) {
      expect(p.lng).toBeGreaterThan(-123.4);
      expect(p.lng).toBeLessThan(-122.9);
      expect(p.lat).toBeGreaterThan(49.1);
      expect(p.lat).toBeLessThan(49.4);
    }
  });

  it('keeps address points with their unit and splits lists and ranges', () => {
    const byId = new Map(x.addresses.map((a) => [a.sourceId, a]));
    expect(byId.get('n638747933')).toEqual({
      sourceId: 'n638747933', lng: -123.1268559, lat: 49.2765386, housenumber: '1250', unit: '2',
      street: 'Granville Street', city: 'Vancouver', postcode: 'V6Z1M4', province: null,
    });
    // "#101-1401" on West Broadway
    expect(byId.get('n869234545')).toMatchObject({ housenumber: '1401', unit: '101', street: 'West Broadway' });
    // "1067;1077": one building, two civic numbers
    expect(byId.get('w91998107:1067')).toMatchObject({ housenumber: '1067', street: 'West Cordova Street' });
    expect(byId.get('w91998107:1077')!.lng).toBe(byId.get('w91998107:1067')!.lng);
    // "2825-2855": a range of one side of Spruce Street; its two ends
    expect(byId.get('w326317505:2825')).toMatchObject({ housenumber: '2825', postcode: 'V6H2R5', province: 'BC' });
    expect(byId.has('w326317505:2855')).toBe(true);
    expect(byId.has('w326317505')).toBe(false);
  });

  it('keeps named street ways with their middle vertex and language names', () => {
    const main = x.streets.filter((s) => s.name === 'Main Street');
    expect(main.length).toBeGreaterThan(3);
    expect(main.filter((s) => s.names.zh === '緬街').length).toBeGreaterThan(3);
    expect(x.streets.find((s) => s.sourceId === 'w23188860')).toMatchObject({
      name: 'Arthur Laing Bridge', highway: 'secondary',
      names: { en: 'Arthur Laing Bridge', fr: 'Pont Arthur Laing', 'en-alt1': 'Grant McConachie Way' },
    });
    const highways = new Set(x.streets.map((s) => s.highway));
    for (const h of ['footway', 'path', 'cycleway', 'steps', 'track', 'motorway_link']) expect(highways.has(h)).toBe(false);
    expect(highways.has('residential') && highways.has('primary')).toBe(true);
  });

  it('maps POIs to the taxonomy with their names and address parts', () => {
    const byId = new Map(x.pois.map((p) => [p.sourceId, p]));
    expect(byId.get('w37084312')).toMatchObject({ name: 'TELUS World of Science', category: 'culture.museum', names: { 'en-alt1': 'Science World' }, named: true });
    expect(byId.get('w24705904')).toMatchObject({ name: 'BC Place', category: 'leisure.stadium', names: { ru: 'Би-Си Плэйс', 'en-alt1': 'B.C. Place' } });
    expect(byId.get('w121175909')).toMatchObject({ name: 'Vancouver City Hall', category: 'government.townhall' });
    expect(byId.get('n25751159')).toMatchObject({ name: 'Main Street-Science World Station', category: 'transport.train_station' });
    expect(byId.get('n1431507584')).toMatchObject({ category: 'culture.library', housenumber: '6076', street: 'Fraser Street' });
    // a BC Place way centroid lies on the stadium
    expect(byId.get('w24705904')!.lng).toBeCloseTo(-123.112, 2);
    expect(byId.get('w24705904')!.lat).toBeCloseTo(49.2767, 3);
    // "name:alt" is a mistag, not a language
    expect(byId.get('w36918222')!.names).toEqual({});
    const unnamed = x.pois.filter((p) => !p.named);
    expect(unnamed.length).toBe(x.stats.unnamedPois);
    expect(new Set(unnamed.map((p) => p.category))).toEqual(new Set(['transport.parking', 'finance.atm', 'transport.fuel', 'leisure.playground', 'tourism.viewpoint', 'tourism.picnic_site', 'transport.taxi']));
    expect(byId.get('n582802180')).toMatchObject({ name: 'ATM', names: { en: 'ATM', fr: 'Guichet automatique' }, named: false, category: 'finance.atm' });
  });
});

describe('extractOsm on a written file', () => {
  it('applies every rule on a small known file', async () => {
    const file = path.join(dir, 'rules.osm.pbf');
    const w = new OsmPbfWriter(file, { sorted: true, blockSize: 4 });
    // street nodes 1..5, building ring 10..13, area 20..23
    for (let i = 1; i <= 5; i++) w.node({ id: i, lng: -75.7 + i * 0.001, lat: 45.42 });
    w.node({ id: 6, lng: -75.69, lat: 45.43, tags: { amenity: 'charging_station', operator: 'FLO' } });
    w.node({ id: 7, lng: -75.68, lat: 45.43, tags: { amenity: 'bench' } });
    w.node({ id: 8, lng: -75.67, lat: 45.43, tags: { shop: 'supermarket', brand: 'Loblaws', 'addr:housenumber': '12;14', 'addr:street': 'Rue Principale', 'addr:city': 'Gatineau' } });
    w.node({ id: 9, lng: -75.66, lat: 45.43, tags: { 'addr:housenumber': '401-43', 'addr:street': 'Hanna Avenue', 'addr:postcode': 'M6K 1X1', 'addr:province': 'ON' } });
    for (const [id, dx, dy] of [[10, 0, 0], [11, 0.002, 0], [12, 0.002, 0.001], [13, 0, 0.001]] as const) w.node({ id, lng: -75.6 + dx, lat: 45.4 + dy });
    w.node({ id: 14, lng: -75.5, lat: 45.5, tags: { 'addr:housenumber': '3', 'addr:place': 'Lac-Simon' } });
    w.node({ id: 15, lng: -75.5, lat: 45.5, tags: { 'addr:housenumber': 'rear', 'addr:street': 'Bank Street' } });
    w.node({ id: 16, lng: -75.5, lat: 45.5, tags: { 'addr:housenumber': '5' } });
    w.node({ id: 17, lng: -75.4, lat: 45.3, tags: { amenity: 'restaurant' } });
    w.node({ id: 18, lng: -75.67, lat: 45.32, tags: { aeroway: 'aerodrome', name: 'Ottawa Macdonald-Cartier International Airport', 'name:fr': 'Aéroport international Macdonald-Cartier d\'Ottawa', iata: 'YOW', icao: 'CYOW', alt_name: 'Ottawa Airport;YOW Airport' } });
    w.way({ id: 100, refs: [1, 2, 3, 4, 5], tags: { highway: 'residential', name: 'Rue  Principale', 'name:en': 'Main Street' } });
    w.way({ id: 101, refs: [1, 2], tags: { highway: 'footway', name: 'Sentier' } });
    w.way({ id: 102, refs: [3, 4], tags: { highway: 'residential' } });
    w.way({ id: 103, refs: [10, 11, 12, 13, 10], tags: { building: 'yes', 'addr:housenumber': '2801-2831', 'addr:street': 'Bank Street', amenity: 'school', name: 'École Secondaire' } });
    w.way({ id: 104, refs: [1, 5], tags: { 'addr:interpolation': 'odd' } });
    w.way({ id: 105, refs: [999, 998], tags: { highway: 'primary', name: 'Nowhere Road' } });
    w.way({ id: 106, refs: [998, 997, 3], tags: { highway: 'secondary', name: 'Clipped Road' } });
    w.close();

    const x = await extractOsm(file);
    expect(x.streets).toEqual([
      { sourceId: 'w100', name: 'Rue Principale', names: { en: 'Main Street' }, highway: 'residential', lng: -75.697, lat: 45.42 },
      // middle vertex absent (clipped): the nearest present one
      { sourceId: 'w106', name: 'Clipped Road', names: {}, highway: 'secondary', lng: -75.697, lat: 45.42 },
    ]);
    expect(x.addresses).toEqual([
      { sourceId: 'n8:12', lng: -75.67, lat: 45.43, housenumber: '12', unit: null, street: 'Rue Principale', city: 'Gatineau', postcode: null, province: null },
      { sourceId: 'n8:14', lng: -75.67, lat: 45.43, housenumber: '14', unit: null, street: 'Rue Principale', city: 'Gatineau', postcode: null, province: null },
      { sourceId: 'n9', lng: -75.66, lat: 45.43, housenumber: '43', unit: '401', street: 'Hanna Avenue', city: null, postcode: 'M6K 1X1', province: 'ON' },
      { sourceId: 'n14', lng: -75.5, lat: 45.5, housenumber: '3', unit: null, street: 'Lac-Simon', city: null, postcode: null, province: null },
      { sourceId: 'w103:2801', lng: expect.closeTo(-75.599, 9), lat: expect.closeTo(45.4005, 9), housenumber: '2801', unit: null, street: 'Bank Street', city: null, postcode: null, province: null },
      { sourceId: 'w103:2831', lng: expect.closeTo(-75.599, 9), lat: expect.closeTo(45.4005, 9), housenumber: '2831', unit: null, street: 'Bank Street', city: null, postcode: null, province: null },
    ]);
    expect(x.pois).toEqual([
      { sourceId: 'n6', name: 'Charging station', names: { en: 'Charging station', fr: 'Borne de recharge' }, named: false, category: 'transport.charging_station', lng: -75.69, lat: 45.43, housenumber: null, street: null, city: null, postcode: null },
      { sourceId: 'n8', name: 'Loblaws', names: {}, named: true, category: 'shop.supermarket', lng: -75.67, lat: 45.43, housenumber: '12;14', street: 'Rue Principale', city: 'Gatineau', postcode: null },
      {
        sourceId: 'n18', name: 'Ottawa Macdonald-Cartier International Airport', named: true, category: 'transport.airport', lng: -75.67, lat: 45.32,
        names: { fr: "Aéroport international Macdonald-Cartier d'Ottawa", 'en-alt1': 'Ottawa Airport', 'en-alt2': 'YOW Airport', 'en-iata': 'YOW' },
        housenumber: null, street: null, city: null, postcode: null,
      },
      { sourceId: 'w103', name: 'École Secondaire', names: {}, named: true, category: 'education.school', lng: expect.closeTo(-75.599, 9), lat: expect.closeTo(45.4005, 9), housenumber: '2801-2831', street: 'Bank Street', city: null, postcode: null },
    ]);
    expect(x.stats.skipped).toEqual({ housenumberWithoutStreet: 1, housenumberWithoutDigit: 1, interpolationWays: 1, unnamedPois: 1, waysWithoutNodes: 1 });
    expect(x.stats.unnamedPois).toBe(1);
  });
});

describe('parseHousenumber', () => {
  it.each([
    ['43', undefined, [['43', null]]],
    ['43A', undefined, [['43A', null]]],
    ['12 1/2', undefined, [['12 1/2', null]]],
    ['401-43', undefined, [['43', '401']]],
    ['9-1551', undefined, [['1551', '9']]],
    ['#101-1401', undefined, [['1401', '101']]],
    ['Unit 102 -1626', undefined, [['1626', '102']]],
    ['Suite 110, 1333', undefined, [['1333', '110']]],
    ['1333 Unit 110', undefined, [['1333', '110']]],
    ['B-204', undefined, [['204', 'B']]],
    ['108 - 777', undefined, [['777', '108']]],
    ['2788-1', undefined, [['1', '2788']]],
    ['300-320', undefined, [['300', null], ['320', null]]],
    ['105-110', undefined, [['110', '105']]],
    ['1067;1077', undefined, [['1067', null], ['1077', null]]],
    ['12, 14', undefined, [['12', null], ['14', null]]],
    ['2801-2831', undefined, [['2801', null], ['2831', null]]],
    ['201 City Square, 555', undefined, [['201 City Square, 555', null]]],
    ['rear', undefined, []],
    ['1588', 'Suite 124', [['1588', '124']]],
    ['7', '#5', [['7', '5']]],
    ['5', 'Stella', [['5', 'Stella']]],
    ['9-1551', 'PH2', [['1551', 'PH2']]],
  ] as const)('%s (unit tag %s)', (raw, unit, expected) => {
    expect(parseHousenumber(raw, unit).map((c) => [c.housenumber, c.unit])).toEqual(expected);
  });
});



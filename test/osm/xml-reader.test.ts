/**
 * The OSM XML reader (and readOsmFile's choice of reader by content).
 * Real data: ../shared/data/osm/graphhopper-monaco.osm.gz, graphhopper-krautsand.osm.gz and
 * graphhopper-test_simple_turncosts.osm.xml (GraphHopper test fixtures, Apache-2.0; map data
 * © OpenStreetMap contributors, ODbL). The expected counts were taken with Python's
 * xml.etree.ElementTree, an independent XML parser.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../ingest/errors.ts';
import { readOsmFeatures } from '../../ingest/osm/features.ts';
import { NO_TAGS, type OsmNode, type OsmRelation, type OsmWay } from '../../ingest/osm/pbf-primitive-block.ts';
import { readOsmFile } from '../../ingest/osm/read-osm-file.ts';
import { OsmXmlBuilder } from '../../ingest/osm/xml-osm-builder.ts';
import { readOsmXml } from '../../ingest/osm/xml-reader.ts';
import { XmlTokenizer } from '../../ingest/osm/xml-tokenizer.ts';
import { OsmPbfWriter } from '../../samples/geocoding/pbf-writer.ts';
import { sharedData } from '../support/paths.ts';

type Entity = ['node', OsmNode] | ['way', OsmWay] | ['relation', OsmRelation];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-osm-xml-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fileOf(name: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

/** Every entity in file order, through readOsmFile (the reader is chosen by content). */
async function readAll(file: string) {
  const entities: Entity[] = [];
  const summary = await readOsmFile(file, {
    node: (n) => entities.push(['node', n]),
    way: (w) => entities.push(['way', w]),
    relation: (r) => entities.push(['relation', r]),
  });
  return { entities, summary };
}

const INLINE = `\uFEFF<?xml version='1.0' encoding="UTF-8"?>
<!DOCTYPE osm [ <!ENTITY unused "x"> ]>
<!-- a comment <node id="999" lat="0" lon="0"/> -->
<osm version="0.6" generator="hand &amp; &quot;made&quot;">
  <bounds minlat="-1." minlon="-2.5" maxlat="1.0" maxlon="2.5"/>
  <meta osm_base="2024-01-01T00:00:00Z"><note>ignored <tag k="x" v="y"/></note></meta>
  <?processing instruction?>
  <node id="1" lat="0.5" lon="-0.25" version="1"/>
  <node id='-2' lat = '-45.1234567' lon= "179.9999999" user="Ren&#233;">
    <tag k="name" v="A &amp; B &lt;C&gt; &quot;D&quot; &apos;E&apos; &#233;&#xE9;&#x1F600;"/>
    <tag k="note" v="two
lines	and a tab, &#10;kept newline"/>
    <tag k="name:ja" v="東京"></tag>
  </node>
  <way id="10">
    <nd ref="1"/><nd ref="-2"></nd>
    <![CDATA[ <nd ref="555"/> ]]>
    <tag k="highway" v="residential"/>
  </way>
  <node id="3" lat="1" lon="1" visible="false"/>
  <way id="11"><nd ref="1"/></way>
  <relation id="20">
    <member type="node" ref="1" role="via"/>
    <member type="way" ref="10" role="from"/>
    <member type="relation" ref="21"/>
    <tag k="type" v="restriction"/>
  </relation>
  <node id="4" lat="2" lon="2" action="delete"/>
  <node id="5" lat="3" lon="3"/>
</osm>
`;

describe('readOsmXml on inline files', () => {
  const expected: Entity[] = [
    ['node', { id: 1, lng: -0.25, lat: 0.5, tags: {} }],
    ['node', {
      id: -2, lng: 179.9999999, lat: -45.1234567,
      tags: { name: 'A & B <C> "D" \'E\' éé😀', note: 'two lines and a tab, \nkept newline', 'name:ja': '東京' },
    }],
    ['way', { id: 10, refs: [1, -2], tags: { highway: 'residential' } }],
    ['way', { id: 11, refs: [1], tags: {} }],
    ['relation', {
      id: 20,
      tags: { type: 'restriction' },
      members: [{ type: 'node', ref: 1, role: 'via' }, { type: 'way', ref: 10, role: 'from' }, { type: 'relation', ref: 21, role: '' }],
    }],
    ['node', { id: 5, lng: 3, lat: 3, tags: {} }],
  ];

  it('delivers every element form in file order, with entities decoded and deleted entities skipped', async () => {
    const { entities, summary } = await readAll(await fileOf('inline.osm', INLINE));
    expect(entities).toEqual(expected);
    expect(summary).toMatchObject({
      format: 'xml', gzip: false, nodes: 3, ways: 2, relations: 1, deleted: 2, stoppedEarly: false,
      header: { bbox: [-2.5, -1, 2.5, 1], writingProgram: 'hand & "made"', requiredFeatures: [] },
    });
    expect(summary.bytesRead).toBe(summary.totalBytes);
    // untagged entities share the PBF reader's frozen empty tags
    const untagged = entities.filter(([, e]) => Object.keys(e.tags).length === 0);
    expect(untagged.length).toBe(3);
    for (const [, e] of untagged) expect(e.tags).toBe(NO_TAGS);
  });

  it('gunzips by name or by magic, with the same result', async () => {
    const byName = await readAll(await fileOf('inline.osm.gz', gzipSync(INLINE)));
    const byMagic = await readAll(await fileOf('inline-gzipped.osm', gzipSync(INLINE)));
    expect(byName.entities).toEqual(expected);
    expect(byMagic.entities).toEqual(expected);
    expect(byMagic.summary).toMatchObject({ gzip: true, xmlBytes: Buffer.byteLength(INLINE) });
  });

  it('counts kinds without a handler but does not decode them', async () => {
    const ids: number[] = [];
    const summary = await readOsmXml(await fileOf('inline-ways.osm', INLINE), { way: (w) => ids.push(w.id) });
    expect(ids).toEqual([10, 11]);
    expect(summary).toMatchObject({ nodes: 3, ways: 2, relations: 1 });
  });

  it('gives the same result however the bytes are split into chunks', () => {
    const bytes = Buffer.from(INLINE);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const entities: Entity[] = [];
      const builder: OsmXmlBuilder = new OsmXmlBuilder({
        node: (n) => entities.push(['node', n]),
        way: (w) => entities.push(['way', w]),
        relation: (r) => entities.push(['relation', r]),
      }, (message) => tokenizer.error(message));
      const tokenizer: XmlTokenizer = new XmlTokenizer(builder);
      for (let at = 0; at < bytes.length; at += size) tokenizer.write(bytes.subarray(at, at + size));
      tokenizer.end();
      expect(entities, `chunks of ${size} bytes`).toEqual(expected);
      expect(builder.header.bbox).toEqual([-2.5, -1, 2.5, 1]);
      expect(tokenizer.bytes).toBe(bytes.length);
    }
  });

  it('reads osmosis <bound box> as the header bbox', async () => {
    const file = await fileOf('bound.osm', '<osm><bound box="-1.5,-2,3,4.25" origin="osmosis"/></osm>');
    expect((await readOsmXml(file, {})).header.bbox).toEqual([-2, -1.5, 4.25, 3]);
  });
});

/** A small OSM XML writer for the equivalence test: the format as osmium and the API write it. */
function toXml(nodes: OsmNode[], ways: OsmWay[], relations: OsmRelation[]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
  const tags = (t: Readonly<Record<string, string>>) => Object.entries(t).map(([k, v]) => `    <tag k="${esc(k)}" v="${esc(v)}"/>\n`).join('');
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="test">\n'];
  for (const n of nodes) {
    const head = `  <node id="${n.id}" lat="${n.lat.toFixed(7)}" lon="${n.lng.toFixed(7)}"`;
    out.push(n.tags === NO_TAGS ? `${head}/>\n` : `${head}>\n${tags(n.tags)}  </node>\n`);
  }
  for (const w of ways) out.push(`  <way id="${w.id}">\n${w.refs.map((r) => `    <nd ref="${r}"/>\n`).join('')}${tags(w.tags)}  </way>\n`);
  for (const r of relations) {
    const members = r.members.map((m) => `    <member type="${m.type}" ref="${m.ref}" role="${esc(m.role)}"/>\n`).join('');
    out.push(`  <relation id="${r.id}">\n${members}${tags(r.tags)}  </relation>\n`);
  }
  out.push('</osm>\n');
  return out.join('');
}

describe('equivalence with the PBF reader', () => {
  it('delivers identical entities from the same data written as PBF and as XML (plain and gzipped)', async () => {
    // Enough entities to cross many 64 KiB chunks, with multi-byte text split anywhere.
    const nodes: OsmNode[] = [];
    for (let i = 0; i < 6000; i++) {
      const lat = Math.round((-89 + ((i * 7919) % 178_000_000) / 1e6) * 1e7) / 1e7;
      const lng = Math.round((-179 + ((i * 104729) % 358_000_000) / 1e6) * 1e7) / 1e7;
      const tags = i % 3 === 0 ? NO_TAGS : { name: `Café «${i}» & <Ünïcödé> "q" 'a' 東京 ${'é'.repeat(i % 17)}`, 'addr:housenumber': String(i), note: 'a\nb\tc' };
      nodes.push({ id: i * 3 + 1, lng, lat, tags });
    }
    const ways: OsmWay[] = [];
    for (let i = 0; i < 800; i++) {
      ways.push({ id: 1_000_000_000 + i, refs: [i * 3 + 1, i * 3 + 4, i * 3 + 7], tags: i % 5 === 0 ? NO_TAGS : { highway: 'residential', name: `Rue n° ${i}` } });
    }
    const relations: OsmRelation[] = [];
    for (let i = 0; i < 120; i++) {
      relations.push({
        id: 9_000_000_000 + i,
        tags: { type: i % 2 ? 'restriction' : 'multipolygon', restriction: 'no_left_turn' },
        members: [
          { type: 'way', ref: 1_000_000_000 + i, role: 'from' },
          { type: 'node', ref: i * 3 + 4, role: 'via' },
          { type: 'relation', ref: 9_000_000_000 + ((i + 1) % 120), role: i % 2 ? '' : 'subarea «x»' },
        ],
      });
    }
    const pbf = path.join(dir, 'equivalence.osm.pbf');
    const w = new OsmPbfWriter(pbf, { blockSize: 1000 });
    for (const n of nodes) w.node(n);
    for (const x of ways) w.way(x);
    for (const r of relations) w.relation(r);
    w.close();
    const xml = toXml(nodes, ways, relations);
    expect(Buffer.byteLength(xml)).toBeGreaterThan(1 << 20);

    const fromPbf = await readAll(pbf);
    const fromXml = await readAll(await fileOf('equivalence.osm', xml));
    const fromGz = await readAll(await fileOf('equivalence.osm.gz', gzipSync(xml)));
    expect(fromPbf.summary.format).toBe('pbf');
    expect(fromXml.summary.format).toBe('xml');
    expect(fromPbf.entities.length).toBe(6920);
    expect(fromXml.entities).toEqual(fromPbf.entities);
    expect(fromGz.entities).toEqual(fromPbf.entities);
    for (const [i, [, e]] of fromXml.entities.entries()) {
      expect(e.tags === NO_TAGS).toBe(fromPbf.entities[i]![1].tags === NO_TAGS);
    }
    expect(fromXml.summary).toMatchObject({ nodes: 6000, ways: 800, relations: 120 });
  });
});

describe('the real OSM XML files', () => {
  it('reads Monaco (.osm.gz): counts, tags with character references, a relation with relation members', async () => {
    const nodes = new Map<number, OsmNode>();
    const ways = new Map<number, OsmWay>();
    const relations = new Map<number, OsmRelation>();
    const progress: number[] = [];
    const summary = await readOsmFile(sharedData('osm', 'graphhopper-monaco.osm.gz'), {
      node: (n) => nodes.set(n.id, n),
      way: (w) => ways.set(w.id, w),
      relation: (r) => relations.set(r.id, r),
    }, { onProgress: (read) => progress.push(read) });
    expect(summary).toMatchObject({ format: 'xml', gzip: true, nodes: 13739, ways: 1944, relations: 77, totalBytes: 333976, bytesRead: 333976 });
    expect(summary.header).toMatchObject({ writingProgram: 'pbf2osm', bbox: null });
    expect([nodes.size, ways.size, relations.size]).toEqual([13739, 1944, 77]);
    const all = [...nodes.values(), ...ways.values(), ...relations.values()];
    expect(all.reduce((s, e) => s + Object.keys(e.tags).length, 0)).toBe(5846);
    expect([...ways.values()].reduce((s, w) => s + w.refs.length, 0)).toBe(16573);
    const members = [...relations.values()].flatMap((r) => r.members);
    expect(members.length).toBe(3125);
    expect(members.filter((m) => m.type === 'relation').length).toBe(77);
    expect(members.filter((m) => m.type === 'node').length).toBe(217);
    expect(progress.at(-1)).toBe(333976);

    expect(nodes.get(21911886)).toEqual({ id: 21911886, lat: 43.7372399, lng: 7.4234985, tags: { crossing_ref: 'zebra', highway: 'crossing' } });
    expect(nodes.get(21911863)!.tags).toBe(NO_TAGS);
    expect(nodes.get(1306031292)!.tags.name).toBe('P&P');
    expect(nodes.get(1794111138)!.tags).toEqual({ amenity: 'pub', name: 'Ship & Castle' });
    expect(ways.get(24874557)).toEqual({ id: 24874557, refs: [25178371, 247863202], tags: { admin_level: '2', boundary: 'administrative' } });
    expect(ways.get(25722909)!.tags.reg_name).toBe("Carrugëtu d'a Fondarìa");
    expect(relations.get(1665395)!.tags.symbol).toBe('Via-Alpina-Symbol (Zwei den Buchstaben "V" formende Bögen vor einem Dreieck in A-Form)');
    expect(relations.get(90352)!.members).toEqual(
      [37794470, 37794471, 37811853, 166558484, 37811854].map((ref) => ({ type: 'way', ref, role: '' })),
    );
    expect(relations.get(90352)!.tags['name:ru']).toBe('Франция — Монако');
  });

  it('reads Krautsand (.osm.gz): <bounds> as the header bbox, route relations of relations', async () => {
    const relations = new Map<number, OsmRelation>();
    const ways = new Map<number, OsmWay>();
    const summary = await readOsmFile(sharedData('osm', 'graphhopper-krautsand.osm.gz'), {
      way: (w) => ways.set(w.id, w),
      relation: (r) => relations.set(r.id, r),
    });
    expect(summary).toMatchObject({ format: 'xml', nodes: 1157, ways: 33, relations: 24 });
    expect(summary.header.bbox).toEqual([9.3853, 53.7526, 9.4364, 53.7531]);
    const members = [...relations.values()].flatMap((r) => r.members);
    expect(members.length).toBe(7387);
    expect(members.filter((m) => m.type === 'relation').length).toBe(108);
    const route = relations.get(22327)!;
    expect(route.tags).toMatchObject({ route: 'bicycle', ref: 'D10', network: 'ncn', name: '[D10] Elberadweg [rechtselbisch]' });
    expect(route.members.length).toBe(16);
    expect(route.members.slice(0, 2)).toEqual([{ type: 'relation', ref: 2599007, role: '' }, { type: 'relation', ref: 2599009, role: '' }]);
    const reserve = ways.get(22961263)!;
    expect(reserve.refs.length).toBe(86);
    expect(reserve.refs[0]).toBe(reserve.refs[85]);
    expect(reserve.tags.name).toBe('Naturschutzgebiet Rhinplate und Elbufer südlich Glückstadt');
  });

  it('reads the turn-cost fixture: ways and its no_left_turn restriction', async () => {
    const { entities, summary } = await readAll(sharedData('osm', 'graphhopper-test_simple_turncosts.osm.xml'));
    expect(summary).toMatchObject({ nodes: 7, ways: 5, relations: 1, header: { bbox: [-1, -1, 1, 1], writingProgram: 'Manual' } });
    expect(entities[0]).toEqual(['node', { id: 1, lat: -0.5, lng: 0, tags: {} }]);
    expect(entities.filter(([k]) => k === 'way').map(([, w]) => [w.id, (w as OsmWay).refs])).toEqual([
      [1, [1, 2]], [111, [2, 3, 4]], [2, [4, 2]], [3, [2, 6, 7]], [4, [6, 8]],
    ]);
    expect(entities.at(-1)).toEqual(['relation', {
      id: 1,
      tags: { restriction: 'no_left_turn', type: 'restriction' },
      members: [{ type: 'way', ref: 1, role: 'from' }, { type: 'way', ref: 3, role: 'to' }, { type: 'node', ref: 2, role: 'via' }],
    }]);
  });

  it('lets readOsmFeatures take XML: the same features as from the same data written as PBF', async () => {
    const xmlFile = sharedData('osm', 'graphhopper-monaco.osm.gz');
    const pbfFile = path.join(dir, 'monaco.osm.pbf');
    const w = new OsmPbfWriter(pbfFile);
    await readOsmXml(xmlFile, { node: (n) => w.node(n), way: (x) => w.way(x), relation: (r) => w.relation(r) });
    w.close();
    const selection = {
      area: (t: Readonly<Record<string, string>>) => t.building !== undefined || t.boundary === 'administrative',
      line: (t: Readonly<Record<string, string>>) => t.highway !== undefined,
      point: (t: Readonly<Record<string, string>>) => t.amenity !== undefined,
    };
    const fromXml = await readOsmFeatures(xmlFile, selection);
    const fromPbf = await readOsmFeatures(pbfFile, selection);
    expect(fromXml.lines.length).toBeGreaterThan(800);
    expect(fromXml.points.length).toBeGreaterThan(100);
    expect(fromXml.areas.length).toBeGreaterThan(900);
    expect({ ...fromXml, header: null }).toEqual({ ...fromPbf, header: null });
  });
});

describe('bad input', () => {
  async function failure(name: string, content: string | Buffer): Promise<string> {
    const file = await fileOf(name, content);
    const err = await readOsmFile(file, { node() {}, way() {}, relation() {} }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInputError);
    const message = (err as Error).message;
    expect(message).toContain(file);
    return message;
  }

  it.each([
    ['unclosed element at the end', '<osm>\n  <node id="1" lat="0" lon="0">\n', /line 3, byte 38: unexpected end of file: <node> is not closed/],
    ['truncated tag', '<osm>\n<node id="1" lat="0', /line 2, byte 6: unexpected end of file inside "<node id="1" lat="0"/],
    ['mismatched end tag', '<osm>\n<way id="1">\n</node>\n</osm>', /line 3, byte 19: end tag <\/node> where <\/way> was expected/],
    ['bad number', '<osm>\n<node id="1" lat="4x" lon="0"/></osm>', /line 2, byte 6: bad lat "4x"/],
    ['latitude out of range', '<osm><node id="1" lat="91" lon="0"/></osm>', /bad lat "91" \(expected a number from -90 to 90\)/],
    ['fractional id', '<osm><way id="1.5"/></osm>', /line 1, byte 5: bad way id "1.5" \(expected an integer\)/],
    ['bad nd ref', '<osm><way id="1"><nd ref=""/></way></osm>', /bad nd ref ""/],
    ['missing attribute', '<osm>\n\n<relation id="1"><member type="way" role="x"/></relation></osm>', /line 3, byte 24: missing attribute "ref"/],
    ['bad member type', '<osm><relation id="1"><member type="area" ref="1" role=""/></relation></osm>', /member type "area"/],
    ['nd outside a way', '<osm><node id="1" lat="0" lon="0"><nd ref="2"/></node></osm>', /<nd> inside a node/],
    ['tag at the top level', '<osm><tag k="a" v="b"/></osm>', /<tag> outside a node, way or relation/],
    ['bad entity', '<osm><node id="1" lat="0" lon="0"><tag k="a" v="x &nbsp; y"/></node></osm>', /bad entity reference "&nbsp; y"/],
    ['bare ampersand', '<osm><node id="1" lat="0" lon="0"><tag k="a" v="P&P"/></node></osm>', /bad entity reference "&P"/],
    ['forbidden character reference', '<osm><node id="1" lat="0" lon="0"><tag k="a" v="&#0;"/></node></osm>', /bad entity reference/],
    ['unclosed quote', '<osm><node id="1/>\n<node id="2"/></osm>', /"<" in an attribute value \(unclosed quote\?\)/],
    ['unquoted value', '<osm><node id=1/></osm>', /unquoted attribute value/],
    ['duplicate attribute', '<osm><node id="1" id="2" lat="0" lon="0"/></osm>', /duplicate attribute "id"/],
    ['wrong root', '<?xml version="1.0"?><gpx><trk/></gpx>', /not an OSM XML file: the root element is <gpx>/],
    ['second root', '<osm/><osm/>', /second root element <osm>/],
    ['text after the root', '<osm/>garbage', /text after the root element/],
    ['unsupported version', '<osm version="0.5"/>', /unsupported OSM XML version "0.5"/],
    ['unsupported encoding', '<?xml version="1.0" encoding="ISO-8859-1"?><osm/>', /unsupported encoding "ISO-8859-1"/],
    ['no root element', '<?xml version="1.0"?>\n', /no root element/],
  ])('%s', async (_, content, expected) => {
    expect(await failure('bad.osm', content)).toMatch(expected);
  });

  it('refuses invalid UTF-8 in a value it reads', async () => {
    const bytes = Buffer.concat([Buffer.from('<osm><node id="1" lat="0" lon="0"><tag k="a" v="'), Buffer.from([0xc3, 0x28]), Buffer.from('"/></node></osm>')]);
    expect(await failure('utf8.osm', bytes)).toMatch(/line 1, byte 34: invalid UTF-8 in an attribute value/);
  });

  it('reports the decompressed position of an error in a gzipped file', async () => {
    const message = await failure('bad.osm.gz', gzipSync('<osm>\n\n<node id="x"/></osm>'));
    expect(message).toMatch(/line 3, byte 7 of the decompressed XML: bad node id "x"/);
  });

  it('refuses a truncated gzip file, saying how far it got', async () => {
    const whole = await readFile(sharedData('osm', 'graphhopper-krautsand.osm.gz'));
    const message = await failure('truncated.osm.gz', whole.subarray(0, 40_000));
    expect(message).toMatch(/^truncated gzip file .*truncated\.osm\.gz: unexpected end of file after 40000 of its bytes \(\d+ bytes of XML, to line \d+, were read\)$/);
  });

  it('refuses a .gz file that is not gzip', async () => {
    expect(await failure('plain.osm.gz', '<osm/>')).toMatch(/^corrupt gzip file .*: incorrect header check/);
  });

  it('refuses files that are neither PBF nor XML, empty or missing', async () => {
    expect(await failure('random.osm', 'hello world')).toMatch(/is neither OSM PBF \(no OSMHeader blob at its start\) nor XML/);
    expect(await failure('empty.osm', '')).toMatch(/is empty/);
    const missing = path.join(dir, 'missing.osm');
    await expect(readOsmFile(missing, {})).rejects.toThrow(new InvalidInputError(`OSM file not found: ${missing}`));
  });

  it('lets a handler error through unchanged', async () => {
    const file = await fileOf('handler.osm', INLINE);
    const boom = new Error('handler failed');
    await expect(readOsmXml(file, { way: () => { throw boom; } })).rejects.toBe(boom);
  });
});

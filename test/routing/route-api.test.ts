import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { pointAtFraction } from '../../engines/routing/route-geometry.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import type { Answer } from '../support/answer.ts';
import { ApiStack } from '../support/api-stack.ts';
import { sharedData } from '../support/paths.ts';
import { decodePolyline6 } from '../../lib/geo/polyline6.ts';

const WATERFRONT = '-123.1115,49.2856';
const MAIN_STREET = '-123.1003,49.2680';
const HARBOUR = '-123.1150,49.2950'; // Burrard Inlet, about 700 m from the nearest road
const OPEN_WATER = '-123.5000,49.2000'; // Strait of Georgia: no road within 5 km

let stack: ApiStack;
let beforeRelease: Answer;

beforeAll(async () => {
  stack = await ApiStack.create('routing_api', { MATRIX_ENABLED: '1' });
  await stack.start();
  beforeRelease = await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}`);
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.enable(release);
  await stack.waitForRelease(release.id, ROADS_KIND);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const route = (query: string) => stack.get(`/route?${query}`);
const lineMetres = (coordinates: [number, number][]) =>
  coordinates.slice(1).reduce((sum, p, i) => sum + haversineMetres(coordinates[i]![0], coordinates[i]![1], p[0], p[1]), 0);

describe('GET /route', () => {
  it('answers 503 naming routing while no road graph is enabled', () => {
    expect(beforeRelease.status).toBe(503);
    expect(beforeRelease.body).toEqual({ error: 'routing temporarily unavailable', code: 'service_unavailable', retryable: true });
    expect(beforeRelease.headers['retry-after']).toBe('5');
  });

  it('routes by car: whole metres and seconds, a six-decimal line as long as the distance, no warnings member', async () => {
    const answer = await route(`from=${WATERFRONT}&to=${MAIN_STREET}`);
    expect(answer.status).toBe(200);
    const { distanceMeters, durationSeconds, geometry, warnings } = answer.body;
    expect(Number.isInteger(distanceMeters) && Number.isInteger(durationSeconds)).toBe(true);
    expect(warnings).toBeUndefined();
    expect(geometry.type).toBe('LineString');
    for (const [lng, lat] of geometry.coordinates) {
      expect(Math.abs(lng * 1e6 - Math.round(lng * 1e6))).toBeLessThan(1e-6);
      expect(Math.abs(lat * 1e6 - Math.round(lat * 1e6))).toBeLessThan(1e-6);
    }
    expect(Math.abs(lineMetres(geometry.coordinates) - distanceMeters)).toBeLessThan(0.01 * distanceMeters + 2);
    expect(distanceMeters).toBeGreaterThan(haversineMetres(-123.1115, 49.2856, -123.1003, 49.268));
    // Downtown at city speeds: between 15 and 60 km/h on average.
    expect(distanceMeters / durationSeconds).toBeGreaterThan(15 / 3.6);
    expect(distanceMeters / durationSeconds).toBeLessThan(60 / 3.6);
    expect((await route(`from=${WATERFRONT}&to=${MAIN_STREET}&mode=car`)).body).toEqual(answer.body);
  });

  it('walks and cycles at their own paces, the reverse trip too', async () => {
    const walk = (await route(`from=${WATERFRONT}&to=${MAIN_STREET}&mode=pedestrian`)).body;
    const cycle = (await route(`from=${WATERFRONT}&to=${MAIN_STREET}&mode=bicycle&use_hills=0.2`)).body;
    expect(walk.distanceMeters / walk.durationSeconds).toBeCloseTo(5 / 3.6, 1);
    expect(cycle.distanceMeters / cycle.durationSeconds).toBeCloseTo(18 / 3.6, 1);
    const back = await route(`from=${MAIN_STREET}&to=${WATERFRONT}&mode=pedestrian`);
    expect(back.status).toBe(200);
    expect(Math.abs(back.body.distanceMeters - walk.distanceMeters)).toBeLessThan(0.1 * walk.distanceMeters);
  });

  it('reports a relocated end with its distance, and gives up with 422 when no road is within reach', async () => {
    const answer = await route(`from=${WATERFRONT}&to=${HARBOUR}`);
    expect(answer.status).toBe(200);
    const [warning] = answer.body.warnings;
    expect(warning).toMatchObject({ code: 'ENDPOINT_RELOCATED', where: 'destination' });
    const end = answer.body.geometry.coordinates.at(-1);
    const metres = Math.round(haversineMetres(-123.115, 49.295, end[0], end[1]));
    expect(warning.message).toContain(`${metres} m`);
    expect(answer.body.warnings).toHaveLength(1);
    expect(await route(`from=${OPEN_WATER}&to=${WATERFRONT}`)).toMatchObject({ status: 422, body: { error: 'no route', code: 'no_route' } });
  });

  it('keeps a truck under its height: the 4.4 m clearance on the Trans-Canada is passed at 4.0 m, never at 4.5 m', async () => {
    // The one signed clearance of the extract: from the middle of the motorway edge before it to the middle of the one after.
    const trip = await stack.server!.app.releases.use(ROADS_KIND, async ({ graph }: RoadNetwork) => {
      const a = graph.arrays;
      const clearance = a.edgeMaxHeight.findIndex((tenths) => tenths === 44);
      const source = graph.edgeSource(clearance);
      const target = graph.edgeTarget(clearance);
      const before = a.edgeTarget.findIndex((t, e) => t === source && a.edgeClass[e] === a.edgeClass[clearance]);
      const { start, end } = graph.edgesOf(target);
      const after = Array.from({ length: end - start }, (_, k) => start + k).find((e) => a.edgeClass[e] === a.edgeClass[clearance] && e !== graph.reverseEdge(clearance))!;
      return { from: pointAtFraction(graph, before, 0.5), to: pointAtFraction(graph, after, 0.5), clearance: [graph.nodeLngLat(source), graph.nodeLngLat(target)] };
    });
    const passes = (line: number[][]) => line.some((p, i) => i > 0 && p[0] === trip.clearance[1]![0] && p[1] === trip.clearance[1]![1]
      && line[i - 1]![0] === trip.clearance[0]![0] && line[i - 1]![1] === trip.clearance[0]![1]);
    const query = `from=${trip.from.join(',')}&to=${trip.to.join(',')}&mode=truck`;
    const low = await route(`${query}&height=4`);
    const high = await route(`${query}&height=4.5`);
    expect(low.status).toBe(200);
    expect(passes(low.body.geometry.coordinates)).toBe(true);
    expect(high.status === 422 || !passes(high.body.geometry.coordinates)).toBe(true);
    if (high.status === 200) expect(high.body.durationSeconds).toBeGreaterThan(low.body.durationSeconds);
    expect(low.body.truck.validation).toEqual({ compliant: true, endpointsReached: true, findings: [] });
    expect((await route(`from=${WATERFRONT}&to=${MAIN_STREET}`)).body.truck).toBeUndefined();
  });

  it('repeats relocation findings in truck.validation', async () => {
    const answer = await route(`from=${WATERFRONT}&to=${HARBOUR}&mode=truck&hazmat=true&axle_count=3`);
    expect(answer.status).toBe(200);
    expect(answer.body.truck.validation).toMatchObject({ compliant: true, endpointsReached: false, findings: [answer.body.warnings[0]] });
  });

  it('warns of closures within 250 m from the stored snapshots: in force, and scheduled with effectiveFrom', async () => {
    const line = (await route(`from=${WATERFRONT}&to=${MAIN_STREET}`)).body.geometry.coordinates as [number, number][];
    const [lng, lat] = line[Math.floor(line.length / 2)]!;
    const point = (dLat: number) => JSON.stringify({ type: 'Point', coordinates: [lng, lat + dLat] });
    const later = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000).toISOString();
    await stack.pool.query(
      `INSERT INTO road_closures (jurisdiction, source_id, road, direction, description, windows, geometry, minlon, minlat, maxlon, maxlat, content_hash, fetched_at)
       VALUES ('CA-BC', 'test/now', 'Main Street', 'both', 'water main break', '[[null, null]]', $1, $3, $4, $3, $4, 'x', now()),
              ('CA-BC', 'test/later', 'Main Street', 'both', 'paving', $5, $2, $3, $6, $3, $6, 'x', now()),
              ('CA-BC', 'test/far', 'Other Street', 'both', 'far away', '[[null, null]]', $7, $3, $8, $3, $8, 'x', now())`,
      [point(0.0009), point(-0.0009), lng, lat + 0.0009, JSON.stringify([[later, null]]), lat - 0.0009, point(0.03), lat + 0.03],
    );
    stack.server!.app.closureSnapshots.invalidate(); // the API's copy would see them within CLOSURE_CACHE_TTL_MS
    try {
      const warnings = (await route(`from=${WATERFRONT}&to=${MAIN_STREET}`)).body.warnings;
      expect(warnings.map((w: { code: string }) => w.code)).toEqual(['CLOSURE_IN_FORCE_NEAR_ROUTE', 'CLOSURE_SCHEDULED_NEAR_ROUTE']);
      expect(warnings[0]).toMatchObject({ where: 'Main Street', message: expect.stringContaining('water main break') });
      expect(warnings[0].effectiveFrom).toBeUndefined();
      expect(Date.parse(warnings[1].effectiveFrom)).toBe(Date.parse(later));
    } finally {
      await stack.pool.query(`DELETE FROM road_closures WHERE source_id LIKE 'test/%'`);
      stack.server!.app.closureSnapshots.invalidate();
    }
  });
});

describe('GET /route?geometry_format=polyline6', () => {
  it('answers the default answer\'s members with the same positions as an encoded polyline', async () => {
    for (const query of [`from=${WATERFRONT}&to=${MAIN_STREET}`, `from=${HARBOUR}&to=${MAIN_STREET}&mode=truck`]) {
      const plain = await route(query);
      const encoded = await route(`${query}&geometry_format=polyline6`);
      const same = await route(`${query}&geometry_format=geojson`);
      expect(plain.status).toBe(200);
      expect(same.body).toEqual(plain.body);
      expect(encoded.status).toBe(200);
      const { geometry, ...members } = encoded.body as { geometry: string };
      const { geometry: line, ...plainMembers } = plain.body as { geometry: { coordinates: [number, number][] } };
      expect(members).toEqual(plainMembers);
      expect(typeof geometry).toBe('string');
      expect(Array.from(decodePolyline6(geometry), (v) => v / 1e6)).toEqual(line.coordinates.flat());
      expect(encoded.text.length).toBeLessThan(plain.text.length / 2);
    }
  });
});

describe('GET /route refusals (volume 3 "Routing", volume 1 codes)', () => {
  const ok = `from=${WATERFRONT}&to=${MAIN_STREET}`;
  const cases: [string, string, string][] = [
    ['from=-123.1&to=-123.1,49.28', 'invalid_location', 'from and to must be lng,lat'],
    ['from=-123.1,49.28,10&to=-123.1,49.28', 'invalid_location', 'from and to must be lng,lat'],
    ['to=-123.1,49.28', 'invalid_location', 'from and to must be lng,lat'],
    ['from=NaN,49.28&to=-123.1,49.28', 'invalid_location', 'from and to must be lng,lat'],
    ['from=-123.1,91&to=-123.1,49.28', 'invalid_location', 'from and to must be lng,lat'],
    [`${ok}&mode=bike`, 'invalid_mode', 'mode must be one of auto, car, bicycle, pedestrian, truck, transit'],
    [`${ok}&mode=bicycle&avoid=tolls`, 'invalid_route_option', 'avoid=tolls applies only to mode=auto, car, or truck'],
    [`${ok}&mode=pedestrian&avoid=highways`, 'invalid_route_option', 'avoid=highways applies only to mode=auto, car, or truck'],
    [`${ok}&avoid=`, 'invalid_route_option', 'avoid must be a comma list of tolls, highways, ferries, without empty items'],
    [`${ok}&avoid=tolls,boats`, 'invalid_route_option', 'avoid must be a comma list of tolls, highways, ferries; unknown value "boats"'],
    [`${ok}&avoid=highways&use_highways=0.3`, 'invalid_route_option', 'avoid=highways cannot be combined with use_highways'],
    [`${ok}&mode=pedestrian&use_highways=0.3`, 'invalid_route_option', 'use_highways applies only to mode=auto, car, or truck'],
    [`${ok}&use_highways=1.5`, 'invalid_route_option', 'use_highways must be a number between 0 and 1'],
    [`${ok}&use_hills=0.5`, 'invalid_route_option', 'use_hills applies only to mode=bicycle or pedestrian'],
    [`${ok}&mode=truck&use_hills=0.5`, 'invalid_route_option', 'use_hills applies only to mode=bicycle or pedestrian'],
    [`${ok}&height=4`, 'invalid_route_option', 'height applies only to mode=truck'],
    [`${ok}&mode=bicycle&hazmat=true`, 'invalid_route_option', 'hazmat applies only to mode=truck'],
    [`${ok}&mode=truck&height=11`, 'invalid_route_option', 'height must be a number greater than 0 and at most 10'],
    [`${ok}&mode=truck&width=0`, 'invalid_route_option', 'width must be a number greater than 0 and at most 6'],
    [`${ok}&mode=truck&axle_count=1`, 'invalid_route_option', 'axle_count must be an integer between 2 and 20'],
    [`${ok}&mode=truck&axle_count=2.5`, 'invalid_route_option', 'axle_count must be an integer between 2 and 20'],
    [`${ok}&mode=truck&axle_load=41`, 'invalid_route_option', 'axle_load must be a number between 0 and 40'],
    [`${ok}&mode=truck&hazmat=maybe`, 'invalid_route_option', 'hazmat must be true or false'],
    [`${ok}&mode=truck&use_truck_route=2`, 'invalid_route_option', 'use_truck_route must be a number between 0 and 1'],
    [`${ok}&depart_at=2026-03-08T08:30`, 'invalid_route_option', 'depart_at applies only to mode=transit'],
    [`${ok}&mode=transit`, 'invalid_route_option', 'depart_at is required for mode=transit'],
    [`${ok}&mode=transit&depart_at=tomorrow`, 'invalid_route_option', 'depart_at must be an ISO 8601 date-time, e.g. 2026-03-08T08:30 or 2026-03-08T08:30:00-05:00'],
    [`${ok}&mode=transit&depart_at=2026-03-08T08:30&avoid=ferries`, 'invalid_route_option', 'avoid does not apply to mode=transit'],
    [`${ok}&geometry_format=wkt`, 'invalid_route_option', 'geometry_format must be one of geojson, polyline6'],
    [`${ok}&geometry_format=polyline6&geometry_format=geojson`, 'invalid_route_option', 'geometry_format must be one of geojson, polyline6'],
    [`${ok}&mode=transit&depart_at=2026-03-08T08:30&geometry_format=polyline6`, 'invalid_route_option', 'geometry_format applies only to road modes'],
  ];
  it.each(cases)('%s → 400 %s', async (query, code, error) => {
    expect(await route(query)).toMatchObject({ status: 400, body: { error, code } });
  });

  it('answers transit without an enabled transit release with 503 routing temporarily unavailable', async () => {
    const answer = await route(`${ok}&mode=transit&depart_at=2026-03-08T08:30:00-05:00`);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: 'routing temporarily unavailable', code: 'service_unavailable' });
  });
});

import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costModel } from '../../engines/routing/cost-model.ts';
import { locate } from '../../engines/routing/locate.ts';
import { arrivalByEdge, reachWithin } from '../../engines/routing/reach.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { ApiStack } from '../support/api-stack.ts';
import { sharedData } from '../support/paths.ts';

const WATERFRONT: [number, number] = [-123.1115, 49.2856];
const LONSDALE_QUAY: [number, number] = [-123.0826, 49.3100]; // across Burrard Inlet: the SeaBus, or a long walk over a bridge
const MAIN_STREET: [number, number] = [-123.1003, 49.268];
const KITSILANO: [number, number] = [-123.155, 49.268];

let stack: ApiStack;
let unflagged: ApiStack;

beforeAll(async () => {
  stack = await ApiStack.create('routing_iso', { MATRIX_ENABLED: '1' });
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.start();
  await stack.enable(release);
  unflagged = await ApiStack.create('routing_no_matrix');
  await unflagged.start();
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await unflagged?.close();
});

type Feature = { geometry: Parameters<typeof booleanPointInPolygon>[1]; properties: Record<string, unknown> };
const inside = (feature: Feature, point: [number, number]) => booleanPointInPolygon(point, feature.geometry);

describe('GET /isochrone', () => {
  it('answers geo+json, one feature per band, largest first, with the styling properties', async () => {
    const answer = await stack.get(`/isochrone?lon=${WATERFRONT[0]}&lat=${WATERFRONT[1]}&minutes=2.5,10,5`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/geo\+json/);
    const features = answer.body.features as Feature[];
    expect(features.map((f) => f.properties.contour)).toEqual([10, 5, 2.5]);
    for (const f of features) {
      expect(['Polygon', 'MultiPolygon']).toContain((f.geometry as { type: string }).type);
      expect(f.properties).toMatchObject({ metric: 'time', color: expect.any(String), opacity: expect.any(Number), fill: expect.any(String), fillColor: expect.any(String), fillOpacity: expect.any(Number), 'fill-opacity': expect.any(Number) });
      expect(inside(f, WATERFRONT)).toBe(true);
    }
  });

  it('covers what the search reaches well within each band and leaves out what it reaches only much later', async () => {
    const minutes = 6;
    const feature = (await stack.get(`/isochrone?lon=${WATERFRONT[0]}&lat=${WATERFRONT[1]}&minutes=${minutes}`)).body.features[0] as Feature;
    const { well, late } = await stack.server!.app.releases.use(ROADS_KIND, async ({ graph, snap }: RoadNetwork) => {
      const model = costModel(graph, 'auto');
      const start = locate(snap, model, WATERFRONT)!;
      const arrival = arrivalByEdge(reachWithin(model, start.endpoint, 3 * minutes * 60, graphTurnRule(graph, 'auto')), graph.edgeCount);
      const points = (keep: (seconds: number) => boolean) => Array.from({ length: graph.edgeCount }, (_, e) => e)
        .filter((e) => keep(arrival[e]!)).map((e) => graph.nodeLngLat(graph.edgeTarget(e)));
      return { well: points((s) => s <= 0.8 * minutes * 60), late: points((s) => s >= 1.5 * minutes * 60 && s < Infinity) };
    });
    expect(well.length).toBeGreaterThan(100);
    expect(late.length).toBeGreaterThan(100);
    expect(well.filter((p) => inside(feature, p)).length / well.length).toBeGreaterThan(0.99);
    expect(late.filter((p) => !inside(feature, p)).length / late.length).toBeGreaterThan(0.95);
  });

  it('with avoid=ferries gives the area reachable without a ferry: the SeaBus brings Lonsdale Quay within 50 minutes on foot only with ferries', async () => {
    const query = `/isochrone?lon=${WATERFRONT[0]}&lat=${WATERFRONT[1]}&minutes=50&mode=pedestrian`;
    const withFerries = (await stack.get(query)).body.features[0] as Feature;
    const withoutFerries = (await stack.get(`${query}&avoid=ferries`)).body.features[0] as Feature;
    expect(inside(withFerries, LONSDALE_QUAY)).toBe(true);
    expect(inside(withoutFerries, LONSDALE_QUAY)).toBe(false);
    expect(inside(withoutFerries, WATERFRONT)).toBe(true);
  });

  const ok = `lon=${WATERFRONT[0]}&lat=${WATERFRONT[1]}`;
  it.each([
    ['lat=49.28&minutes=10', 'invalid_location', 'lon, lat and minutes required'],
    [`${ok}`, 'invalid_location', 'lon, lat and minutes required'],
    [`lon=&lat=49.28&minutes=10`, 'invalid_location', 'lon, lat and minutes required'],
    [`lon=abc&lat=49.28&minutes=10`, 'invalid_location', 'lon, lat and minutes required'],
    [`${ok}&minutes=1,2,3,4,5`, 'invalid_route_option', 'at most 4 minutes contours'],
    [`${ok}&minutes=10,121`, 'invalid_route_option', 'minutes must be 120 or less'],
    [`${ok}&minutes=0,-5,abc`, 'invalid_route_option', 'lon, lat and minutes required'],
    [`${ok}&minutes=10&mode=transit`, 'invalid_mode', 'mode must be one of auto, car, bicycle, pedestrian, truck'],
    [`${ok}&minutes=10&mode=pedestrian&use_highways=1`, 'invalid_route_option', 'use_highways applies only to mode=auto, car, or truck'],
    [`${ok}&minutes=10&weight=30`, 'invalid_route_option', 'weight applies only to mode=truck'],
  ])('%s → 400 %s', async (query, code, error) => {
    expect(await stack.get(`/isochrone?${query}`)).toMatchObject({ status: 400, body: { error, code } });
  });

  it('drops non-positive and non-finite bands silently and keeps the rest', async () => {
    const answer = await stack.get(`/isochrone?${ok}&minutes=0,3,-2,NaN`);
    expect(answer.status).toBe(200);
    expect(answer.body.features.map((f: Feature) => f.properties.contour)).toEqual([3]);
  });
});

describe('POST /matrix', () => {
  const points = [WATERFRONT, MAIN_STREET, KITSILANO];

  it('answers row-major durations and distances, 0 on the diagonal, each cell the /route answer for its pair', async () => {
    const answer = await stack.post('/matrix', { origins: points, destinations: points });
    expect(answer.status).toBe(200);
    const { durations, distances } = answer.body;
    expect(durations).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(durations[i][i]).toBe(0);
      expect(distances[i][i]).toBe(0);
      for (let j = 0; j < 3; j++) {
        if (i === j) continue;
        const route = (await stack.get(`/route?from=${points[i]!.join(',')}&to=${points[j]!.join(',')}`)).body;
        expect(durations[i][j]).toBe(route.durationSeconds);
        expect(distances[i][j]).toBe(route.distanceMeters);
      }
    }
    const truck = await stack.post('/matrix', { origins: [WATERFRONT], destinations: [KITSILANO], mode: 'truck', height: 4.2, avoid: ['tolls'] });
    expect(truck.status).toBe(200);
    expect(truck.body.durations[0][0]).toBeGreaterThan(0);
  });

  it('fails as a whole with 422 when any point cannot be reached', async () => {
    const answer = await stack.post('/matrix', { origins: [WATERFRONT], destinations: [MAIN_STREET, [-123.5, 49.2]] });
    expect(answer).toMatchObject({ status: 422, body: { error: 'no route', code: 'no_route' } });
  });

  it.each([
    ['{"origins": [', 'invalid_body', 'body must be a JSON object (Content-Type: application/json)'],
    [{ origins: [WATERFRONT] }, 'invalid_location', 'destinations is required'],
    [[WATERFRONT], 'invalid_body', 'body must be object'],
    [{ origins: [[1]], destinations: [WATERFRONT] }, 'invalid_location', 'origins[0] must be [lng, lat]'],
    [{ origins: [[-123.1, 95]], destinations: [WATERFRONT] }, 'invalid_location', 'origins[0] must be [lng, lat] with lng between -180 and 180 and lat between -90 and 90'],
    [{ origins: [], destinations: [WATERFRONT] }, 'invalid_location', 'origins must be an array of [lng, lat] pairs'],
    [{ origins: Array(11).fill(WATERFRONT), destinations: [WATERFRONT] }, 'too_many_locations', 'at most 10 origins and 10 destinations'],
    [{ origins: [WATERFRONT], destinations: [WATERFRONT], mode: 'transit' }, 'invalid_mode', 'mode must be one of auto, car, bicycle, pedestrian, truck'],
    [{ origins: [WATERFRONT], destinations: [WATERFRONT], avoid: ['tolls'], mode: 'bicycle' }, 'invalid_route_option', 'avoid=tolls applies only to mode=auto, car, or truck'],
    [{ origins: [WATERFRONT], destinations: [WATERFRONT], height: 20, mode: 'truck' }, 'invalid_route_option', 'height must be a number greater than 0 and at most 10'],
  ])('%j → 400 %s', async (body, code, error) => {
    expect(await stack.post('/matrix', body)).toMatchObject({ status: 400, body: { error, code } });
  });

  it('refuses a body that is not JSON or too large with invalid_body', async () => {
    expect(await stack.post('/matrix', 'origins', { 'content-type': 'text/plain' })).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    const huge = { origins: [WATERFRONT], destinations: [WATERFRONT], pad: 'x'.repeat(70_000) };
    expect(await stack.post('/matrix', huge)).toMatchObject({ status: 400, body: { error: 'body is too large', code: 'invalid_body' } });
  });

  it('is not there when the deployment has not turned it on: the same 404 as an unserved path', async () => {
    const off = await unflagged.post('/matrix', { origins: [WATERFRONT], destinations: [WATERFRONT] });
    const unserved = await unflagged.post('/no-such-path', { origins: [WATERFRONT] });
    expect(off.status).toBe(404);
    expect(off.text).toBe('Not Found');
    expect({ ...off.headers, date: null, 'x-request-id': null }).toEqual({ ...unserved.headers, date: null, 'x-request-id': null });
  });
});

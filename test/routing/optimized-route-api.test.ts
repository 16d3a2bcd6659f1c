/**
 * POST /optimized-route over the real Vancouver roads release through the whole API: the order,
 * the legs (each the /route answer for its pair, joined end to start), the sums, the round trip,
 * relocation warnings, every 400 / 422 / 503; and the solver over real Vancouver matrices (exact
 * against brute force up to 9 stops, within 2 % of 50 random restarts from 15 to 50 stops).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costModel } from '../../engines/routing/cost-model.ts';
import { locate } from '../../engines/routing/locate.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { orderStops } from '../../engines/routing/stop-order/solve.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { ApiStack } from '../support/api-stack.ts';
import { sharedData } from '../support/paths.ts';
import { ALL_ENDS, bestOfRandomRestarts, bruteForce } from '../support/routing/stop-order-reference.ts';
import { vancouverMatrix, vancouverStops } from '../support/routing/stop-order-vancouver.ts';

const WATERFRONT: LngLat = [-123.1115, 49.2856];
const MAIN_STREET: LngLat = [-123.1003, 49.268];
const KITSILANO: LngLat = [-123.155, 49.268];
const COMMERCIAL_DRIVE: LngLat = [-123.0695, 49.2700];
const OAKRIDGE: LngLat = [-123.1167, 49.2262];
const WEST_END: LngLat = [-123.1365, 49.2870];
const KERRISDALE: LngLat = [-123.1560, 49.2340];
const STRAIT: LngLat = [-123.5, 49.2]; // no road within 5 km
const STOPS = [WATERFRONT, KITSILANO, COMMERCIAL_DRIVE, OAKRIDGE, WEST_END, KERRISDALE, MAIN_STREET];

let stack: ApiStack;
let bare: ApiStack;

beforeAll(async () => {
  stack = await ApiStack.create('routing_optimized');
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.start();
  await stack.enable(release);
  bare = await ApiStack.create('routing_optimized_bare');
  await bare.start();
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await bare?.close();
});

const withNetwork = <T>(work: (network: RoadNetwork) => T): Promise<T> =>
  stack.server!.app.releases.use(ROADS_KIND, async (network: RoadNetwork) => work(network));

type Position = [number, number];
interface Leg { from: number; to: number; distanceMeters: number; durationSeconds: number; geometry: { type: string; coordinates: Position[] } }

const near = (a: Position, b: Position) => Math.abs(a[0] - b[0]) <= 2e-6 && Math.abs(a[1] - b[1]) <= 2e-6;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The answer's legs follow its order, join end to start, and add up to its members. */
function expectConsistent(body: { order: number[]; distanceMeters: number; durationSeconds: number; geometry: { type: string; coordinates: Position[] }; legs: Leg[] }, roundTrip: boolean): void {
  const { order, legs } = body;
  expect(legs).toHaveLength(roundTrip ? order.length : order.length - 1);
  legs.forEach((leg, k) => {
    expect([leg.from, leg.to]).toEqual([order[k], order[(k + 1) % order.length]]);
    expect(leg.geometry.type).toBe('LineString');
    expect(leg.geometry.coordinates.length).toBeGreaterThanOrEqual(2);
    if (k > 0) expect(near(leg.geometry.coordinates[0]!, legs[k - 1]!.geometry.coordinates.at(-1)!)).toBe(true);
  });
  expect(body.distanceMeters).toBe(sum(legs.map((l) => l.distanceMeters)));
  expect(body.durationSeconds).toBe(sum(legs.map((l) => l.durationSeconds)));
  const joined: Position[] = [];
  for (const leg of legs) {
    const [first, ...rest] = leg.geometry.coordinates;
    const last = joined.at(-1);
    if (!last || last[0] !== first![0] || last[1] !== first![1]) joined.push(first!);
    joined.push(...rest);
  }
  expect(body.geometry).toEqual({ type: 'LineString', coordinates: joined });
  for (const [lng, lat] of joined) {
    expect(Number(lng.toFixed(6))).toBe(lng);
    expect(Number(lat.toFixed(6))).toBe(lat);
  }
}

describe('POST /optimized-route', () => {
  it('orders the stops from the first to the last, each leg the /route answer for its pair, the order the least total time', async () => {
    const answer = await stack.post('/optimized-route', { stops: STOPS });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const { order, legs } = answer.body as { order: number[]; legs: Leg[] };
    expect(order[0]).toBe(0);
    expect(order.at(-1)).toBe(STOPS.length - 1);
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(answer.body.warnings).toBeUndefined();
    expectConsistent(answer.body, false);
    for (const leg of legs) {
      const route = (await stack.get(`/route?from=${STOPS[leg.from]!.join(',')}&to=${STOPS[leg.to]!.join(',')}`)).body;
      expect([leg.distanceMeters, leg.durationSeconds]).toEqual([route.distanceMeters, route.durationSeconds]);
    }
    const { start, d } = await withNetwork((network) => ({
      start: locate(network.snap, costModel(network.graph, 'auto'), STOPS[0]!)!.point,
      d: vancouverMatrix(network, STOPS),
    }));
    expect(near(answer.body.geometry.coordinates[0], start)).toBe(true);
    const best = bruteForce(d, { start: 'first', end: 'last' });
    const chosen = sum(order.slice(1).map((to, k) => d[order[k]!]![to]!));
    expect(chosen).toBeCloseTo(best.cost, 6);
    // Rounded per leg: within half a second a leg of the optimum.
    expect(Math.abs(answer.body.durationSeconds - best.cost)).toBeLessThanOrEqual(legs.length / 2);
  });

  it('takes stops as {lng, lat} objects too, with the same answer', async () => {
    const pairs = await stack.post('/optimized-route', { stops: STOPS.slice(0, 4) });
    const objects = await stack.post('/optimized-route', { stops: STOPS.slice(0, 4).map(([lng, lat]) => ({ lng, lat })) });
    expect(objects.status).toBe(200);
    expect(objects.body).toEqual(pairs.body);
  });

  it('a round trip returns to the first stop without repeating it in the order', async () => {
    const answer = await stack.post('/optimized-route', { stops: STOPS, end: 'first' });
    expect(answer.status).toBe(200);
    const { order, legs, geometry } = answer.body as { order: number[]; legs: Leg[]; geometry: { coordinates: Position[] } };
    expect(order).toHaveLength(STOPS.length);
    expect(order[0]).toBe(0);
    expect(legs.at(-1)!.to).toBe(0);
    expect(near(geometry.coordinates[0]!, geometry.coordinates.at(-1)!)).toBe(true);
    expectConsistent(answer.body, true);
    const d = await withNetwork((network) => vancouverMatrix(network, STOPS));
    expect(sum(order.map((s, k) => d[s]![order[(k + 1) % order.length]!]!))).toBeCloseTo(bruteForce(d, { start: 'first', end: 'first' }).cost, 6);
  });

  it('with start and end any is no longer than the fixed-end orders, and a truck or a cyclist gets its own order', async () => {
    const free = await stack.post('/optimized-route', { stops: STOPS, start: 'any', end: 'any' });
    const fixed = await stack.post('/optimized-route', { stops: STOPS });
    expect(free.status).toBe(200);
    expectConsistent(free.body, false);
    expect(free.body.durationSeconds).toBeLessThanOrEqual(fixed.body.durationSeconds + STOPS.length);
    const truck = await stack.post('/optimized-route', { stops: STOPS.slice(0, 5), mode: 'truck', height: 4.2, avoid: ['tolls'] });
    expect(truck.status).toBe(200);
    expectConsistent(truck.body, false);
    const bicycle = await stack.post('/optimized-route', { stops: STOPS.slice(0, 5), mode: 'bicycle', use_hills: 0.2, end: 'first' });
    expect(bicycle.status).toBe(200);
    expectConsistent(bicycle.body, true);
    expect(bicycle.body.durationSeconds).toBeGreaterThan(truck.body.durationSeconds);
  });

  it('orders 25 stops with the heuristic: a permutation, consistent legs', async () => {
    const stops = await withNetwork((network) => vancouverStops(network, 25, 11));
    const answer = await stack.post('/optimized-route', { stops, start: 'first', end: 'any' });
    expect(answer.status).toBe(200);
    expect([...answer.body.order].sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expectConsistent(answer.body, false);
  });

  it('warns ENDPOINT_RELOCATED naming the stop reached more than 50 m away', async () => {
    const offshore = await withNetwork((network) => {
      const model = costModel(network.graph, 'auto');
      for (let k = 1; k < 200; k++) {
        const p: LngLat = [WATERFRONT[0], Number((WATERFRONT[1] + k * 0.0002).toFixed(6))];
        const hit = locate(network.snap, model, p);
        if (hit && hit.distanceMetres > 80 && hit.distanceMetres < 2000) return p;
      }
      throw new Error('no offshore point');
    });
    const answer = await stack.post('/optimized-route', { stops: [MAIN_STREET, offshore, KITSILANO] });
    expect(answer.status).toBe(200);
    expect(answer.body.warnings).toEqual([{ code: 'ENDPOINT_RELOCATED', where: 'stops[1]', message: expect.stringMatching(/^the route reaches stops\[1\] \d+ m from the requested point/) }]);
  });

  it('answers 422 no_route when a stop cannot be reached', async () => {
    const answer = await stack.post('/optimized-route', { stops: [WATERFRONT, STRAIT, MAIN_STREET] });
    expect(answer).toMatchObject({ status: 422, body: { error: 'no route', code: 'no_route' } });
  });

  it('answers 503 when no roads release is enabled', async () => {
    const answer = await bare.post('/optimized-route', { stops: [WATERFRONT, MAIN_STREET] });
    expect(answer.status).toBe(503);
  });

  const stopMessage = 'must be [lng, lat] or {"lng": n, "lat": n} with lng between -180 and 180 and lat between -90 and 90';
  it.each([
    ['{"stops": [', 'invalid_body', 'body must be a JSON object (Content-Type: application/json)'],
    [[WATERFRONT, MAIN_STREET], 'invalid_body', 'body must be object'],
    [{}, 'invalid_location', 'stops is required'],
    [{ stops: 'a' }, 'invalid_location', 'stops must be an array of 2 to 50 stops, each [lng, lat] or {"lng": n, "lat": n}'],
    [{ stops: [WATERFRONT] }, 'invalid_location', 'stops must be an array of 2 to 50 stops, each [lng, lat] or {"lng": n, "lat": n}'],
    [{ stops: [WATERFRONT, [1]] }, 'invalid_location', `stops[1] ${stopMessage}`],
    [{ stops: [WATERFRONT, MAIN_STREET, [-123.1, 95]] }, 'invalid_location', `stops[2] ${stopMessage}`],
    [{ stops: [WATERFRONT, { lng: -123.1 }] }, 'invalid_location', `stops[1] ${stopMessage}`],
    [{ stops: [WATERFRONT, ['-123.1', '49.2']] }, 'invalid_location', `stops[1] ${stopMessage}`],
    [{ stops: [null, WATERFRONT] }, 'invalid_location', `stops[0] ${stopMessage}`],
    [{ stops: Array(51).fill(WATERFRONT) }, 'too_many_locations', 'at most 50 stops'],
    [{ stops: [WATERFRONT, MAIN_STREET], start: 'any', end: 'first' }, 'invalid_route_option', 'end=first (a round trip back to the start) needs start=first'],
    [{ stops: [WATERFRONT, MAIN_STREET], start: 'middle' }, 'invalid_route_option', 'start must be one of first, any'],
    [{ stops: [WATERFRONT, MAIN_STREET], end: 'last stop' }, 'invalid_route_option', 'end must be one of last, first, any'],
    [{ stops: [WATERFRONT, MAIN_STREET], mode: 'transit' }, 'invalid_mode', 'mode must be one of auto, car, bicycle, pedestrian, truck'],
    [{ stops: [WATERFRONT, MAIN_STREET], mode: 'bicycle', avoid: ['tolls'] }, 'invalid_route_option', 'avoid=tolls applies only to mode=auto, car, or truck'],
    [{ stops: [WATERFRONT, MAIN_STREET], weight: 30 }, 'invalid_route_option', 'weight applies only to mode=truck'],
    [{ stops: [WATERFRONT, MAIN_STREET], mode: 'truck', height: 20 }, 'invalid_route_option', 'height must be a number greater than 0 and at most 10'],
  ])('%j → 400 %s', async (body, code, error) => {
    expect(await stack.post('/optimized-route', body)).toMatchObject({ status: 400, body: { error, code } });
  });

  it('refuses a missing body, one that is not JSON, and one over 64 KiB with invalid_body', async () => {
    expect(await stack.post('/optimized-route', '')).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    expect(await stack.post('/optimized-route', 'stops', { 'content-type': 'text/plain' })).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    const huge = { stops: [WATERFRONT, MAIN_STREET], pad: 'x'.repeat(70_000) };
    expect(await stack.post('/optimized-route', huge)).toMatchObject({ status: 400, body: { error: 'body is too large', code: 'invalid_body' } });
  });
});

describe('orderStops over real Vancouver matrices', () => {
  it('equals brute force on every instance of 3 to 9 stops, for each start/end rule', async () => {
    for (const n of [3, 5, 7, 9]) {
      for (const seed of [1, 2]) {
        const d = await withNetwork((network) => vancouverMatrix(network, vancouverStops(network, n, 100 * n + seed)));
        for (const ends of ALL_ENDS) {
          const solved = orderStops(d, ends)!;
          expect(solved.cost, `n=${n} seed=${seed} ${ends.start}/${ends.end}`).toBeCloseTo(bruteForce(d, ends).cost, 6);
        }
      }
    }
  });

  it.each([15, 25, 40, 50])('is within 2 percent of the best of 50 random restarts at %i stops, for each start/end rule', async (n) => {
    const d = await withNetwork((network) => vancouverMatrix(network, vancouverStops(network, n, 7 * n)));
    for (const ends of ALL_ENDS) {
      const solved = orderStops(d, ends)!;
      const restarts = bestOfRandomRestarts(d, ends, 50, n);
      expect(solved.cost, `${ends.start}/${ends.end}: ${solved.cost} vs ${restarts}`).toBeLessThanOrEqual(restarts * 1.02);
    }
  });
});

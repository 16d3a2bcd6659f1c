import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '../../lib/errors.ts';
import { valhallaAnswer } from '../../services/routing/valhalla-answer.ts';
import { valhallaClient } from '../../io/valhalla/client.ts';
import type { ValhallaClient } from '../../engines/valhalla/call.ts';
import { ValhallaFailure } from '../../engines/valhalla/failure.ts';
import { valhallaMatch, type MatchInput } from '../../engines/valhalla/match.ts';
import { valhallaOptimizedRoute, type OptimizedRouteInput, type OrderStops } from '../../engines/valhalla/optimized-route.ts';
import { decodePolyline6 } from '../../lib/geo/polyline6.ts';
import { recorded, refusingOrigin, StandIn } from './stand-in.ts';

/** valhallaMatch and valhallaOptimizedRoute over a stand-in Valhalla, as the /match and /optimized-route handlers will call them. */
let valhalla: StandIn;
let client: ValhallaClient;

beforeAll(async () => {
  valhalla = await StandIn.start();
  client = valhallaClient({ url: valhalla.origin, timeoutMs: 300 });
});

afterAll(async () => {
  await valhalla?.close();
});

/** The HTTP answer a handler gives for what a call threw (services/routing/valhalla-answer.ts). */
async function answerOf(work: Promise<unknown>): Promise<{ status: number; code?: string; retryAfter?: string }> {
  const err = await work.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ValhallaFailure);
  const answer = valhallaAnswer(err as ValhallaFailure, () => errors.routingFailed());
  return { status: answer.statusCode, code: answer.code, ...(answer.headers['retry-after'] ? { retryAfter: answer.headers['retry-after'] } : {}) };
}

const TRACE: MatchInput['points'] = [
  { lng: -123.11149, lat: 49.28551, time: 1767254400 },
  { lng: -123.10968, lat: 49.28459, time: 1767254405 },
  { lng: -123.10791, lat: 49.28352, time: 1767254410 },
  { lng: -123.1049, lat: 49.2821, time: 1767254415 },
  { lng: -123.10337, lat: 49.28083, time: 1767254420 },
  { lng: -123.10122, lat: 49.27961, time: 1767254425 },
  { lng: -123.10089, lat: 49.27531, time: 1767254490 },
  { lng: -123.10046, lat: 49.27123, time: 1767254495 },
];
const matchInput: MatchInput = { points: TRACE, mode: 'auto', searchRadius: 40, gpsAccuracy: 8, breakageDistance: 300, options: { mode: 'auto', costs: { avoidTolls: true } } };

describe('valhallaMatch (POST /match through /trace_attributes)', () => {
  it('sends the trace with map_snap and our trace options, and cuts the match into segments, points and breaks', async () => {
    valhalla.answer('/trace_attributes', { json: recorded('trace-attributes') });
    const match = await valhallaMatch(client, matchInput);
    const [request] = valhalla.take();
    expect(request).toMatchObject({ method: 'POST', path: '/trace_attributes' });
    expect(request!.body).toMatchObject({
      shape: TRACE.map((p) => ({ lat: p.lat, lon: p.lng, time: p.time })),
      costing: 'auto',
      costing_options: { auto: { use_highways: 0.5, use_tolls: 0 } },
      shape_match: 'map_snap',
      units: 'kilometers',
      trace_options: { search_radius: 40, gps_accuracy: 8, breakage_distance: 300 },
      filters: { action: 'include' },
    });
    const answer = recorded('trace-attributes') as { edges: { length: number; speed: number }[]; shape: string };
    const metres = (edges: number[]) => edges.reduce((s, e) => s + answer.edges[e]!.length * 1000, 0);
    const seconds = (edges: number[]) => edges.reduce((s, e) => s + (answer.edges[e]!.length / answer.edges[e]!.speed) * 3600, 0);
    const shape = decodePolyline6(answer.shape);
    const at = (i: number) => [shape[2 * i]! / 1e6, shape[2 * i + 1]! / 1e6];
    const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, k) => at(a + k));

    expect(match.segments).toEqual([
      { fromPoint: 0, toPoint: 2, distanceMeters: Math.round(metres([0, 1])), durationSeconds: Math.round(seconds([0, 1])), geometry: { type: 'LineString', coordinates: range(0, 4) } },
      { fromPoint: 4, toPoint: 5, distanceMeters: Math.round(metres([2])), durationSeconds: Math.round(seconds([2])), geometry: { type: 'LineString', coordinates: range(5, 7) } },
      { fromPoint: 6, toPoint: 7, distanceMeters: Math.round(metres([3])), durationSeconds: Math.round(seconds([3])), geometry: { type: 'LineString', coordinates: range(8, 10) } },
    ]);
    expect(match.breaks).toEqual([
      { afterPoint: 2, beforePoint: 4, reason: 'unmatched' },
      { afterPoint: 5, beforePoint: 6, reason: 'gap' },
    ]);
    expect(match.geometry).toEqual({ type: 'MultiLineString', coordinates: match.segments.map((s) => s.geometry.coordinates) });
    expect(match.distanceMeters).toBe(Math.round(metres([0, 1, 2, 3])));
    expect(match.durationSeconds).toBe(Math.round(seconds([0, 1, 2, 3])));
    expect(match.points[0]).toEqual({ index: 0, matched: true, location: [-123.111453, 49.285538], edge: { id: '1938472610', osmWayId: 24560938 }, distanceMeters: 4, segment: 0 });
    expect(match.points[2]).toMatchObject({ index: 2, matched: true, edge: { id: '1938472611' }, segment: 0 });
    expect(match.points[3]).toEqual({ index: 3, matched: false });
    expect(match.points.map((p) => (p.matched ? p.segment : null))).toEqual([0, 0, 0, null, 1, 1, 2, 2]);
  });

  it('calls a break between points closer than the breakage distance unroutable; leaves time out unless every point has one', async () => {
    valhalla.answer('/trace_attributes', { json: recorded('trace-attributes') });
    const untimed = TRACE.map(({ time: _t, ...p }, i) => (i === 0 ? { ...p, time: 1767254400 } : p));
    const match = await valhallaMatch(client, { ...matchInput, points: untimed, breakageDistance: 5000 });
    expect((valhalla.take()[0]!.body as { shape: object[] }).shape.every((p) => !('time' in p))).toBe(true);
    expect(match.breaks.map((b) => b.reason)).toEqual(['unmatched', 'unroutable']);
  });

  it('answers a LineString for a single segment', async () => {
    const one = structuredClone(recorded('trace-attributes')) as { matched_points: Record<string, unknown>[] };
    one.matched_points = one.matched_points.slice(0, 3);
    valhalla.answer('/trace_attributes', { json: one });
    const match = await valhallaMatch(client, { ...matchInput, points: TRACE.slice(0, 3) });
    expect(match.geometry.type).toBe('LineString');
    expect(match.breaks).toEqual([]);
    valhalla.take();
  });

  it('fails 422 when Valhalla cannot match (444) or nothing matched; 502 on other failures; 503 on timeout and refusal', async () => {
    const none = structuredClone(recorded('trace-attributes')) as { matched_points: { type: string }[] };
    for (const p of none.matched_points) p.type = 'unmatched';
    valhalla.answer('/trace_attributes',
      { status: 400, json: recorded('error-444-map-match') }, { json: none }, { status: 400, json: recorded('error-125-costing') },
      { status: 500, json: recorded('error-199-unknown') }, { text: 'garbage' }, { json: { edges: [], matched_points: [], shape: '' } }, { hang: true });
    expect(await answerOf(valhallaMatch(client, matchInput))).toEqual({ status: 422, code: 'no_route' });
    expect(await answerOf(valhallaMatch(client, matchInput))).toEqual({ status: 422, code: 'no_route' });
    for (let i = 0; i < 4; i++) expect(await answerOf(valhallaMatch(client, matchInput))).toEqual({ status: 502, code: 'routing_failed' });
    expect(await answerOf(valhallaMatch(client, matchInput))).toEqual({ status: 503, code: 'service_unavailable', retryAfter: '5' });
    expect(valhalla.take()).toHaveLength(7);
    const nobody = valhallaClient({ url: await refusingOrigin(), timeoutMs: 300 });
    expect(await answerOf(valhallaMatch(nobody, matchInput))).toEqual({ status: 503, code: 'service_unavailable', retryAfter: '5' });
  });
});

const STOPS = [{ lng: -123.1115, lat: 49.2856 }, { lng: -123.1207, lat: 49.2827 }, { lng: -123.1089, lat: 49.2811 }, { lng: -123.1003, lat: 49.268 }];
const TRIP = { units: 'kilometers', directions_type: 'none', shape_format: 'polyline6' };
const loc = (s: { lng: number; lat: number }) => ({ lat: s.lat, lon: s.lng });
const route = (input: Partial<OptimizedRouteInput>): OptimizedRouteInput => ({ stops: STOPS, start: 'first', end: 'last', mode: 'auto', options: { mode: 'auto', costs: {} }, ...input });
const noSolver: OrderStops = () => {
  throw new Error('the solver is not called when Valhalla orders the stops');
};

describe('valhallaOptimizedRoute (POST /optimized-route)', () => {
  it('from the first stop to the last: Valhalla /optimized_route orders the stops, legs in that order', async () => {
    valhalla.answer('/optimized_route', { json: recorded('optimized-route') });
    const answer = await valhallaOptimizedRoute(client, route({ mode: 'truck', options: { mode: 'truck', costs: { truck: { height: 4.3 } } } }), noSolver);
    const [request] = valhalla.take();
    expect(request).toMatchObject({ method: 'POST', path: '/optimized_route' });
    expect(request!.body).toEqual({
      locations: STOPS.map(loc),
      costing: 'truck',
      costing_options: { truck: { use_highways: 0.5, height: 4.3, width: 2.6, length: 21.64, weight: 21.77, axle_load: 9.07, axle_count: 5, hazmat: false, use_truck_route: 0 } },
      ...TRIP,
    });
    const legs = (recorded('optimized-route') as { trip: { legs: { summary: { length: number; time: number } }[] } }).trip.legs;
    expect(answer.order).toEqual([0, 2, 1, 3]);
    expect(answer.legs.map((l) => [l.from, l.to])).toEqual([[0, 2], [2, 1], [1, 3]]);
    expect(answer.legs.map((l) => l.distanceMeters)).toEqual(legs.map((l) => Math.round(l.summary.length * 1000)));
    expect(answer.distanceMeters).toBe(Math.round(legs.reduce((s, l) => s + l.summary.length * 1000, 0)));
    expect(answer.durationSeconds).toBe(Math.round(legs.reduce((s, l) => s + l.summary.time, 0)));
    // One line: each leg's first position is the previous leg's last, written once.
    expect(answer.geometry.coordinates).toEqual([answer.legs[0]!.geometry.coordinates, ...answer.legs.slice(1).map((l) => l.geometry.coordinates.slice(1))].flat());
    expect(answer.warnings).toBeUndefined();
  });

  it('other ends: the matrix from /sources_to_targets, the order from the solver, one /route through the stops (back to the first on a round trip)', async () => {
    valhalla.answer('/sources_to_targets', { json: recorded('sources-to-targets-stops') });
    valhalla.answer('/route', { json: recorded('route-round-trip') });
    const calls: unknown[] = [];
    const solver: OrderStops = (durations, ends) => {
      calls.push({ durations, ends });
      return { order: [1, 0, 2], cost: 494 };
    };
    const stops = STOPS.slice(0, 3);
    const answer = await valhallaOptimizedRoute(client, route({ stops, start: 'any', end: 'first' }), solver);
    const requests = valhalla.take();
    expect(requests.map((r) => r.path)).toEqual(['/sources_to_targets', '/route']);
    expect(requests[0]!.body).toMatchObject({ sources: stops.map(loc), targets: stops.map(loc), costing: 'auto' });
    expect(requests[1]!.body).toEqual({ locations: [1, 0, 2, 1].map((i) => loc(stops[i]!)), costing: 'auto', costing_options: { auto: { use_highways: 0.5 } }, ...TRIP });
    expect(calls).toEqual([{ durations: [[0, 190, 101], [184, 0, 122], [104, 120, 0]], ends: { start: 'any', end: 'first' } }]);
    expect(answer.order).toEqual([1, 0, 2]);
    expect(answer.legs.map((l) => [l.from, l.to])).toEqual([[1, 0], [0, 2], [2, 1]]);
  });

  it('warns of a stop the route reaches more than 50 m away', async () => {
    const moved = [...STOPS.slice(0, 3), { lng: -123.1003, lat: 49.2695 }];
    valhalla.answer('/optimized_route', { json: recorded('optimized-route') });
    const answer = await valhallaOptimizedRoute(client, route({ stops: moved }), noSolver);
    expect(answer.warnings).toEqual([expect.objectContaining({ code: 'ENDPOINT_RELOCATED', where: 'stop 3' })]);
    valhalla.take();
  });

  it('fails 422 on an unreachable pair or no path, 502 on other failures, 503 on timeout', async () => {
    const unreachable = structuredClone(recorded('sources-to-targets-stops')) as { sources_to_targets: { time: number | null; distance: number | null }[][] };
    unreachable.sources_to_targets[2]![0]! = { ...unreachable.sources_to_targets[2]![0]!, time: null, distance: null };
    valhalla.answer('/sources_to_targets', { json: unreachable });
    expect(await answerOf(valhallaOptimizedRoute(client, route({ stops: STOPS.slice(0, 3), start: 'any', end: 'any' }), () => ({ order: [0, 1, 2], cost: 0 })))).toEqual({ status: 422, code: 'no_route' });
    valhalla.answer('/optimized_route', { status: 400, json: recorded('error-442-no-path') }, { status: 500, json: recorded('error-199-unknown') },
      { json: { trip: { locations: [{ original_index: 0 }, { original_index: 0 }, { original_index: 1 }, { original_index: 3 }], legs: [] } } }, { hang: true });
    expect(await answerOf(valhallaOptimizedRoute(client, route({}), noSolver))).toEqual({ status: 422, code: 'no_route' });
    expect(await answerOf(valhallaOptimizedRoute(client, route({}), noSolver))).toEqual({ status: 502, code: 'routing_failed' });
    expect(await answerOf(valhallaOptimizedRoute(client, route({}), noSolver))).toEqual({ status: 502, code: 'routing_failed' });
    expect(await answerOf(valhallaOptimizedRoute(client, route({}), noSolver))).toEqual({ status: 503, code: 'service_unavailable', retryAfter: '5' });
    expect(valhalla.take()).toHaveLength(5);
  });
});

/**
 * POST /match through the whole API on the Vancouver roads release (pelias-vancouver_canada.osm.pbf,
 * © OpenStreetMap contributors, ODbL): the answer's shape, breaks, and every 400/422/503 of the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costModel } from '../../engines/routing/cost-model.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import type { Answer } from '../support/answer.ts';
import { ApiStack } from '../support/api-stack.ts';
import { sharedData } from '../support/paths.ts';
import { randomRoutes, sampleTrace, type SyntheticFix } from '../support/routing/match-traces.ts';
import {  } from './vancouver-graph.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

let stack: ApiStack;
let beforeRelease: Answer;
let trace: SyntheticFix[];
let routeMetres: number;

const TWO_POINTS = [[-123.1115, 49.2856], [-123.1100, 49.2850]];

beforeAll(async () => {
  stack = await ApiStack.create('routing_match');
  await stack.start();
  beforeRelease = await stack.post('/match', { points: TWO_POINTS });
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.enable(release);
  await stack.waitForRelease(release.id, ROADS_KIND);
  await stack.server!.app.releases.use(ROADS_KIND, async (network: RoadNetwork) => {
    const model = costModel(network.graph, 'auto');
    const route = randomRoutes(network, model, random(11), 1, [-123.2, 49.22, -123.05, 49.3], 2500, 4000)[0]!;
    routeMetres = route.metres;
    trace = sampleTrace(model, route, 5, 8, random(12));
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const lineMetres = (coordinates: number[][]) =>
  coordinates.slice(1).reduce((sum, p, i) => sum + haversineMetres(coordinates[i]![0]!, coordinates[i]![1]!, p[0]!, p[1]!), 0);
const sixDecimals = (v: number) => Math.abs(v * 1e6 - Math.round(v * 1e6)) < 1e-6;

describe('POST /match', () => {
  it('answers 503 like /route while no road graph is enabled', () => {
    expect(beforeRelease.status).toBe(503);
    expect(beforeRelease.body).toMatchObject({ code: 'service_unavailable', retryable: true });
  });

  it('matches a noisy trace: one LineString, every point matched on its segment, sums of the segments', async () => {
    const points = trace.map((f, i) => (i % 2 === 0 ? { lng: f.lng, lat: f.lat, time: f.time, accuracy: 8 } : { lng: f.lng, lat: f.lat, time: new Date(f.time * 1000).toISOString() }));
    const answer = await stack.post('/match', { points, gps_accuracy: 8 });
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(body.geometry.type).toBe('LineString');
    expect(body.breaks).toEqual([]);
    expect(body.warnings).toBeUndefined();
    expect(body.segments).toHaveLength(1);
    const [segment] = body.segments;
    expect(segment).toMatchObject({ fromPoint: 0, toPoint: trace.length - 1 });
    expect(body.geometry.coordinates).toEqual(segment.geometry.coordinates);
    expect(body.distanceMeters).toBe(segment.distanceMeters);
    expect(body.durationSeconds).toBe(segment.durationSeconds);
    expect(Number.isInteger(body.distanceMeters) && Number.isInteger(body.durationSeconds)).toBe(true);
    expect(Math.abs(body.distanceMeters - routeMetres) / routeMetres).toBeLessThan(0.03);
    expect(Math.abs(lineMetres(segment.geometry.coordinates) - body.distanceMeters)).toBeLessThan(0.01 * body.distanceMeters + 5);
    for (const [lng, lat] of segment.geometry.coordinates) expect(sixDecimals(lng) && sixDecimals(lat)).toBe(true);
    expect(body.points).toHaveLength(trace.length);
    body.points.forEach((p: { index: number; matched: boolean; location: [number, number]; edge: { id: string }; distanceMeters: number; segment: number }, i: number) => {
      expect(p).toMatchObject({ index: i, matched: true, segment: 0, edge: { id: expect.stringMatching(/^\d+$/) } });
      expect(sixDecimals(p.location[0]) && sixDecimals(p.location[1])).toBe(true);
      expect(Math.round(p.distanceMeters * 10)).toBe(p.distanceMeters * 10);
      expect(Math.abs(p.distanceMeters - haversineMetres(trace[i]!.lng, trace[i]!.lat, p.location[0], p.location[1]))).toBeLessThan(0.2);
    });
  });

  it('takes [lng, lat] pairs and mode=car as auto; bicycle and pedestrian match too', async () => {
    const pairs = trace.slice(0, 20).map((f) => [f.lng, f.lat]);
    const auto = await stack.post('/match', { points: pairs, gps_accuracy: 8 });
    expect(auto.status).toBe(200);
    expect((await stack.post('/match', { points: pairs, gps_accuracy: 8, mode: 'car' })).body).toEqual(auto.body);
    for (const mode of ['bicycle', 'pedestrian', 'truck']) {
      const answer = await stack.post('/match', { points: pairs, gps_accuracy: 8, mode });
      expect(answer.status, mode).toBe(200);
      expect(answer.body.durationSeconds, mode).toBeGreaterThan(0);
    }
  });

  it('breaks at a gap longer than breakage_distance: a MultiLineString, one line per segment, no line across the gap', async () => {
    const first = trace.slice(0, 15);
    const second = trace.slice(-15);
    const gap = haversineMetres(first[14]!.lng, first[14]!.lat, second[0]!.lng, second[0]!.lat);
    expect(gap).toBeGreaterThan(600);
    const answer = await stack.post('/match', { points: [...first, ...second].map((f) => [f.lng, f.lat]), gps_accuracy: 8, breakage_distance: 500 });
    expect(answer.status).toBe(200);
    expect(answer.body.geometry.type).toBe('MultiLineString');
    expect(answer.body.segments.map((s: { fromPoint: number; toPoint: number }) => [s.fromPoint, s.toPoint])).toEqual([[0, 14], [15, 29]]);
    expect(answer.body.breaks).toEqual([{ afterPoint: 14, beforePoint: 15, reason: 'gap' }]);
    expect(answer.body.geometry.coordinates).toEqual(answer.body.segments.map((s: { geometry: { coordinates: unknown } }) => s.geometry.coordinates));
    expect(answer.body.distanceMeters).toBe(answer.body.segments[0].distanceMeters + answer.body.segments[1].distanceMeters);
  });

  it('leaves a point without a road within search_radius unmatched and breaks around it', async () => {
    const points = trace.slice(0, 12).map((f) => [f.lng, f.lat]);
    points.splice(6, 0, [-123.5, 49.2]); // the Strait of Georgia
    const answer = await stack.post('/match', { points, gps_accuracy: 8 });
    expect(answer.status).toBe(200);
    expect(answer.body.points[6]).toEqual({ index: 6, matched: false });
    expect(answer.body.breaks).toEqual([{ afterPoint: 5, beforePoint: 7, reason: 'unmatched' }]);
    expect(answer.body.warnings).toEqual([expect.objectContaining({ code: 'POINTS_UNMATCHED' })]);
  });

  it('answers 422 no_route when no point has a road, or no two consecutive points connect', async () => {
    const noRoute = { error: 'no route', code: 'no_route' };
    expect(await stack.post('/match', { points: [[-123.5, 49.2], [-123.51, 49.2]] })).toMatchObject({ status: 422, body: noRoute });
    // Far apart beyond breakage_distance: each fix alone.
    expect(await stack.post('/match', { points: [[-123.1115, 49.2856], [-123.155, 49.268]], breakage_distance: 1000 })).toMatchObject({ status: 422, body: noRoute });
  });

  const point = [-123.1115, 49.2856];
  it.each([
    [{ points: [point, [200, 49]] }, 'invalid_location', 'points[1] must be [lng, lat] or {lng, lat}'],
    [{ points: [point, [-123, 49, 3]] }, 'invalid_location', 'points[1] must be [lng, lat] or {lng, lat}'],
    [{ points: [point, point, ['-123', 49]] }, 'invalid_location', 'points[2] must be [lng, lat] or {lng, lat}'],
    [{ points: [point, point, point, { lng: -123.1 }] }, 'invalid_location', 'points[3] must be [lng, lat] or {lng, lat}'],
    [{ points: [point, 'here'] }, 'invalid_location', 'points[1] must be [lng, lat] or {lng, lat}'],
    [{ points: [point, { lng: -123.1, lat: 95 }] }, 'invalid_location', 'points[1] must be [lng, lat] or {lng, lat}'],
    [{ points: [point] }, 'invalid_location', undefined],
    [{ points: 'trace' }, 'invalid_location', undefined],
    [{ mode: 'auto' }, 'invalid_location', 'points is required'],
    [{ points: [{ lng: -123.1, lat: 49.28, time: 100 }, { lng: -123.1, lat: 49.28, time: 99 }] }, 'invalid_location', 'points[1].time is before points[0].time: times must not decrease'],
    [{ points: [{ lng: -123.1, lat: 49.28, time: '2024-05-01T10:00:05Z' }, { lng: -123.1, lat: 49.28, time: '2024-05-01T10:00:00Z' }] }, 'invalid_location', 'points[1].time is before points[0].time: times must not decrease'],
    [{ points: [{ lng: -123.1, lat: 49.28, time: 'yesterday' }, point] }, 'invalid_location', 'points[0].time must be unix seconds or an ISO 8601 date-time'],
    [{ points: [{ lng: -123.1, lat: 49.28, accuracy: -1 }, point] }, 'invalid_location', undefined],
    [{ points: [point, point], mode: 'transit' }, 'invalid_mode', 'mode must be one of auto, car, bicycle, pedestrian, truck'],
    [{ points: [point, point], mode: 'boat' }, 'invalid_mode', 'mode must be one of auto, car, bicycle, pedestrian, truck'],
    [{ points: [point, point], search_radius: 500 }, 'invalid_route_option', undefined],
    [{ points: [point, point], search_radius: 0 }, 'invalid_route_option', undefined],
    [{ points: [point, point], gps_accuracy: 0 }, 'invalid_route_option', undefined],
    [{ points: [point, point], breakage_distance: 'far' }, 'invalid_route_option', undefined],
  ])('400 for %j', async (body, code, error) => {
    const answer = await stack.post('/match', body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(code);
    if (error) expect(answer.body.error).toBe(error);
  });

  it('answers too_many_locations beyond 2,000 points or 200 km of trace', async () => {
    const many = Array.from({ length: 2001 }, (_, i) => [-123.1 + i * 1e-5, 49.28]);
    expect(await stack.post('/match', { points: many })).toMatchObject({ status: 400, body: { code: 'too_many_locations', error: 'at most 2000 points' } });
    const zigzag = Array.from({ length: 30 }, (_, i) => [i % 2 === 0 ? -123.2 : -123.0, 49.25]); // 29 hops of ~14.6 km
    expect(await stack.post('/match', { points: zigzag })).toMatchObject({ status: 400, body: { code: 'too_many_locations' } });
  });

  it('answers invalid_body for a body that is not JSON, missing or over 1 MiB', async () => {
    expect(await stack.post('/match', '{"points": [')).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    expect(await stack.post('/match', 'points', { 'content-type': 'text/plain' })).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    expect(await stack.post('/match', '')).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    const huge = JSON.stringify({ points: TWO_POINTS, pad: 'x'.repeat(1024 * 1024) });
    expect(await stack.post('/match', huge)).toMatchObject({ status: 400, body: { error: 'body is too large', code: 'invalid_body' } });
  });

  it('answers 502 routing_failed, never 500, when the engine fails', async () => {
    // The engine runs on the routing worker threads over the release's shared memory: a fault there
    // (shape counts no array can hold, so reading a shape throws a RangeError) reaches the worker.
    const failure = await stack.server!.app.releases.use(ROADS_KIND, async (network: RoadNetwork) => {
      const counts = network.graph.arrays.edgeShapeCount;
      const original = counts.slice();
      counts.fill(0xffffffff);
      try {
        return await stack.post('/match', { points: TWO_POINTS });
      } finally {
        counts.set(original);
      }
    });
    expect(failure).toMatchObject({ status: 502, body: { code: 'routing_failed' } });
    expect((await stack.post('/match', { points: TWO_POINTS })).status).toBe(200);
  });

  it('documents the route in the OpenAPI document', async () => {
    const doc = await stack.get('/openapi.json');
    expect(doc.status).toBe(200);
    const post = doc.body.paths['/match'].post;
    expect(post.requestBody).toBeDefined();
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '400', '422', '502', '503']));
  });
});

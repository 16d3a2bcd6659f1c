import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePolyline6 } from '../../lib/geo/polyline6.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { ApiStack } from '../support/api-stack.ts';
import { recorded, refusingOrigin, StandIn } from './stand-in.ts';

/** The API with ROUTING_BACKEND=valhalla over a stand-in Valhalla, and no roads release at all. */
let valhalla: StandIn;
let stack: ApiStack;
let refused: ApiStack;

beforeAll(async () => {
  valhalla = await StandIn.start();
  stack = await ApiStack.create('valhalla_api', { ROUTING_BACKEND: 'valhalla', VALHALLA_URL: valhalla.origin, VALHALLA_TIMEOUT_MS: '400', MATRIX_ENABLED: '1' });
  await stack.start();
  refused = await ApiStack.create('valhalla_refused', { ROUTING_BACKEND: 'valhalla', VALHALLA_URL: await refusingOrigin(), MATRIX_ENABLED: '1' });
  await refused.start();
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await refused?.close();
  await valhalla?.close();
});

const WATERFRONT = '-123.1115,49.2856';
const MAIN_STREET = '-123.1003,49.2680';
const HARBOUR = '-123.1150,49.2950';
const TRIP = { units: 'kilometers', directions_type: 'none', shape_format: 'polyline6' };
const ENDS = [{ lat: 49.2856, lon: -123.1115 }, { lat: 49.268, lon: -123.1003 }];
const TRUCK_DEFAULTS = { height: 4.11, width: 2.6, length: 21.64, weight: 21.77, axle_load: 9.07, axle_count: 5, hazmat: false, use_truck_route: 0 };
const UNAVAILABLE = { error: 'routing temporarily unavailable', code: 'service_unavailable', retryable: true };

const legOf = (name: string) => (recorded(name) as { trip: { legs: { summary: { length: number; time: number }; shape: string }[] } }).trip.legs[0]!;
const positions = (shape: string) => {
  const line = decodePolyline6(shape);
  return Array.from({ length: line.length / 2 }, (_, i) => [line[2 * i]! / 1e6, line[2 * i + 1]! / 1e6]);
};

describe('GET /route through Valhalla', () => {
  it('asks /route for auto with our default use_highways and answers our route: whole metres and seconds, the decoded six-decimal line', async () => {
    valhalla.answer('/route', { json: recorded('route-auto') });
    const answer = await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}&mode=car`);
    expect(valhalla.take()).toEqual([{ method: 'POST', path: '/route', body: { locations: ENDS, costing: 'auto', costing_options: { auto: { use_highways: 0.5 } }, ...TRIP } }]);
    expect(answer.status).toBe(200);
    const leg = legOf('route-auto');
    expect(answer.body).toEqual({
      distanceMeters: Math.round(leg.summary.length * 1000),
      durationSeconds: Math.round(leg.summary.time),
      geometry: { type: 'LineString', coordinates: positions(leg.shape) },
    });
    expect(answer.text).toContain('[-123.111453,49.285538]');
  });

  it('sends the truck with its dimensions in metres and tonnes, avoid and use_truck_route as costing options; no truck member', async () => {
    valhalla.answer('/route', { json: recorded('route-truck') });
    const answer = await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}&mode=truck&height=4.5&weight=30&axle_load=10.5&hazmat=true&use_truck_route=0.7&avoid=tolls,ferries`);
    expect(valhalla.take()[0]!.body).toEqual({
      locations: ENDS,
      costing: 'truck',
      costing_options: { truck: { ...TRUCK_DEFAULTS, use_highways: 0.5, use_tolls: 0, use_ferry: 0, height: 4.5, weight: 30, axle_load: 10.5, hazmat: true, use_truck_route: 0.7 } },
      ...TRIP,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.distanceMeters).toBe(Math.round(legOf('route-truck').summary.length * 1000));
    expect(answer.body.truck).toBeUndefined();
  });

  it('maps avoid=highways, use_highways and use_hills', async () => {
    valhalla.answer('/route', { json: recorded('route-auto') }, { json: recorded('route-auto') }, { json: recorded('route-auto') }, { json: recorded('route-auto') });
    await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}&avoid=highways`);
    await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}&use_highways=0.9`);
    await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}&mode=bicycle&use_hills=0.2`);
    await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}&mode=pedestrian&avoid=ferries`);
    expect(valhalla.take().map((r) => [(r.body as { costing: string }).costing, (r.body as { costing_options: unknown }).costing_options])).toEqual([
      ['auto', { auto: { use_highways: 0 } }],
      ['auto', { auto: { use_highways: 0.9 } }],
      ['bicycle', { bicycle: { use_hills: 0.2 } }],
      ['pedestrian', { pedestrian: { use_hills: 0.5, use_ferry: 0 } }],
    ]);
  });

  it('warns of an end Valhalla moved more than 50 m, with the distance', async () => {
    valhalla.answer('/route', { json: recorded('route-relocated') });
    const answer = await stack.get(`/route?from=${WATERFRONT}&to=${HARBOUR}&mode=pedestrian`);
    expect(answer.status).toBe(200);
    const end = answer.body.geometry.coordinates.at(-1);
    const metres = Math.round(haversineMetres(-123.115, 49.295, end[0], end[1]));
    expect(metres).toBeGreaterThan(600);
    expect(answer.body.warnings).toEqual([{
      code: 'ENDPOINT_RELOCATED',
      where: 'destination',
      message: `the route ends ${metres} m from the requested destination, at the nearest usable road; treat the destination as unreached`,
    }]);
    valhalla.take();
  });

  it('still warns of closures near the route, checked against Valhalla\'s line', async () => {
    // A closure 100 m north of the middle of the recorded line (the built-in engine's test does the same on its own line).
    const [lng, lat] = positions(legOf('route-auto').shape)[4] as [number, number];
    const point = JSON.stringify({ type: 'Point', coordinates: [lng, lat + 0.0009] });
    await stack.pool.query(
      `INSERT INTO road_closures (jurisdiction, source_id, road, direction, description, windows, geometry, minlon, minlat, maxlon, maxlat, content_hash, fetched_at)
       VALUES ('CA-BC', 'test/valhalla', 'Main Street', 'both', 'water main break', '[[null, null]]', $1, $2, $3, $2, $3, 'x', now())`,
      [point, lng, lat + 0.0009],
    );
    stack.server!.app.closureSnapshots.invalidate();
    try {
      valhalla.answer('/route', { json: recorded('route-auto') });
      const answer = await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}`);
      expect(answer.body.warnings).toEqual([expect.objectContaining({ code: 'CLOSURE_IN_FORCE_NEAR_ROUTE', where: 'Main Street' })]);
    } finally {
      await stack.pool.query(`DELETE FROM road_closures WHERE source_id LIKE 'test/%'`);
      stack.server!.app.closureSnapshots.invalidate();
      valhalla.take();
    }
  });

  it.each([
    ['442 no path', 'error-442-no-path'],
    ['171 no suitable edges', 'error-171-no-edges'],
    ['154 over the distance limit', 'error-154-distance'],
  ])('answers 422 no route on Valhalla %s', async (_, name) => {
    valhalla.answer('/route', { status: 400, json: recorded(name) });
    const answer = await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}`);
    expect(answer).toMatchObject({ status: 422, body: { error: 'no route', code: 'no_route' } });
    expect(valhalla.take()).toHaveLength(1);
  });

  it.each([
    ['another Valhalla 400 (125 no costing method)', { status: 400, json: recorded('error-125-costing') }],
    ['a Valhalla 500', { status: 500, json: recorded('error-199-unknown') }],
    ['a garbage body', { status: 200, text: '<html>upstream proxy error</html>' }],
    ['JSON without a trip', { status: 200, json: { status: 0 } }],
    ['a shape that is not polyline6', { status: 200, json: { trip: { legs: [{ summary: { length: 1, time: 60 }, shape: '\u0001' }] } } }],
  ])('answers 502 routing_failed on %s', async (_, scripted) => {
    valhalla.answer('/route', scripted);
    const answer = await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}`);
    expect(answer).toMatchObject({ status: 502, body: { error: 'no route', code: 'routing_failed' } });
    valhalla.take();
  });

  it('answers 503 with Retry-After 5 when Valhalla does not answer within VALHALLA_TIMEOUT_MS', async () => {
    valhalla.answer('/route', { hang: true });
    const started = Date.now();
    const answer = await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}`);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual(UNAVAILABLE);
    expect(answer.headers['retry-after']).toBe('5');
    valhalla.take();
  });

  it('answers 503 with Retry-After 5 when Valhalla refuses the connection', async () => {
    const answer = await refused.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}`);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual(UNAVAILABLE);
    expect(answer.headers['retry-after']).toBe('5');
  });

  it.each([
    ['from=-123.1&to=-123.1,49.2', 'invalid_location'],
    [`from=${WATERFRONT},5&to=${MAIN_STREET}`, 'invalid_location'],
    [`from=${WATERFRONT}&to=${MAIN_STREET}&mode=boat`, 'invalid_mode'],
    [`from=${WATERFRONT}&to=${MAIN_STREET}&use_hills=0.5`, 'invalid_route_option'],
    [`from=${WATERFRONT}&to=${MAIN_STREET}&mode=bicycle&use_highways=0.5`, 'invalid_route_option'],
    [`from=${WATERFRONT}&to=${MAIN_STREET}&height=4`, 'invalid_route_option'],
    [`from=${WATERFRONT}&to=${MAIN_STREET}&mode=truck&height=11`, 'invalid_route_option'],
    [`from=${WATERFRONT}&to=${MAIN_STREET}&avoid=highways&use_highways=0.5`, 'invalid_route_option'],
    [`from=${WATERFRONT}&to=${MAIN_STREET}&avoid=bridges`, 'invalid_route_option'],
    [`from=${WATERFRONT}&to=${MAIN_STREET}&depart_at=2026-01-01T08:00Z`, 'invalid_route_option'],
  ])('answers our own 400 for %s before any Valhalla call', async (query, code) => {
    const answer = await stack.get(`/route?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(code);
    expect(valhalla.take()).toEqual([]);
  });

  it('keeps transit on the transit release (503 without one), without calling Valhalla', async () => {
    const answer = await stack.get(`/route?from=${WATERFRONT}&to=${MAIN_STREET}&mode=transit&depart_at=2026-01-01T08:00Z`);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('routing temporarily unavailable');
    expect(valhalla.take()).toEqual([]);
  });
});

describe('GET /isochrone through Valhalla', () => {
  const ok = 'lon=-123.1115&lat=49.2856';

  it('asks for polygon contours, largest first, and answers our FeatureCollection matched on contour', async () => {
    valhalla.answer('/isochrone', { json: recorded('isochrone-auto') });
    const answer = await stack.get(`/isochrone?${ok}&minutes=2.5,10,5`);
    expect(valhalla.take()).toEqual([{
      method: 'POST',
      path: '/isochrone',
      body: {
        locations: [{ lat: 49.2856, lon: -123.1115 }],
        costing: 'auto',
        costing_options: { auto: { use_highways: 0.5 } },
        contours: [{ time: 10 }, { time: 5 }, { time: 2.5 }],
        polygons: true,
        denoise: 1,
        units: 'kilometers',
      },
    }]);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/geo\+json/);
    const features = answer.body.features as { geometry: { type: string; coordinates: number[][][] }; properties: Record<string, unknown> }[];
    expect(features.map((f) => f.properties.contour)).toEqual([10, 5, 2.5]);
    const source = (recorded('isochrone-auto') as { features: { properties: { contour: number }; geometry: unknown }[] }).features;
    for (const f of features) {
      expect(f.geometry).toEqual(source.find((s) => s.properties.contour === f.properties.contour)!.geometry);
      expect(f.properties).toEqual({ contour: f.properties.contour, metric: 'time', color: expect.any(String), opacity: 0.33, fill: f.properties.color, fillColor: f.properties.color, fillOpacity: 0.33, 'fill-opacity': 0.33 });
    }
    // Our suggested colours, smallest band first (api/replies/routing.ts), not Valhalla's.
    expect(features.map((f) => f.properties.color)).toEqual(['#e9c46a', '#8ab17d', '#2a9d8f']);
  });

  it('with avoid=ferries asks for the area reachable without any ferry', async () => {
    valhalla.answer('/isochrone', { json: recorded('isochrone-auto') });
    await stack.get(`/isochrone?${ok}&minutes=10,5,2.5&mode=pedestrian&avoid=ferries`);
    const [request] = valhalla.take();
    expect((request!.body as { costing_options: unknown }).costing_options).toEqual({ pedestrian: { use_hills: 0.5, use_ferry: 0, exclude_ferries: true } });
  });

  it('answers 502 isochrone failed when Valhalla has no area (171) or fails; 503 when it does not answer', async () => {
    valhalla.answer('/isochrone', { status: 400, json: recorded('error-171-no-edges') }, { status: 500, json: recorded('error-199-unknown') }, { json: { features: [] } }, { hang: true });
    expect(await stack.get(`/isochrone?${ok}&minutes=10`)).toMatchObject({ status: 502, body: { error: 'isochrone failed', code: 'routing_failed' } });
    expect(await stack.get(`/isochrone?${ok}&minutes=10`)).toMatchObject({ status: 502, body: { error: 'isochrone failed', code: 'routing_failed' } });
    expect(await stack.get(`/isochrone?${ok}&minutes=10`)).toMatchObject({ status: 502, body: { error: 'isochrone failed', code: 'routing_failed' } });
    const late = await stack.get(`/isochrone?${ok}&minutes=10`);
    expect(late).toMatchObject({ status: 503, body: UNAVAILABLE });
    expect(late.headers['retry-after']).toBe('5');
    expect(valhalla.take()).toHaveLength(4);
  });

  it.each([
    ['lat=49.28&minutes=10', 'invalid_location'],
    [`${ok}&minutes=1,2,3,4,5`, 'invalid_route_option'],
    [`${ok}&minutes=121`, 'invalid_route_option'],
    [`${ok}&minutes=0,-5`, 'invalid_route_option'],
    [`${ok}&minutes=10&mode=transit`, 'invalid_mode'],
    [`${ok}&minutes=10&use_hills=0.3`, 'invalid_route_option'],
  ])('answers our own 400 for %s before any Valhalla call', async (query, code) => {
    const answer = await stack.get(`/isochrone?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(code);
    expect(valhalla.take()).toEqual([]);
  });
});

describe('POST /matrix through Valhalla', () => {
  const body = { origins: [[-123.1115, 49.2856], [-123.1003, 49.268]], destinations: [[-123.155, 49.268], [-123.1003, 49.268]] };

  it('asks /sources_to_targets and answers whole seconds and metres, row-major', async () => {
    valhalla.answer('/sources_to_targets', { json: recorded('sources-to-targets') });
    const answer = await stack.post('/matrix', { ...body, mode: 'bicycle', use_hills: 0.1 });
    expect(valhalla.take()).toEqual([{
      method: 'POST',
      path: '/sources_to_targets',
      body: {
        sources: [{ lat: 49.2856, lon: -123.1115 }, { lat: 49.268, lon: -123.1003 }],
        targets: [{ lat: 49.268, lon: -123.155 }, { lat: 49.268, lon: -123.1003 }],
        costing: 'bicycle',
        costing_options: { bicycle: { use_hills: 0.1 } },
        units: 'kilometers',
      },
    }]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ durations: [[611, 402], [598, 0]], distances: [[4823, 2513], [4412, 0]] });
  });

  it('answers 422 when any pair has no path, or is longer than MATRIX_MAX_KM', async () => {
    const far = structuredClone(recorded('sources-to-targets')) as { sources_to_targets: { distance: number }[][] };
    far.sources_to_targets[1]![0]!.distance = 300.5;
    valhalla.answer('/sources_to_targets', { json: recorded('sources-to-targets-unreachable') }, { json: far }, { status: 400, json: recorded('error-154-distance') });
    for (let i = 0; i < 3; i++) expect(await stack.post('/matrix', body)).toMatchObject({ status: 422, body: { error: 'no route', code: 'no_route' } });
    expect(valhalla.take()).toHaveLength(3);
  });

  it('answers 502 on a Valhalla 500 or garbage, 503 when it does not answer or refuses', async () => {
    valhalla.answer('/sources_to_targets', { status: 500, json: recorded('error-199-unknown') }, { text: 'not json' }, { json: { sources_to_targets: [[]] } }, { hang: true });
    for (let i = 0; i < 3; i++) expect(await stack.post('/matrix', body)).toMatchObject({ status: 502, body: { code: 'routing_failed' } });
    const late = await stack.post('/matrix', body);
    expect(late).toMatchObject({ status: 503, body: UNAVAILABLE });
    expect(late.headers['retry-after']).toBe('5');
    expect(valhalla.take()).toHaveLength(4);
    const refusedAnswer = await refused.post('/matrix', body);
    expect(refusedAnswer).toMatchObject({ status: 503, body: UNAVAILABLE });
  });

  it.each([
    [{ origins: [[-123.1, 91]], destinations: body.destinations }, 'invalid_location'],
    [{ ...body, mode: 'boat' }, 'invalid_mode'],
    [{ ...body, origins: Array.from({ length: 11 }, () => [-123.1, 49.2]) }, 'too_many_locations'],
    [{ ...body, height: 4 }, 'invalid_route_option'],
    ['{"origins": [[-123.1, 49.2]', 'invalid_body'],
  ])('answers our own 400 before any Valhalla call (%#)', async (payload, code) => {
    const answer = await stack.post('/matrix', payload);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(code);
    expect(valhalla.take()).toEqual([]);
  });
});

describe('POST /match and POST /optimized-route through Valhalla', () => {
  // The eight fixes of the recorded trace_attributes answer (match-optimized.test.ts).
  const trace = [[-123.11149, 49.28551], [-123.10968, 49.28459], [-123.10791, 49.28352], [-123.1049, 49.2821],
    [-123.10337, 49.28083], [-123.10122, 49.27961], [-123.10089, 49.27531], [-123.10046, 49.27123]];

  it('/match: our checks first, then /trace_attributes with map_snap; the answer in our shape', async () => {
    expect((await stack.post('/match', { points: [[-123.1, 'x']] })).body).toMatchObject({ code: 'invalid_location' });
    expect(valhalla.take()).toEqual([]);
    valhalla.answer('/trace_attributes', { json: recorded('trace-attributes') });
    const answer = await stack.post('/match', { points: trace, search_radius: 40 });
    const [request] = valhalla.take();
    expect(request).toMatchObject({ method: 'POST', path: '/trace_attributes', body: { shape_match: 'map_snap', costing: 'auto' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ distanceMeters: expect.any(Number), durationSeconds: expect.any(Number), segments: expect.any(Array), points: expect.any(Array), breaks: expect.any(Array) });
    expect(['LineString', 'MultiLineString']).toContain(answer.body.geometry.type);
  });

  it('/match: a Valhalla "no match" is 422 no route; a timeout 503', async () => {
    valhalla.answer('/trace_attributes', { status: 400, json: recorded('error-444-map-match') });
    expect(await stack.post('/match', { points: trace })).toMatchObject({ status: 422, body: { error: 'no route', code: 'no_route' } });
    valhalla.answer('/trace_attributes', { hang: true });
    const slow = await stack.post('/match', { points: trace });
    expect(slow).toMatchObject({ status: 503, body: UNAVAILABLE });
    valhalla.take();
  });

  it('/optimized-route: first to last through Valhalla /optimized_route; open ends through its matrix and our solver', async () => {
    const stops = [[-123.1115, 49.2856], [-123.1207, 49.2827], [-123.1089, 49.2811], [-123.1003, 49.268]];
    valhalla.answer('/optimized_route', { json: recorded('optimized-route') });
    const fixed = await stack.post('/optimized-route', { stops });
    expect(valhalla.take().map((r) => r.path)).toEqual(['/optimized_route']);
    expect(fixed.status).toBe(200);
    expect(fixed.body.order).toEqual([0, 2, 1, 3]);
    expect(fixed.body.legs).toHaveLength(3);
    valhalla.answer('/sources_to_targets', { json: recorded('sources-to-targets-stops') });
    valhalla.answer('/route', { json: recorded('route-round-trip') });
    // The recorded matrix is of the first three stops: 0→2→1→0 (101 + 120 + 184 s) beats 0→1→2→0 (190 + 122 + 104 s).
    const roundTrip = await stack.post('/optimized-route', { stops: stops.slice(0, 3), end: 'first' });
    expect(valhalla.take().map((r) => r.path)).toEqual(['/sources_to_targets', '/route']);
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.order).toEqual([0, 2, 1]);
    expect(roundTrip.body.legs.map((l: { from: number; to: number }) => [l.from, l.to])).toEqual([[0, 2], [2, 1], [1, 0]]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDay } from '../../lib/utc-calendar.ts';
import { ApiStack } from '../support/api-stack.ts';

// Around Vancouver's waterfront; straight-line travel at 10 m/s so no release is needed.
const DEPOT = { latitude: 49.2856, longitude: -123.1115 };
const STOPS = [
  [49.2680, -123.1003], [49.2820, -123.1200], [49.2750, -123.1300], [49.2900, -123.1400], [49.2630, -123.1150], [49.2790, -123.0900],
].map(([latitude, longitude]) => ({ latitude: latitude!, longitude: longitude! }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are built loosely on purpose
function fleetRequest(over: Record<string, unknown> = {}, shipments: any[] = STOPS.map((at, i) => ({
  label: `parcel-${i}`,
  deliveries: [{ arrivalLocation: at, duration: '120s' }],
  loadDemands: { boxes: { amount: '2' } },
}))) {
  return {
    useGeodesicDistances: true,
    geodesicMetersPerSecond: 10,
    // RETURN_FAST answers as soon as it is done; the long budget only keeps a busy CI machine
    // (the solver threads run at a lower priority than the other test files' processes) from a 504.
    timeout: '30s',
    model: {
      globalStartTime: '2026-11-26T08:00:00Z',
      globalEndTime: '2026-11-26T20:00:00Z',
      shipments,
      vehicles: [0, 1].map((i) => ({ label: `van-${i}`, startLocation: DEPOT, endLocation: DEPOT, costPerKilometer: 1, loadLimits: { boxes: { maxLoad: '8' } } })),
    },
    ...over,
  };
}

let stack: ApiStack;
beforeAll(async () => {
  stack = await ApiStack.create('optimize_api');
  await stack.start();
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const seconds = (d: string) => Number(d.slice(0, -1));
const epoch = (t: string) => Date.parse(t) / 1000;

describe('POST /optimize', () => {
  it('solves a small fleet: every shipment once, loads within limits, times consistent, billed per shipment', async () => {
    const answer = await stack.post('/optimize', fleetRequest({ label: 'morning' }));
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-svc-billable-shipments']).toBe('6');
    const { routes, metrics, requestLabel } = answer.body;
    expect(requestLabel).toBe('morning');
    expect(routes.map((r: { vehicleIndex: number; vehicleLabel: string }) => [r.vehicleIndex, r.vehicleLabel])).toEqual([[0, 'van-0'], [1, 'van-1']]);
    const visited = routes.flatMap((r: { visits: { shipmentIndex: number }[] }) => r.visits.map((v) => v.shipmentIndex)).sort();
    expect(visited).toEqual([0, 1, 2, 3, 4, 5]);
    let total = 0;
    for (const route of routes) {
      if (route.visits.length === 0) continue;
      expect(route.visits.length).toBeLessThanOrEqual(4); // 8 boxes, 2 each
      expect(route.transitions).toHaveLength(route.visits.length + 1);
      let at = epoch(route.vehicleStartTime);
      route.transitions.forEach((t: Record<string, string>, i: number) => {
        expect(epoch(t.startTime!)).toBeCloseTo(at, 2);
        at += seconds(t.totalDuration!);
        if (i < route.visits.length) {
          expect(epoch(route.visits[i].startTime)).toBeCloseTo(at, 2);
          at += 120;
        }
      });
      expect(epoch(route.vehicleEndTime)).toBeCloseTo(at, 2);
      expect(route.routeCosts['model.vehicles.cost_per_kilometer']).toBeCloseTo(route.metrics.travelDistanceMeters / 1000, 6);
      total += route.routeTotalCost;
    }
    expect(metrics.totalCost).toBeCloseTo(total, 6);
    expect(metrics.usedVehicleCount).toBe(routes.filter((r: { visits: unknown[] }) => r.visits.length > 0).length);
  });

  it('answers the same on the four alias paths, snake_case included, and 404 NOT_FOUND on another method', async () => {
    const first = await stack.post('/optimize', fleetRequest());
    for (const path of ['/v1/projects/p1:optimizeTours', '/v1/projects/p1/locations/global:optimizeTours', '/projects/p1:optimizeTours', '/projects/p/locations/l:optimizeTours']) {
      const answer = await stack.post(path, fleetRequest({ parent: 'projects/p1' }));
      expect(answer.status).toBe(200);
      expect(answer.body.routes).toEqual(first.body.routes);
      expect(answer.body.warnings).toEqual([{ code: 'PARENT_IGNORED', message: expect.any(String) }]);
    }
    const snake = await stack.post('/optimize', { use_geodesic_distances: true, geodesic_meters_per_second: 10, model: fleetRequest().model });
    expect(snake.body.routes).toEqual(first.body.routes);
    const other = await stack.post('/v1/projects/p1:batchOptimizeTours', fleetRequest());
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: 'NOT_FOUND', status: 'NOT_FOUND' });
    expect(other.headers['x-svc-billable-shipments']).toBe('0');
  });

  it('accepts the vendor key header on these paths only', async () => {
    const answer = await stack.server!.app.inject({
      method: 'POST', url: '/optimize', headers: { 'x-goog-api-key': stack.key, 'content-type': 'application/json' }, payload: JSON.stringify(fleetRequest()),
    });
    expect(answer.statusCode).toBe(200);
    const elsewhere = await stack.server!.app.inject({ method: 'GET', url: '/route?from=-123.1,49.2&to=-123.2,49.3', headers: { 'x-goog-api-key': stack.key } });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('VALIDATE_ONLY answers {} or the validation errors, never solving nor billing', async () => {
    const valid = await stack.post('/optimize', fleetRequest({ solvingMode: 'VALIDATE_ONLY' }));
    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({});
    expect(valid.headers['x-svc-billable-shipments']).toBe('0');
    const bad = fleetRequest({ solvingMode: 1, maxValidationErrors: 2 });
    bad.model.shipments[0]!.deliveries[0]!.duration = '12';
    (bad.model.shipments[1]!.deliveries[0] as Record<string, unknown>).timeWindows = [{ startTime: '2026-11-26T12:00:00Z', endTime: '2026-11-26T11:00:00Z' }];
    (bad.model.shipments[2] as Record<string, unknown>).allowedVehicleIndices = [7];
    const invalid = await stack.post('/optimize', bad);
    expect(invalid.status).toBe(200);
    expect(invalid.body.validationErrors).toHaveLength(2);
    expect(invalid.body.validationErrors[0]).toMatchObject({ code: expect.any(Number), displayName: expect.any(String), fields: [{ name: 'model.shipments[0].deliveries[0].duration' }] });
    const solve = await stack.post('/optimize', { ...bad, solvingMode: 'DEFAULT_SOLVE' });
    expect(solve.status).toBe(400);
    expect(solve.body).toMatchObject({ code: 'INVALID_ARGUMENT', status: 'INVALID_ARGUMENT', fieldViolations: [{ field: 'model.shipments[0].deliveries[0].duration' }] });
    expect(solve.body.fieldViolations).toHaveLength(1);
  });

  it('refuses what rule 3 does not support', async () => {
    const two = fleetRequest();
    (two.model.shipments[0] as Record<string, unknown>).deliveries = [{ arrivalLocation: STOPS[0] }, { arrivalLocation: STOPS[1] }];
    const answer = await stack.post('/optimize', { ...two, solvingMode: 'VALIDATE_ONLY' });
    expect(answer.body.validationErrors[0].displayName).toMatch(/NOT_SUPPORTED_YET/);
    const walking = fleetRequest();
    (walking.model.vehicles[0] as Record<string, unknown>).travelMode = 'WALKING';
    expect((await stack.post('/optimize', walking)).body.status).toBe('INVALID_ARGUMENT');
  });

  it('skips optional shipments cheaper to leave and fails on an unperformable mandatory one', async () => {
    const far = { latitude: 49.9, longitude: -122.0 };
    const shipments = [
      { label: 'near', deliveries: [{ arrivalLocation: STOPS[0] }] },
      { label: 'far-optional', deliveries: [{ arrivalLocation: far }], penaltyCost: 1 },
    ];
    const answer = await stack.post('/optimize', fleetRequest({}, shipments));
    expect(answer.status).toBe(200);
    expect(answer.body.skippedShipments).toEqual([{ index: 1, label: 'far-optional' }]);
    expect(answer.body.metrics.costs['model.shipments.penalty_cost']).toBe(1);
    expect(answer.headers['x-svc-billable-shipments']).toBe('1');
    const tooHeavy = [{ label: 'piano', deliveries: [{ arrivalLocation: STOPS[0] }], loadDemands: { boxes: { amount: 9 } } }];
    const refused = await stack.post('/optimize', fleetRequest({}, tooHeavy));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'FAILED_PRECONDITION', code: 'FAILED_PRECONDITION' });
    expect(refused.body.error).toContain('DEMAND_EXCEEDS_VEHICLE_CAPACITY');
    expect(refused.headers['x-svc-billable-shipments']).toBe('0');
  });

  it('solves with own matrices placed by tags', async () => {
    const tags = ['depot', 'a', 'b', 'c'];
    const d = [[0, 10, 20, 30], [10, 0, 10, 20], [20, 10, 0, 10], [30, 20, 10, 0]];
    const answer = await stack.post('/optimize', {
      model: {
        durationDistanceMatrices: [{ rows: d.map((row) => ({ durations: row.map((x) => `${x}s`), meters: row.map((x) => x * 100) })) }],
        durationDistanceMatrixSrcTags: tags,
        durationDistanceMatrixDstTags: tags,
        shipments: ['a', 'b', 'c'].map((t) => ({ deliveries: [{ tags: [t] }] })),
        vehicles: [{ startTags: ['depot'], endTags: ['depot'], costPerKilometer: 1 }],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.routes[0].metrics.travelDistanceMeters).toBe(6000);
    expect(answer.body.metrics.totalCost).toBeCloseTo(6, 9);
  });

  it('clamps a long timeout to the plan with the Warning header', async () => {
    const answer = await stack.post('/optimize', fleetRequest({ timeout: '600s' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.warning).toBe("299 - 'timeout clamped to 60s for this plan'");
    expect(answer.body.warnings).toContainEqual({ code: 'TIMEOUT_CLAMPED', message: 'timeout clamped to 60s for this plan' });
  });

  it('names the plan limit a request is over, and 413 over 4 MiB', async () => {
    const hobby = await stack.createKey({ plan: 'hobby' });
    const many = Array.from({ length: 26 }, (_, i) => ({ deliveries: [{ arrivalLocation: { latitude: 49.2 + i / 1000, longitude: -123.1 } }] }));
    const answer = await stack.post('/optimize', fleetRequest({}, many), { authorization: `Bearer ${hobby}` });
    expect(answer.status).toBe(400);
    expect(answer.body.status).toBe('INVALID_ARGUMENT');
    expect(answer.body.error).toContain('26 shipments');
    expect(answer.body.error).toContain('25');
    const huge = await stack.post('/optimize', { ...fleetRequest(), padding: 'x'.repeat(4 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: 'INVALID_ARGUMENT', status: 'INVALID_ARGUMENT' });
    expect(huge.headers['cache-control']).toBe('no-store');
    const notJson = await stack.post('/optimize', '{"model": ');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ code: 'INVALID_ARGUMENT', status: 'INVALID_ARGUMENT' });
    expect(notJson.headers['x-svc-billable-shipments']).toBe('0');
  });

  it('answers 503 for road travel while no roads release is enabled, and never bills it', async () => {
    const { useGeodesicDistances: _, geodesicMetersPerSecond: __, ...roads } = fleetRequest();
    const answer = await stack.post('/optimize', roads);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: 'routing temporarily unavailable', status: 'UNAVAILABLE', retryable: true });
    expect(answer.headers['x-svc-billable-shipments']).toBe('0');
  });

  it('bills a shipment once in 24 hours, dev origins included, and refuses a hobby account out of quota', async () => {
    const accountKey = await stack.createKey({ accountId: 'acct-bill', plan: 'indie' });
    const headers = { authorization: `Bearer ${accountKey}`, origin: 'http://localhost:3000' };
    const first = await stack.post('/optimize', fleetRequest(), headers);
    expect(first.headers['x-svc-billable-shipments']).toBe('6');
    const again = await stack.post('/optimize', fleetRequest(), headers);
    expect(again.headers['x-svc-billable-shipments']).toBe('0');
    const moved = fleetRequest();
    moved.model.shipments[0]!.deliveries[0]!.arrivalLocation = { latitude: 49.25, longitude: -123.05 };
    expect((await stack.post('/optimize', moved, headers)).headers['x-svc-billable-shipments']).toBe('1');
    await stack.server!.app.meterJournal!.flush();
    const usage = await stack.pool.query<{ calls: string; dev: boolean }>("SELECT calls, dev FROM usage_daily WHERE account_id = 'acct-bill' AND family = 'optimization'");
    expect(usage.rows.map((r) => [Number(r.calls), r.dev])).toEqual([[7, false]]);

    const hobby = await stack.createKey({ accountId: 'acct-quota', plan: 'hobby' });
    const keyId = (await stack.pool.query<{ id: string }>("SELECT id FROM api_keys WHERE account_id = 'acct-quota'")).rows[0]!.id;
    await stack.pool.query("INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls) VALUES ($1, $2, 'acct-quota', 'geocode', false, 9996)", [utcDay(Date.now()), keyId]);
    const short = await stack.post('/optimize', fleetRequest(), { authorization: `Bearer ${hobby}` });
    expect(short.status).toBe(429);
    expect(short.body).toMatchObject({ code: 'quota_exceeded', status: 'RESOURCE_EXHAUSTED' });
    const fits = await stack.post('/optimize', fleetRequest({}, fleetRequest().model.shipments.slice(0, 4)), { authorization: `Bearer ${hobby}` });
    expect(fits.status).toBe(200);
  });

  it('lets a hobby account run one solve at a time: the second gets 429 with Retry-After', async () => {
    const hobby = await stack.createKey({ accountId: 'acct-slots', plan: 'hobby' });
    const headers = { authorization: `Bearer ${hobby}` };
    const long = stack.post('/optimize', fleetRequest({ searchMode: 'CONSUME_ALL_AVAILABLE_TIME', timeout: '3s' }), headers);
    await new Promise((r) => setTimeout(r, 500));
    const second = await stack.post('/optimize', fleetRequest(), headers);
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ status: 'RESOURCE_EXHAUSTED' });
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await long).status).toBe(200);
    expect((await stack.post('/optimize', fleetRequest(), headers)).status).toBe(200);
  });
});

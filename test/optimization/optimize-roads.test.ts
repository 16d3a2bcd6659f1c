import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePolyline } from '../../engines/road-events/geometry.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { ApiStack } from '../support/api-stack.ts';
import { sharedData } from '../support/paths.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import { worstLoopStall } from '../support/loop-delay.ts';

const DEPOT = { latitude: 49.2856, longitude: -123.1115 };
const STOPS = [[49.2680, -123.1003], [49.2820, -123.1200], [49.2750, -123.1300], [49.2630, -123.1150]]
  .map(([latitude, longitude]) => ({ latitude: latitude!, longitude: longitude! }));
const OPEN_WATER = { latitude: 49.2, longitude: -123.5 }; // Strait of Georgia: no road within 5 km

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are built loosely on purpose
function roadRequest(extra: any[] = [], over: Record<string, unknown> = {}) {
  return {
    populatePolylines: true,
    // RETURN_FAST answers as soon as it is done; the long budget only keeps a busy CI machine
    // (the solver threads run at a lower priority than the other test files' processes) from a 504.
    timeout: '30s',
    model: {
      shipments: [...STOPS.map((at, i) => ({ label: `stop-${i}`, deliveries: [{ arrivalLocation: at, duration: '60s' }] })), ...extra],
      vehicles: [{ startLocation: DEPOT, endLocation: DEPOT, costPerHour: 30, costPerKilometer: 0.5 }],
    },
    ...over,
  };
}

let stack: ApiStack;
beforeAll(async () => {
  stack = await ApiStack.create('optimize_roads');
  await stack.start();
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.enable(release);
  await stack.waitForRelease(release.id, ROADS_KIND);
}, 180_000);
afterAll(async () => {
  await stack?.close();
});

describe('POST /optimize over the roads release', () => {
  it('times routes by road and draws each along roads from the depot and back', async () => {
    const answer = await stack.post('/optimize', roadRequest());
    expect(answer.status).toBe(200);
    const [route] = answer.body.routes;
    expect(route.visits).toHaveLength(4);
    const straight = [DEPOT, ...route.visits.map((v: { shipmentIndex: number }) => STOPS[v.shipmentIndex]!), DEPOT]
      .slice(1).reduce((sum: number, p: typeof DEPOT, i: number, all: typeof DEPOT[]) => {
        const from = i === 0 ? DEPOT : all[i - 1]!;
        return sum + haversineMetres(from.longitude, from.latitude, p.longitude, p.latitude);
      }, 0);
    expect(route.metrics.travelDistanceMeters).toBeGreaterThan(straight);
    expect(route.metrics.travelDistanceMeters).toBeLessThan(3 * straight);
    const line = decodePolyline(route.routePolyline.points)!;
    expect(line.length).toBeGreaterThan(10);
    for (const end of [line[0]!, line.at(-1)!]) expect(haversineMetres(end[0], end[1], DEPOT.longitude, DEPOT.latitude)).toBeLessThan(300);
    expect(answer.body.warnings).toBeUndefined();
  });

  it('fails a mandatory stop no road reaches, and skips an optional one with its reason', async () => {
    const mandatory = await stack.post('/optimize', roadRequest([{ label: 'boat', deliveries: [{ arrivalLocation: OPEN_WATER }] }]));
    expect(mandatory.status).toBe(400);
    expect(mandatory.body).toMatchObject({ status: 'FAILED_PRECONDITION' });
    expect(mandatory.body.error).toContain('mandatory shipment 4');
    expect(mandatory.body.error).toContain('UNREACHABLE_BY_ROAD');
    const optional = await stack.post('/optimize', roadRequest([{ label: 'boat', deliveries: [{ arrivalLocation: OPEN_WATER }], penaltyCost: 5 }]));
    expect(optional.status).toBe(200);
    expect(optional.body.skippedShipments).toEqual([{ index: 4, label: 'boat', reasons: [{ code: 'UNREACHABLE_BY_ROAD' }] }]);
    // The four stops were billed by the first solve of this key less than 24 hours ago; the skipped one is free.
    expect(optional.headers['x-svc-billable-shipments']).toBe('0');
  });

  it('draws straight-line solves along roads too, and warns when a route has no places to draw', async () => {
    const geodesic = await stack.post('/optimize', roadRequest([], { useGeodesicDistances: true, geodesicMetersPerSecond: 12 }));
    expect(geodesic.status).toBe(200);
    expect(decodePolyline(geodesic.body.routes[0].routePolyline.points)!.length).toBeGreaterThan(10);
    const tags = ['depot', 'a'];
    const own = await stack.post('/optimize', {
      populatePolylines: true,
      model: {
        durationDistanceMatrices: [{ rows: [{ durations: ['0s', '60s'], meters: [0, 500] }, { durations: ['60s', '0s'], meters: [500, 0] }] }],
        durationDistanceMatrixSrcTags: tags,
        durationDistanceMatrixDstTags: tags,
        shipments: [{ deliveries: [{ tags: ['a'] }] }],
        vehicles: [{ startTags: ['depot'], endTags: ['depot'] }],
      },
    });
    expect(own.status).toBe(200);
    expect(own.body.routes[0].routePolyline).toBeUndefined();
    expect(own.body.warnings).toEqual([{ code: 'ROUTE_POLYLINE_UNAVAILABLE', message: expect.any(String) }]);
  });

  it('keeps the event loop free while road travel and polylines of 150 places run (on the solver threads)', async () => {
    const rnd = seededRandom(7);
    const shipments = Array.from({ length: 150 }, (_, i) => ({
      label: `p${i}`,
      deliveries: [{ arrivalLocation: { latitude: 49.255 + rnd() * 0.04, longitude: -123.16 + rnd() * 0.07 }, duration: '60s' }],
      penaltyCost: 1000,
    }));
    const body = {
      populatePolylines: true,
      timeout: '20s',
      model: {
        shipments,
        vehicles: [0, 1, 2].map(() => ({ startLocation: DEPOT, endLocation: DEPOT, costPerHour: 30, costPerKilometer: 0.5 })),
      },
    };
    const began = performance.now();
    const { result: answer, worst } = await worstLoopStall(() => stack.post('/optimize', body));
    expect(answer.status).toBe(200);
    expect(answer.body.routes.filter((r: { routePolyline?: unknown }) => r.routePolyline).length).toBeGreaterThan(0);
    const elapsed = performance.now() - began;
    // Before: the 150 × 150 road table and every leg's route search ran on the event loop (seconds).
    expect(worst).toBeLessThan(400);
    expect(elapsed).toBeLessThan(20_000 + 3 * 500);
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { timestampJson, durationJson } from '../../engines/optimization/response-times.ts';
import { buildProblem } from '../../engines/optimization/build-problem.ts';
import { collectPlaces } from '../../engines/optimization/places.ts';
import { unreachableShipments } from '../../engines/optimization/reachability.ts';
import type { OptimizationRequest, RequestShipment as Shipment, RequestVehicle as Vehicle } from '../../engines/optimization/request-model.ts';
import { ownTravel, UNREACHABLE_SECONDS } from '../../engines/optimization/travel-own.ts';
import { geodesicTravel } from '../../engines/optimization/travel-geodesic.ts';
import { decodePolyline } from '../../engines/road-events/geometry.ts';
import { encodePolyline } from '../../lib/geo/polyline-encode.ts';

const at = (latitude: number, longitude: number) => ({ kind: 'coordinates' as const, latLng: { latitude, longitude } });
const T0 = 1_700_000_000;

function vehicle(over: Partial<Vehicle> = {}): Vehicle {
  return {
    start: at(49.28, -123.12), end: at(49.28, -123.12), startTags: [], endTags: [], matrix: null, travelMode: 'DRIVING', svcProfile: 'auto',
    startTimeWindow: { start: T0, end: T0 + 86_400 }, endTimeWindow: { start: T0, end: T0 + 86_400 },
    fixedCost: 0, costPerHour: 0, costPerTraveledHour: 0, costPerKilometer: 1, loadLimits: {},
    routeDurationLimit: { max: Infinity }, travelDurationLimit: { max: Infinity }, routeDistanceLimit: { max: Infinity }, breaks: [], ignore: false, ...over,
  };
}

function shipment(place: ReturnType<typeof at>, over: Partial<Shipment> = {}): Shipment {
  return { pickup: null, delivery: { place, duration: 60, timeWindows: [], tags: [] }, loadDemands: {}, penaltyCost: null, ignore: false, allowedVehicleIndices: null, ...over };
}

function request(shipments: Shipment[], vehicles: Vehicle[] = [vehicle()]): OptimizationRequest {
  return {
    solvingMode: 'DEFAULT_SOLVE', searchMode: 'RETURN_FAST', timeout: null, maxValidationErrors: 100, populatePolylines: false, considerRoadTraffic: false,
    travel: { kind: 'geodesic', metersPerSecond: 10 }, globalStart: T0, globalEnd: T0 + 86_400, shipments, vehicles, loadTypes: ['kg'],
  };
}

describe('the request → problem adapter', () => {
  it('merges identical places and orders places and shipments by content, not by request order', () => {
    const a = shipment(at(49.3, -123.1), { loadDemands: { kg: 5 } });
    const b = shipment(at(49.2, -123.0));
    const c = shipment(at(49.3, -123.1), { ignore: true });
    const one = request([a, b, c]);
    const two = request([b, a, c]);
    const placesOne = collectPlaces(one);
    expect(placesOne.size).toBe(3);
    expect(placesOne.latLngs!.map((p) => p.latitude)).toEqual([49.2, 49.28, 49.3]);
    expect(placesOne.shipments[2]).toEqual({ pickup: null, delivery: null });
    const matrix = geodesicTravel(placesOne.latLngs!, 10);
    const builtOne = buildProblem(one, placesOne, [matrix], () => 0, () => true);
    const builtTwo = buildProblem(two, collectPlaces(two), [matrix], () => 0, () => true);
    expect(builtOne.problem).toEqual(builtTwo.problem);
    expect(builtOne.problem.shipments).toHaveLength(2);
    expect(builtOne.requestIndexOf.map((i) => one.shipments[i])).toEqual(builtTwo.requestIndexOf.map((i) => two.shipments[i]));
    expect(builtOne.problem.shipments.find((s) => s.demand[0] === 5)).toBeDefined();
  });

  it('puts times from the global start and keeps ignored vehicles out of every shipment', () => {
    const s = shipment(at(49.3, -123.1), { delivery: { place: at(49.3, -123.1), duration: 30, timeWindows: [{ start: T0 + 100, end: T0 + 200, softEnd: T0 + 150, costPerHourAfterSoftEnd: 7 }], tags: [] } });
    const req = request([s], [vehicle({ ignore: true }), vehicle()]);
    const places = collectPlaces(req);
    const { problem } = buildProblem(req, places, [geodesicTravel(places.latLngs!, 10)], () => 0, () => true);
    expect(problem.horizon).toBe(86_400);
    expect(problem.shipments[0]!.delivery!.windows).toEqual([{ start: 100, end: 200, softEnd: 150, costPerHourAfterSoftEnd: 7 }]);
    expect(problem.shipments[0]!.allowedVehicles).toEqual([1]);
    expect(problem.vehicles[1]!.startWindow).toEqual({ start: 0, end: 86_400 });
  });

  it('turns own matrices into place-to-place travel, with no way into a vehicle start or out of its end', () => {
    const tags = (src: number | null, dst: number | null) => ({ kind: 'tags' as const, src, dst });
    const req = request([shipment(tags(1, 1) as never)], [vehicle({ start: tags(0, null), end: tags(null, 0) })]);
    const places = collectPlaces(req);
    expect(places.cells).toEqual([{ src: null, dst: 0 }, { src: 0, dst: null }, { src: 1, dst: 1 }]);
    const m = ownTravel(places, { vehicleStartTag: null, durations: [[0, 10], [11, 0]], meters: [[0, 100], [110, 0]] });
    const cell = (i: number, j: number) => [m.durations[i * 3 + j], m.distances[i * 3 + j]];
    expect(cell(1, 2)).toEqual([10, 100]); // start → visit
    expect(cell(2, 0)).toEqual([11, 110]); // visit → end
    expect(cell(2, 1)[0]).toBe(UNREACHABLE_SECONDS); // nothing goes back to the start
    expect(cell(0, 2)[0]).toBe(UNREACHABLE_SECONDS); // nothing leaves the end
  });

  it('finds shipments no allowed vehicle can reach by road', () => {
    const req = request([shipment(at(49.3, -123.1)), shipment(at(50, -120)), shipment(at(50, -120), { allowedVehicleIndices: [1] })], [vehicle(), vehicle({ start: null, end: null })]);
    const places = collectPlaces(req);
    const reachable = new Uint8Array(places.size * places.size);
    const island = places.latLngs!.findIndex((p) => p.latitude === 50);
    for (let i = 0; i < places.size; i++) for (let j = 0; j < places.size; j++) reachable[i * places.size + j] = i === island || j === island ? (i === j ? 1 : 0) : 1;
    // Shipment 1 is reachable by the open-ended vehicle 1 only; shipment 2 is allowed on it.
    expect(unreachableShipments(req, places, reachable)).toEqual([]);
    const closed = request(req.shipments, [vehicle(), vehicle()]);
    expect(unreachableShipments(closed, collectPlaces(closed), reachable)).toEqual([1, 2]);
  });
});

describe('the format\'s scalars', () => {
  it('writes durations and timestamps as the published format does', () => {
    expect(durationJson(95)).toBe('95s');
    expect(durationJson(0.25)).toBe('0.250s');
    expect(durationJson(12.3456789)).toBe('12.345678900s');
    expect(durationJson(0)).toBe('0s');
    expect(timestampJson(0)).toBe('1970-01-01T00:00:00Z');
    expect(timestampJson(T0 + 0.5)).toBe('2023-11-14T22:13:20.500Z');
    expect(timestampJson(59.9999999999)).toBe('1970-01-01T00:01:00Z');
  });

  it('encodes polylines that decode back (precision 5)', () => {
    const line: [number, number][] = [[-120.2, 38.5], [-120.95, 40.7], [-126.453, 43.252]];
    expect(encodePolyline(line)).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
    expect(decodePolyline(encodePolyline(line))).toEqual(line);
  });
});

import { describe, expect, it } from 'vitest';
import { costingOf } from '../../engines/valhalla/costing.ts';
import { answerFailure, NO_ROUTE_CODES } from '../../engines/valhalla/failure.ts';
import { decodePolyline6, encodePolyline6 } from '../../lib/geo/polyline6.ts';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { recorded } from './stand-in.ts';

describe('polyline6', () => {
  it('decodes a known encoded string (Google\'s example, read at six decimals) into micro-degrees, lng first', () => {
    // At five decimals "_p~iF~ps|U_ulLnnqC_mqNvxq`@" is (38.5, -120.2), (40.7, -120.95), (43.252, -126.453); at six, a tenth of that.
    expect(Array.from(decodePolyline6('_p~iF~ps|U_ulLnnqC_mqNvxq`@'))).toEqual([-12020000, 3850000, -12095000, 4070000, -12645300, 4325200]);
  });

  it('round-trips a recorded Valhalla shape exactly, and refuses a truncated one', () => {
    const { shape } = (recorded('route-auto') as { trip: { legs: { shape: string }[] } }).trip.legs[0]!;
    const line = decodePolyline6(shape);
    const positions = Array.from({ length: line.length / 2 }, (_, i): [number, number] => [line[2 * i]! / 1e6, line[2 * i + 1]! / 1e6]);
    expect(positions[0]).toEqual([-123.111453, 49.285538]);
    expect(encodePolyline6(positions)).toBe(shape);
    expect(() => decodePolyline6(shape.slice(0, -1))).toThrow(/polyline6/);
  });
});

describe('costing options', () => {
  it('maps every checked option to its Valhalla costing option', () => {
    expect(costingOf({ mode: 'auto', costs: {} })).toEqual({ costing: 'auto', costing_options: { auto: { use_highways: 0.5 } } });
    expect(costingOf({ mode: 'auto', costs: { avoidTolls: true, avoidHighways: true, avoidFerries: true } }))
      .toEqual({ costing: 'auto', costing_options: { auto: { use_highways: 0, use_tolls: 0, use_ferry: 0 } } });
    expect(costingOf({ mode: 'bicycle', costs: {} })).toEqual({ costing: 'bicycle', costing_options: { bicycle: { use_hills: 0.25 } } });
    expect(costingOf({ mode: 'pedestrian', costs: { excludeFerries: true, avoidFerries: false } }))
      .toEqual({ costing: 'pedestrian', costing_options: { pedestrian: { use_hills: 0.5, use_ferry: 0, exclude_ferries: true } } });
    expect(costingOf({ mode: 'truck', costs: { useHighways: 0.2, truck: { width: 2.5, length: 16, axleCount: 3, hazmat: true } } })).toEqual({
      costing: 'truck',
      costing_options: { truck: { use_highways: 0.2, height: 4.11, width: 2.5, length: 16, weight: 21.77, axle_load: 9.07, axle_count: 3, hazmat: true, use_truck_route: 0 } },
    });
  });
});

describe('Valhalla errors', () => {
  it('tells no route (4xx with a no-path code) from a failed backend', () => {
    for (const code of NO_ROUTE_CODES) expect(answerFailure('route', 400, { error_code: code, error: 'x' }).kind).toBe('no_route');
    expect(answerFailure('route', 400, recorded('error-125-costing')).kind).toBe('failed');
    expect(answerFailure('route', 500, { error_code: 442, error: 'No path could be found for input' }).kind).toBe('failed');
    expect(answerFailure('route', 404, null).kind).toBe('failed');
  });
});

describe('configuration', () => {
  it('defaults to the built-in engine; valhalla needs VALHALLA_URL; the timeout defaults to 10 s', () => {
    expect(loadConfig({})).toMatchObject({ routingBackend: 'builtin', valhallaUrl: '', valhallaTimeoutMs: 10000 });
    expect(() => loadConfig({ ROUTING_BACKEND: 'valhalla' })).toThrow(new ConfigError('VALHALLA_URL', 'is required when ROUTING_BACKEND=valhalla'));
    expect(() => loadConfig({ ROUTING_BACKEND: 'osrm' })).toThrow(/ROUTING_BACKEND/);
    expect(() => loadConfig({ ROUTING_BACKEND: 'valhalla', VALHALLA_URL: 'valhalla:8002' })).toThrow(/VALHALLA_URL/);
    expect(() => loadConfig({ VALHALLA_TIMEOUT_MS: 'soon' })).toThrow(/VALHALLA_TIMEOUT_MS/);
    expect(loadConfig({ ROUTING_BACKEND: 'valhalla', VALHALLA_URL: 'http://valhalla:8002/', VALHALLA_TIMEOUT_MS: '2500' }))
      .toMatchObject({ routingBackend: 'valhalla', valhallaUrl: 'http://valhalla:8002', valhallaTimeoutMs: 2500 });
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeRequest } from '../../engines/optimization/request/normalize.ts';
import { parseDouble, parseDuration, parseEnum, parseInt64, parseTimestamp } from '../../engines/optimization/request/values.ts';
import { checkOptimizationRequest } from '../../engines/optimization/request/check.ts';
import { baseRequest, issuesOf, oneIssue, valid } from './request-fixtures.ts';

const value = <T>(p: { ok: boolean; value?: T }) => (p.ok ? p.value : 'bad');

describe('duration', () => {
  it('reads strings of seconds with an s suffix', () => {
    expect(value(parseDuration('95s'))).toBe(95);
    expect(value(parseDuration('0.5s'))).toBe(0.5);
    expect(value(parseDuration('1.5s'))).toBe(1.5);
    expect(value(parseDuration('18.681541692269406s'))).toBeCloseTo(18.681541692269406, 12);
    expect(value(parseDuration('-3s'))).toBe(-3);
  });
  it('reads {seconds, nanos}', () => {
    expect(value(parseDuration({ seconds: '95', nanos: 500_000_000 }))).toBe(95.5);
    expect(value(parseDuration({ seconds: 3 }))).toBe(3);
    expect(value(parseDuration({ seconds: 1, nanos: -1 }))).toBe('bad');
    expect(value(parseDuration({ seconds: 1, minutes: 2 }))).toBe('bad');
  });
  it('refuses the rest', () => {
    for (const bad of ['95', 95, '95 s', 's', '1e3s', '1m', '', null, true]) expect(value(parseDuration(bad))).toBe('bad');
  });
});

describe('timestamp', () => {
  it('reads RFC 3339 with any offset', () => {
    expect(value(parseTimestamp('1970-01-01T00:00:00Z'))).toBe(0);
    expect(value(parseTimestamp('2024-05-01T08:00:00-04:00'))).toBe(Date.UTC(2024, 4, 1, 12) / 1000);
    expect(value(parseTimestamp('2024-05-01T08:00:00+05:30'))).toBe(Date.UTC(2024, 4, 1, 2, 30) / 1000);
    expect(value(parseTimestamp('2024-05-01t08:00:00.250z'))).toBe(Date.UTC(2024, 4, 1, 8) / 1000 + 0.25);
    expect(value(parseTimestamp('0001-01-01T00:00:00Z'))).toBe(-62135596800);
  });
  it('refuses malformed or impossible instants', () => {
    for (const bad of ['2024-05-01', '2024-05-01T08:00:00', '2024-02-30T00:00:00Z', '2024-05-01T24:00:00Z', '2024-05-01 08:00:00Z', 1714550400, '2024-05-01T08:00:00+25:00']) {
      expect(value(parseTimestamp(bad))).toBe('bad');
    }
  });
});

describe('numbers and enums', () => {
  it('reads int64 as number or digit string', () => {
    expect(value(parseInt64('10'))).toBe(10);
    expect(value(parseInt64(10))).toBe(10);
    expect(value(parseInt64('-4'))).toBe(-4);
    for (const bad of ['1.5', 1.5, '10kg', '', '99999999999999999999']) expect(value(parseInt64(bad))).toBe('bad');
  });
  it('reads doubles as numbers or numeric strings, not NaN', () => {
    expect(value(parseDouble(1.5))).toBe(1.5);
    expect(value(parseDouble('2.5'))).toBe(2.5);
    expect(parseDouble('NaN')).toMatchObject({ ok: false, issue: 'INVALID_VALUE' });
    expect(parseDouble('abc')).toMatchObject({ ok: false, issue: 'MALFORMED_VALUE' });
  });
  it('reads enums by name or number', () => {
    const names = ['A', 'B', 'C'] as const;
    expect(value(parseEnum('B', names))).toBe('B');
    expect(value(parseEnum(2, names))).toBe('C');
    expect(value(parseEnum(3, names))).toBe('bad');
    expect(value(parseEnum('b', names))).toBe('bad');
  });
});

describe('snake_case and camelCase', () => {
  it('normalizes message fields and leaves load type names alone', () => {
    const { body, unknownFields } = normalizeRequest({
      solving_mode: 1,
      model: { global_start_time: 'x', shipments: [{ load_demands: { pallet_count: { amount: 1 } }, pickups: [{ time_windows: [{ soft_start_time: 't' }] }] }], vehicles: [{ load_limits: { max_weight_kg: { max_load: 3 } } }] },
    });
    expect(body).toEqual({
      solvingMode: 1,
      model: { globalStartTime: 'x', shipments: [{ loadDemands: { pallet_count: { amount: 1 } }, pickups: [{ timeWindows: [{ softStartTime: 't' }] }] }], vehicles: [{ loadLimits: { max_weight_kg: { maxLoad: 3 } } }] },
    });
    expect(unknownFields).toEqual([]);
  });

  it('gives the same model for both spellings', () => {
    const camel = baseRequest();
    camel.model.vehicles[0].routeDurationLimit = { maxDuration: '36000s', softMaxDuration: '28800s', costPerHourAfterSoftMax: 30 };
    camel.model.vehicles[0].breakRule = { breakRequests: [{ earliestStartTime: '2024-05-01T11:00:00Z', latestStartTime: '2024-05-01T13:00:00Z', minDuration: '1800s' }] };
    const toSnake = (v: unknown, mapKeys = false): unknown => {
      if (Array.isArray(v)) return v.map((x) => toSnake(x));
      if (v === null || typeof v !== 'object') return v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [
        mapKeys ? k : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        toSnake(x, k === 'loadDemands' || k === 'loadLimits'),
      ]));
    };
    const snake = toSnake(camel) as Record<string, any>;
    expect(snake.model.global_start_time).toBeDefined();
    expect(snake.model.vehicles[0].route_duration_limit.soft_max_duration).toBe('28800s');
    expect(valid(snake)).toEqual(valid(camel));
  });

  it('refuses a field given in both spellings, and unknown fields', () => {
    const body = baseRequest();
    body.model.global_start_time = body.model.globalStartTime;
    body.model.shipments[0].timeWindow = [];
    expect(issuesOf(body)).toEqual(['INVALID_ARGUMENT model.globalStartTime', 'UNKNOWN_FIELD model.shipments[0].timeWindow']);
  });

  it('keeps a load type named __proto__ as a name', () => {
    const body = baseRequest();
    body.model.shipments[1].loadDemands = JSON.parse('{"__proto__": {"amount": 2}}');
    const request = valid(body);
    expect(Object.keys(request.shipments[1]!.loadDemands)).toEqual(['__proto__']);
    expect(request.loadTypes).toEqual(['weight', '__proto__']);
  });
});

describe('parsed model', () => {
  it('fills defaults and converts times, durations and loads', () => {
    const request = valid(baseRequest());
    const day = Date.UTC(2024, 4, 1) / 1000;
    expect(request).toMatchObject({ solvingMode: 'DEFAULT_SOLVE', searchMode: 'RETURN_FAST', timeout: null, maxValidationErrors: 100, travel: { kind: 'road' }, globalStart: day, globalEnd: day + 86400 });
    const [a, b] = request.shipments;
    expect(a).toMatchObject({ label: 'a', penaltyCost: null, ignore: false, allowedVehicleIndices: null, loadDemands: { weight: 10 } });
    expect(a!.pickup).toEqual({ place: { kind: 'coordinates', latLng: { latitude: 45.4215, longitude: -75.6972 } }, duration: 60, timeWindows: [], tags: [] });
    expect(a!.delivery!.timeWindows).toEqual([{ start: day + 9 * 3600, end: day + 17 * 3600 }]);
    expect(b).toMatchObject({ pickup: null, penaltyCost: 100 });
    const [v0, v1] = request.vehicles;
    expect(v0).toMatchObject({ matrix: null, travelMode: 'DRIVING', svcProfile: 'auto', costPerKilometer: 1, loadLimits: { weight: { max: 100 } } });
    expect(v0!.startTimeWindow).toEqual({ start: day, end: day + 86400 });
    expect(v0!.routeDurationLimit).toEqual({ max: Infinity });
    expect(v1).toMatchObject({ end: null, ignore: false });
  });

  it('defaults the global window to 1970 and 1971', () => {
    const body = baseRequest();
    delete body.model.globalStartTime;
    delete body.model.globalEndTime;
    body.model.shipments[0].deliveries[0].timeWindows = [];
    expect(valid(body)).toMatchObject({ globalStart: 0, globalEnd: 31_536_000 });
  });

  it('reads enums by name and by number', () => {
    const byName = { ...baseRequest(), solvingMode: 'VALIDATE_ONLY', searchMode: 'CONSUME_ALL_AVAILABLE_TIME' };
    const byNumber = { ...baseRequest(), solvingMode: 1, searchMode: 2 };
    expect(valid(byName)).toEqual(valid(byNumber));
    expect(valid({ ...baseRequest(), searchMode: 'SEARCH_MODE_UNSPECIFIED' }).searchMode).toBe('RETURN_FAST');
    expect(oneIssue({ ...baseRequest(), searchMode: 'FASTEST' })).toBe('INVALID_VALUE searchMode');
    expect(oneIssue({ ...baseRequest(), searchMode: 7 })).toBe('INVALID_VALUE searchMode');
  });

  it('reads timeouts and labels, warns on parent and considerRoadTraffic', () => {
    const result = checkOptimizationRequest({ ...baseRequest(), timeout: '12.5s', label: 'run 1', parent: 'projects/p', considerRoadTraffic: true });
    expect(result.request).toMatchObject({ timeout: 12.5, label: 'run 1', considerRoadTraffic: true });
    expect(result.warnings).toHaveLength(2);
    expect(oneIssue({ ...baseRequest(), timeout: '95' })).toBe('MALFORMED_VALUE timeout');
    expect(oneIssue({ ...baseRequest(), timeout: 95 })).toBe('MALFORMED_VALUE timeout');
    expect(oneIssue({ ...baseRequest(), timeout: '-1s' })).toBe('INVALID_VALUE timeout');
    expect(oneIssue({ ...baseRequest(), timeout: '0s' })).toBe('INVALID_VALUE timeout');
    expect(valid({ ...baseRequest(), timeout: { seconds: '2', nanos: 500000000 } }).timeout).toBe(2.5);
  });

  it('reads timestamps with offsets into the same instants', () => {
    const body = baseRequest();
    body.model.globalStartTime = '2024-04-30T20:00:00-04:00';
    body.model.shipments[0].deliveries[0].timeWindows[0].startTime = '2024-05-01T11:00:00+02:00';
    const request = valid(body);
    expect(request.globalStart).toBe(Date.UTC(2024, 4, 1) / 1000);
    expect(request.shipments[0]!.delivery!.timeWindows[0]!.start).toBe(Date.UTC(2024, 4, 1, 9) / 1000);
  });

  it('reads geodesic travel', () => {
    expect(valid({ ...baseRequest(), useGeodesicDistances: true, geodesicMetersPerSecond: 12.5 }).travel).toEqual({ kind: 'geodesic', metersPerSecond: 12.5 });
    expect(oneIssue({ ...baseRequest(), useGeodesicDistances: true })).toBe('MISSING_REQUIRED_FIELD geodesicMetersPerSecond');
    expect(oneIssue({ ...baseRequest(), useGeodesicDistances: true, geodesicMetersPerSecond: 0.5 })).toBe('OUT_OF_RANGE geodesicMetersPerSecond');
  });

  it('reads waypoints with coordinates as coordinates', () => {
    const body = baseRequest();
    body.model.shipments[1].deliveries[0] = { arrivalWaypoint: { location: { latLng: { latitude: 45.3, longitude: -75.9 } } } };
    expect(valid(body).shipments[1]!.delivery!.place).toEqual({ kind: 'coordinates', latLng: { latitude: 45.3, longitude: -75.9 } });
  });
});

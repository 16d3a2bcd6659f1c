import { describe, expect, it } from 'vitest';
import { countLimitViolation, countPlanItems } from '../../engines/optimization/request/check.ts';
import { GATINEAU, OTTAWA, baseRequest, matrixRequest, oneIssue, valid } from './request-fixtures.ts';

type Body = Record<string, any>;
const withMatrix = (edit: (b: Body) => void): Body => {
  const body = matrixRequest();
  edit(body);
  return body;
};

describe('own matrices', () => {
  it('places visits and vehicles by tags', () => {
    const request = valid(matrixRequest());
    expect(request.travel.kind).toBe('matrices');
    if (request.travel.kind !== 'matrices') return;
    expect(request.travel.srcTags).toEqual(['depot', 's1', 's2']);
    expect(request.travel.matrices).toHaveLength(1);
    expect(request.travel.matrices[0]!.vehicleStartTag).toBeNull();
    expect(request.travel.matrices[0]!.durations[0]).toEqual([0, 100, 200]);
    expect(request.travel.matrices[0]!.meters[2]).toEqual([2000, 1000, 0]);
    expect(request.shipments[1]!.pickup!.place).toEqual({ kind: 'tags', src: 2, dst: 2 });
    expect(request.vehicles[0]).toMatchObject({ start: { kind: 'tags', src: 0, dst: null }, end: { kind: 'tags', src: null, dst: 0 }, matrix: 0 });
  });

  it('allows open ends and rows without meters when nothing refers to distance', () => {
    const request = valid(withMatrix((b) => {
      b.model.vehicles[0] = { startTags: ['depot'] };
      for (const row of b.model.durationDistanceMatrices[0].rows) delete row.meters;
    }));
    expect(request.vehicles[0]!.end).toBeNull();
    if (request.travel.kind === 'matrices') expect(request.travel.matrices[0]!.meters[1]).toEqual([0, 0, 0]);
  });

  it('selects one matrix per vehicleStartTag', () => {
    const request = valid(withMatrix((b) => {
      const m = b.model.durationDistanceMatrices[0];
      b.model.durationDistanceMatrices = [{ ...m, vehicleStartTag: 'car' }, { ...m, vehicleStartTag: 'van' }];
      b.model.vehicles = [{ startTags: ['depot', 'van'], endTags: ['depot'] }, { startTags: ['car'] }];
    }));
    expect(request.vehicles.map((v) => [v.matrix, v.start])).toEqual([[1, { kind: 'tags', src: 0, dst: null }], [0, null]]);
  });

  const cases: [string, (b: Body) => void, string][] = [
    ['unknown visit tag', (b) => { b.model.shipments[0].deliveries[0].tags = ['s9']; }, 'UNKNOWN_TAG model.shipments[0].deliveries[0].tags'],
    ['visit without tags', (b) => { b.model.shipments[0].deliveries[0].tags = []; }, 'MISSING_REQUIRED_FIELD model.shipments[0].deliveries[0].tags'],
    ['visit matching two tags', (b) => { b.model.shipments[0].deliveries[0].tags = ['s1', 's2']; }, 'INVALID_VALUE model.shipments[0].deliveries[0].tags'],
    ['coordinates with matrices', (b) => { b.model.shipments[0].deliveries[0].arrivalLocation = { ...OTTAWA }; }, 'CONFLICTING_FIELDS model.shipments[0].deliveries[0].arrivalLocation'],
    ['vehicle coordinates with matrices', (b) => { b.model.vehicles[0].startLocation = { ...OTTAWA }; }, 'CONFLICTING_FIELDS model.vehicles[0].startLocation'],
    ['unknown end tag', (b) => { b.model.vehicles[0].endTags = ['garage']; }, 'UNKNOWN_TAG model.vehicles[0].endTags'],
    ['rows short', (b) => { b.model.durationDistanceMatrices[0].rows.pop(); }, 'MATRIX_SHAPE_MISMATCH model.durationDistanceMatrices[0].rows'],
    ['durations short', (b) => { b.model.durationDistanceMatrices[0].rows[1].durations.pop(); b.model.durationDistanceMatrices[0].rows[1].meters.pop(); }, 'MATRIX_SHAPE_MISMATCH model.durationDistanceMatrices[0].rows[1].durations'],
    ['meters short', (b) => { b.model.durationDistanceMatrices[0].rows[2].meters.pop(); }, 'MATRIX_SHAPE_MISMATCH model.durationDistanceMatrices[0].rows[2].meters'],
    ['bad cell', (b) => { b.model.durationDistanceMatrices[0].rows[0].durations[1] = 100; }, 'MALFORMED_VALUE model.durationDistanceMatrices[0].rows[0].durations[1]'],
    ['negative meters', (b) => { b.model.durationDistanceMatrices[0].rows[0].meters[1] = -1; }, 'INVALID_VALUE model.durationDistanceMatrices[0].rows[0].meters[1]'],
    ['meters needed', (b) => { delete b.model.durationDistanceMatrices[0].rows[1].meters; }, 'MISSING_REQUIRED_FIELD model.durationDistanceMatrices[0].rows[1].meters'],
    ['no src tags', (b) => { delete b.model.durationDistanceMatrixSrcTags; b.model.durationDistanceMatrices[0].rows = []; }, 'MISSING_REQUIRED_FIELD model.durationDistanceMatrixSrcTags'],
    ['duplicate dst tag', (b) => { b.model.durationDistanceMatrixDstTags = ['depot', 's1', 's1']; }, 'DUPLICATE_VALUE model.durationDistanceMatrixDstTags[2]'],
    ['tags without matrices', (b) => { delete b.model.durationDistanceMatrices; }, 'MISSING_REQUIRED_FIELD model.durationDistanceMatrices'],
    ['geodesic with matrices', (b) => { b.useGeodesicDistances = true; b.geodesicMetersPerSecond = 10; }, 'CONFLICTING_FIELDS useGeodesicDistances'],
    ['two matrices, one untagged', (b) => {
      const m = b.model.durationDistanceMatrices[0];
      b.model.durationDistanceMatrices = [{ ...m, vehicleStartTag: 'car' }, m];
      b.model.vehicles[0].startTags.push('car');
    }, 'MISSING_REQUIRED_FIELD model.durationDistanceMatrices[1].vehicleStartTag'],
    ['vehicle naming no matrix', (b) => {
      const m = b.model.durationDistanceMatrices[0];
      b.model.durationDistanceMatrices = [{ ...m, vehicleStartTag: 'car' }, { ...m, vehicleStartTag: 'van' }];
    }, 'UNKNOWN_TAG model.vehicles[0].startTags'],
    ['same vehicleStartTag twice', (b) => {
      const m = b.model.durationDistanceMatrices[0];
      b.model.durationDistanceMatrices = [{ ...m, vehicleStartTag: 'car' }, { ...m, vehicleStartTag: 'car' }];
      b.model.vehicles[0].startTags.push('car');
    }, 'DUPLICATE_VALUE model.durationDistanceMatrices[1].vehicleStartTag'],
  ];
  it.each(cases)('%s', (_, edit, expected) => {
    expect(oneIssue(withMatrix(edit))).toBe(expected);
  });

  it('refuses a matrix over the plan location limit squared', () => {
    expect(oneIssue(matrixRequest(), { maxLocations: 2 })).toBe('OUT_OF_RANGE model.durationDistanceMatrices[0].rows');
    valid(matrixRequest(), { maxLocations: 3 });
  });
});

describe('plan count limits (rule 8)', () => {
  const limits = { shipments: 25, vehicles: 5, locations: 100 };

  it('counts shipments (ignored included), vehicles and distinct places', () => {
    const body = baseRequest();
    body.model.shipments.push({ ignore: true, deliveries: [{ arrivalLocation: { ...GATINEAU } }] });
    // Ottawa, Gatineau, Kanata: the ignored shipment and the vehicle ends merge with them.
    expect(countPlanItems(body)).toEqual({ shipments: 3, vehicles: 2, locations: 3 });
    expect(countLimitViolation(body, limits)).toBeNull();
  });

  it('counts waypoints and snake_case bodies alike', () => {
    const body = baseRequest();
    body.model.shipments[1].deliveries[0] = { arrival_waypoint: { location: { lat_lng: { latitude: 1, longitude: 2 } } } };
    expect(countPlanItems(body).locations).toBe(4);
  });

  it('names the first limit exceeded', () => {
    const body = baseRequest();
    body.model.shipments = Array.from({ length: 26 }, () => ({ deliveries: [{}] }));
    body.model.vehicles = Array.from({ length: 6 }, () => ({}));
    expect(countLimitViolation(body, limits)).toEqual({ limit: 'shipments', max: 25, count: 26 });
    body.model.shipments.pop();
    expect(countLimitViolation(body, limits)).toEqual({ limit: 'vehicles', max: 5, count: 6 });
  });

  it('counts distinct locations after merging identical coordinates', () => {
    const body = baseRequest();
    body.model.shipments = Array.from({ length: 20 }, (_, i) => ({ deliveries: [{ arrivalLocation: { latitude: 45 + (i % 12) / 100, longitude: -75 } }] }));
    expect(countLimitViolation(body, { ...limits, locations: 12 })).toEqual({ limit: 'locations', max: 12, count: 14 });
  });

  it('counts tags with own matrices', () => {
    expect(countPlanItems(matrixRequest())).toEqual({ shipments: 2, vehicles: 1, locations: 3 });
  });

  it('does not mind malformed bodies', () => {
    expect(countPlanItems(null)).toEqual({ shipments: 0, vehicles: 0, locations: 0 });
    expect(countPlanItems({ model: { shipments: [1, 'x'], vehicles: 'no' } })).toEqual({ shipments: 2, vehicles: 0, locations: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { errors } from '../../lib/errors.ts';
import {
  billedCount, matrixDigestOf, payerOf, shipmentIdentities, shipmentIdentity,
} from '../../engines/access/optimization-billing-rules.ts';
import type { OptimizationRequest, Place, RequestShipment as Shipment, TravelSource, RequestVehicle as Vehicle } from '../../engines/optimization/request-model.ts';
import { allowanceOf, allowanceShortfall } from '../../engines/access/allowance-rule.ts';

const at = (latitude: number, longitude: number): Place => ({ kind: 'coordinates', latLng: { latitude, longitude } });
const OTTAWA = at(45.4215, -75.6972);
const TORONTO = at(43.6532, -79.3832);
const MONTREAL = at(45.5019, -73.5674);

function shipment(over: Partial<Shipment> & { from?: Place | null; to?: Place | null } = {}): Shipment {
  const { from = null, to = OTTAWA, ...rest } = over;
  const visit = (place: Place) => ({ place, duration: 60, timeWindows: [], tags: [] });
  return {
    pickup: from ? visit(from) : null,
    delivery: to ? visit(to) : null,
    loadDemands: {},
    penaltyCost: null,
    ignore: false,
    allowedVehicleIndices: null,
    ...rest,
  };
}

function vehicle(startTags: string[] = [], endTags: string[] = []): Vehicle {
  const window = { start: 0, end: 86_400 };
  const unlimited = { max: Infinity };
  return {
    start: null, end: null, startTags, endTags, matrix: null, travelMode: 'DRIVING', svcProfile: 'auto',
    startTimeWindow: window, endTimeWindow: window, fixedCost: 0, costPerHour: 0, costPerTraveledHour: 0, costPerKilometer: 0,
    loadLimits: {}, routeDurationLimit: unlimited, travelDurationLimit: unlimited, routeDistanceLimit: unlimited, breaks: [], ignore: false,
  };
}

type Model = Pick<OptimizationRequest, 'shipments' | 'vehicles' | 'travel'>;
const road = (shipments: Shipment[], vehicles = [vehicle()]): Model => ({ shipments, vehicles, travel: { kind: 'road' } });
const idOf = (s: Shipment, model: Partial<Model> = {}) => shipmentIdentities({ ...road([s]), ...model })[0]!;

function matrices(durations: number[][]): Extract<TravelSource, { kind: 'matrices' }> {
  return { kind: 'matrices', srcTags: ['a', 'b'], dstTags: ['a', 'b'], matrices: [{ vehicleStartTag: null, durations, meters: durations.map((r) => r.map(() => 0)) }] };
}

describe('shipment identity (Billing 3)', () => {
  it('with a label: the label plus its visit locations; other content does not matter', () => {
    const base = shipment({ label: 'order-17', from: TORONTO, to: OTTAWA });
    expect(idOf(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(idOf({ ...base, penaltyCost: 5, loadDemands: { pallets: 3 } })).toBe(idOf(base));
    expect(idOf({ ...base, delivery: { ...base.delivery!, duration: 600, timeWindows: [{ start: 10, end: 20 }] } })).toBe(idOf(base));
    expect(idOf({ ...base, label: 'order-18' })).not.toBe(idOf(base));
  });

  it('a recycled label on different stops is a new shipment; pickup and delivery swapped too', () => {
    const base = shipment({ label: 'order-17', from: TORONTO, to: OTTAWA });
    expect(idOf(shipment({ label: 'order-17', from: TORONTO, to: MONTREAL }))).not.toBe(idOf(base));
    expect(idOf(shipment({ label: 'order-17', from: OTTAWA, to: TORONTO }))).not.toBe(idOf(base));
    expect(idOf(shipment({ label: 'order-17', from: null, to: OTTAWA }))).not.toBe(idOf(base));
  });

  it('without a label: the whole content', () => {
    const base = shipment({ to: OTTAWA });
    expect(idOf(shipment({ to: OTTAWA }))).toBe(idOf(base));
    expect(idOf({ ...base, penaltyCost: 5 })).not.toBe(idOf(base));
    expect(idOf({ ...base, loadDemands: { pallets: 1 } })).not.toBe(idOf(base));
    expect(idOf({ ...base, delivery: { ...base.delivery!, duration: 61 } })).not.toBe(idOf(base));
    expect(idOf({ ...base, allowedVehicleIndices: [0] })).not.toBe(idOf(base));
    // '' is no label: the content decides.
    expect(idOf({ ...base, label: '' })).toBe(idOf(base));
  });

  it('the key order of the parsed content does not matter (canonical JSON)', () => {
    const base = shipment({ loadDemands: { a: 1, b: 2 } });
    expect(idOf({ ...base, loadDemands: { b: 2, a: 1 } })).toBe(idOf(base));
  });

  it('a labelled and an unlabelled shipment never share an identity', () => {
    expect(shipmentIdentity({ label: 'x', visitLocations: 'same', content: 'same' }))
      .not.toBe(shipmentIdentity({ visitLocations: 'same', content: 'same' }));
  });

  it('with own matrices: the matrices and every vehicle\'s startTags and endTags are covered', () => {
    const tagged = shipment({ label: 'L', to: { kind: 'tags', src: 1, dst: 1 } });
    const own = (durations: number[][], vehicles = [vehicle(['a'], ['a'])]): Model => ({ shipments: [tagged], vehicles, travel: matrices(durations) });
    const first = shipmentIdentities(own([[0, 10], [10, 0]]))[0];
    expect(shipmentIdentities(own([[0, 10], [10, 0]]))[0]).toBe(first);
    expect(shipmentIdentities(own([[0, 11], [10, 0]]))[0]).not.toBe(first);
    expect(shipmentIdentities(own([[0, 10], [10, 0]], [vehicle(['b'], ['a'])]))[0]).not.toBe(first);
    expect(shipmentIdentities(own([[0, 10], [10, 0]], [vehicle(['a'], ['b'])]))[0]).not.toBe(first);
    expect(shipmentIdentities(own([[0, 10], [10, 0]], [vehicle(['a'], ['a']), vehicle(['b'], ['b'])]))[0]).not.toBe(first);
    // Same label and place by road: no matrices, no vehicle tags in it.
    expect(shipmentIdentities(road([tagged], [vehicle(['a'], ['a'])]))[0]).not.toBe(first);
    expect(shipmentIdentities(road([tagged], [vehicle(['z'], ['z'])]))[0]).toBe(shipmentIdentities(road([tagged]))[0]);
  });

  it('matrix digests tell rows apart from their concatenation', () => {
    expect(matrixDigestOf(matrices([[1, 2], [3, 4]]))).not.toBe(matrixDigestOf(matrices([[1], [2, 3, 4]])));
  });

  it('payer: the account, or key:<id> without one', () => {
    expect(payerOf({ id: 'key_1', accountId: 'acme' })).toBe('acme');
    expect(payerOf({ id: 'key_1', accountId: null })).toBe('key:key_1');
  });

  it('billed calls: each performed shipment whose identity was newly billed', () => {
    expect(billedCount(['a', 'b', 'a', 'c'], ['a', 'c'])).toBe(3);
    expect(billedCount(['a'], [])).toBe(0);
  });
});

describe('quota room (Billing 5)', () => {
  it('hobby: included volume minus the month\'s billable calls; quota_exceeded', () => {
    expect(allowanceOf({ plan: 'hobby', spendCap: 0, billable: 9_990 })).toEqual({ room: 10, code: 'quota_exceeded' });
    expect(allowanceOf({ plan: 'hobby', spendCap: 100, billable: 9_990 })).toEqual({ room: 10, code: 'quota_exceeded' });
    expect(allowanceOf({ plan: 'hobby', spendCap: 0, billable: 12_000 })).toEqual({ room: 0, code: 'quota_exceeded' });
  });

  it('paid with spend cap 0: a hard stop at the included volume; spend_cap', () => {
    expect(allowanceOf({ plan: 'indie', spendCap: 0, billable: 249_000 })).toEqual({ room: 1_000, code: 'spend_cap' });
    expect(allowanceOf({ plan: 'growth', spendCap: 0, billable: 2_000_000 })).toEqual({ room: 0, code: 'spend_cap' });
  });

  it('paid: included volume plus what the spend cap buys at the plan\'s overage price', () => {
    // indie 1.00 per 1,000: 5.00 buys 5,000 calls.
    expect(allowanceOf({ plan: 'indie', spendCap: 5, billable: 250_000 }).room).toBe(5_000);
    expect(allowanceOf({ plan: 'indie', spendCap: 5, billable: 254_999 }).room).toBe(1);
    // growth 0.75 per 1,000: 0.75 buys 1,000 calls, 1.00 buys 1,333.
    expect(allowanceOf({ plan: 'growth', spendCap: 0.75, billable: 2_000_000 }).room).toBe(1_000);
    expect(allowanceOf({ plan: 'growth', spendCap: 1, billable: 1_999_000 }).room).toBe(2_333);
    expect(allowanceOf({ plan: 'growth', spendCap: 1, billable: 9_000_000 }).room).toBe(0);
  });

  it('keys without an account are unlimited', () => {
    expect(allowanceOf(null).room).toBeNull();
    expect(allowanceShortfall(allowanceOf(null), 1_000_000)).toBeNull();
  });

  it('shortfall: new shipments over the room answer the plan\'s code; exactly the room fits', () => {
    expect(allowanceShortfall({ room: 10, code: 'quota_exceeded' }, 10)).toBeNull();
    expect(allowanceShortfall({ room: 10, code: 'quota_exceeded' }, 11)).toBe('quota_exceeded');
    expect(allowanceShortfall({ room: 0, code: 'spend_cap' }, 0)).toBeNull();
    expect(allowanceShortfall({ room: 0, code: 'spend_cap' }, 1)).toBe('spend_cap');
  });
});

describe('optimization errors (lib/errors.ts)', () => {
  const answer = (e: ReturnType<typeof errors.internal>) => ({ status: e.statusCode, body: e.body(), headers: e.headers });

  it('INVALID_ARGUMENT with field violations, FAILED_PRECONDITION, NOT_FOUND, DEADLINE_EXCEEDED, 413', () => {
    expect(answer(errors.invalidArgument('shipments: at most 25 on this plan', 'model.shipments'))).toEqual({
      status: 400, headers: {},
      body: { error: 'shipments: at most 25 on this plan', code: 'INVALID_ARGUMENT', status: 'INVALID_ARGUMENT', fieldViolations: [{ field: 'model.shipments', description: 'shipments: at most 25 on this plan' }] },
    });
    expect(errors.invalidArgument('bad').body()).toEqual({ error: 'bad', code: 'INVALID_ARGUMENT', status: 'INVALID_ARGUMENT' });
    expect(errors.invalidArgument('2 problems', [{ field: 'a', description: 'x' }, { field: 'b', description: 'y' }]).body())
      .toMatchObject({ fieldViolations: [{ field: 'a', description: 'x' }, { field: 'b', description: 'y' }] });
    expect(answer(errors.failedPrecondition('mandatory shipment 0 cannot be performed'))).toMatchObject({ status: 400, body: { code: 'FAILED_PRECONDITION', status: 'FAILED_PRECONDITION' } });
    expect(answer(errors.optimizationNotFound())).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', status: 'NOT_FOUND' } });
    expect(answer(errors.deadlineExceeded())).toMatchObject({ status: 504, body: { code: 'DEADLINE_EXCEEDED', status: 'DEADLINE_EXCEEDED' } });
    expect(answer(errors.bodyTooLarge())).toMatchObject({ status: 413, body: { error: 'request body exceeds 4 MiB', code: 'INVALID_ARGUMENT' } });
  });

  it('429s: solve slots busy with Retry-After; quota and spend cap with volume 1\'s codes, messages and Retry-After 3600', () => {
    expect(answer(errors.solveSlotsBusy(12, 2))).toEqual({
      status: 429, headers: { 'retry-after': '12' },
      body: { error: 'too many concurrent solves: 2 at once per account on this plan', code: 'RESOURCE_EXHAUSTED', status: 'RESOURCE_EXHAUSTED' },
    });
    expect(errors.solveSlotsBusy(0.2).headers['retry-after']).toBe('1');
    expect(answer(errors.optimizationQuota('quota_exceeded', 'https://dash.example'))).toEqual({
      status: 429, headers: { 'retry-after': '3600' },
      body: { error: 'monthly quota exceeded: raise your spend cap or upgrade at https://dash.example/billing', code: 'quota_exceeded', status: 'RESOURCE_EXHAUSTED' },
    });
    expect(answer(errors.optimizationQuota('spend_cap', 'https://dash.example'))).toEqual({
      status: 429, headers: { 'retry-after': '3600' },
      body: { error: 'spend cap reached: raise it at https://dash.example/billing', code: 'spend_cap', status: 'RESOURCE_EXHAUSTED' },
    });
  });
});

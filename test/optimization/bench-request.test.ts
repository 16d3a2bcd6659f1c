/** The benchmark's instance → Optimization request conversion (own Euclidean matrices). */
import { describe, expect, it } from 'vitest';
import { euclid, loadInstance } from '../support/optimization/instances.ts';
import { canonicalRoutes, permutation, timestamp, toRequest, VEHICLE_FIXED_COST } from '../support/optimization/to-request.ts';

const c101 = loadInstance('solomon', 'C101');
const lc101 = loadInstance('li_lim_100', 'lc101');

describe('benchmark requests', () => {
  it('writes one delivery shipment per Solomon customer and a full double-precision matrix', () => {
    const { body } = toRequest(c101, { objective: 'distance' });
    const model = (body as any).model;
    expect(body.timeout).toBeUndefined();
    expect(model.globalStartTime).toBe('1970-01-01T00:00:00Z');
    expect(model.globalEndTime).toBe('1970-01-01T00:20:36Z');
    expect(model.shipments).toHaveLength(100);
    expect(model.shipments[0]).toEqual({
      label: 'n1',
      deliveries: [{ tags: ['n1'], duration: '90s', timeWindows: [{ startTime: timestamp(912), endTime: timestamp(967) }] }],
      loadDemands: { units: { amount: 10 } },
    });
    expect(model.vehicles).toHaveLength(25);
    expect(model.vehicles[3]).toMatchObject({
      startTags: ['depot'], endTags: ['depot'], loadLimits: { units: { maxLoad: 200 } }, costPerKilometer: 1000,
      startTimeWindows: [{ startTime: '1970-01-01T00:00:00Z', endTime: '1970-01-01T00:20:36Z' }],
    });
    expect(model.vehicles[0].fixedCost).toBeUndefined();
    expect(model.durationDistanceMatrixSrcTags).toHaveLength(101);
    expect(model.durationDistanceMatrixSrcTags.slice(0, 2)).toEqual(['depot', 'n1']);
    const rows = model.durationDistanceMatrices[0].rows;
    expect(rows).toHaveLength(101);
    for (const [a, b] of [[0, 1], [5, 77], [100, 3]] as const) {
      expect(Number(rows[a].durations[b].slice(0, -1))).toBe(euclid(c101, a, b));
      expect(rows[a].meters[b]).toBe(euclid(c101, a, b));
    }
    expect(rows[4].durations[4]).toBe('0s');
    JSON.parse(JSON.stringify(body));
  });

  it('writes Li–Lim pairs as pickup-and-delivery shipments and adds a fixed cost for the vehicles objective', () => {
    const { body, shipmentNodes } = toRequest(lc101, { objective: 'vehicles', timeout: '30s' });
    const model = (body as any).model;
    expect(body.timeout).toBe('30s');
    expect(model.shipments).toHaveLength(53);
    const i = shipmentNodes.findIndex(([p]) => p === 3);
    expect(model.shipments[i].pickups[0].tags).toEqual(['n3']);
    expect(model.shipments[i].deliveries[0].tags).toEqual(['n75']);
    expect(model.shipments[i].loadDemands).toEqual({ units: { amount: 10 } });
    expect(model.vehicles[0].fixedCost).toBe(VEHICLE_FIXED_COST);
  });

  it('shuffles shipments by seed, keeping the mapping back to the instance order', () => {
    const plain = toRequest(c101, { objective: 'distance' });
    const a = toRequest(c101, { objective: 'distance', shuffle: 7 });
    const b = toRequest(c101, { objective: 'distance', shuffle: 7 });
    expect(a.order).toEqual(b.order);
    expect(a.order).not.toEqual(plain.order);
    expect([...a.order].sort((x, y) => x - y)).toEqual(plain.order);
    const ship = (r: typeof a, i: number) => (r.body as any).model.shipments[i];
    for (let i = 0; i < 100; i++) expect(ship(a, i)).toEqual(ship(plain, a.order[i]!));
    expect(permutation(5, 0)).toEqual([0, 1, 2, 3, 4]);
    // The same tours answered against either order read the same in instance nodes.
    const at = (r: typeof a, node: number) => r.order.findIndex((o) => o === node - 1);
    const tours = [[3, 1], [2]];
    const answer = (r: typeof a) => ({ routes: tours.map((t) => ({ visits: t.map((n) => ({ shipmentIndex: at(r, n) })) })) });
    expect(canonicalRoutes(a, answer(a))).toEqual([[2], [3, 1]]);
    expect(canonicalRoutes(plain, answer(plain))).toEqual(canonicalRoutes(a, answer(a)));
  });
});

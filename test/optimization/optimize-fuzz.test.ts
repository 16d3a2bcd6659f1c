import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiStack } from '../support/api-stack.ts';

const at = { latitude: 49.28, longitude: -123.11 };
const valid = {
  useGeodesicDistances: true,
  geodesicMetersPerSecond: 10,
  model: {
    shipments: [{ pickups: [{ arrivalLocation: at }], deliveries: [{ arrivalLocation: { latitude: 49.27, longitude: -123.1 } }], loadDemands: { kg: { amount: '3' } } }],
    vehicles: [{ startLocation: at, loadLimits: { kg: { maxLoad: 5 } }, breakRule: { breakRequests: [{ earliestStartTime: '1970-01-01T00:10:00Z', latestStartTime: '1970-01-01T01:00:00Z', minDuration: '600s' }] } }],
  },
};

// Every leaf of the valid request replaced, in turn, by each of these.
const ODD_VALUES: unknown[] = [null, true, -1, 1e308, -1e308, 0.5, '', 'x', '-5s', '1e400s', 'NaNs', '9999-99-99T99:99:99Z', [], {}, [null], { amount: {} }, 'constructor', 2 ** 53 + 1];

function* leaves(value: unknown, path: (string | number)[] = []): Generator<(string | number)[]> {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* leaves(v, [...path, Array.isArray(value) ? Number(k) : k]);
    if (path.length > 0) yield path;
  } else yield path;
}

function replaced(path: (string | number)[], odd: unknown): unknown {
  const copy = structuredClone(valid) as Record<string, unknown>;
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = odd;
  return copy;
}

let stack: ApiStack;
beforeAll(async () => {
  stack = await ApiStack.create('optimize_fuzz');
  await stack.start();
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

describe('POST /optimize with odd values anywhere', () => {
  it('answers every one with 200, a 4xx or the roads 503 in the optimization shape, never a 500', async () => {
    const statuses = new Map<number, number>();
    const bodies = [null, [], 'text', 42, {}, { model: null }, { model: [] }, { model: { shipments: {} } }];
    for (const path of leaves(valid)) for (const odd of ODD_VALUES) bodies.push(replaced(path, odd) as never);
    for (const body of bodies) {
      const answer = await stack.post('/optimize', JSON.stringify(body));
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status !== 200) {
        // 503: a body that falls back to road travel, with no roads release in this stack.
        expect(answer.status === 503 ? answer.body.error : answer.status, JSON.stringify(body)).toSatisfy((s: unknown) => s === 'routing temporarily unavailable' || (typeof s === 'number' && s < 500));
        expect(answer.body.status, JSON.stringify(body)).toBeTypeOf('string');
      }
    }
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(100);
  }, 120_000);
});

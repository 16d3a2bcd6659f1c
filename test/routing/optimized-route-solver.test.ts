/**
 * The stop-order solver over plain matrices: exact against every permutation up to 9 stops for
 * each start/end rule, the heuristic within 2 % of the best of 50 random restarts of its own local
 * search from 15 to 50 stops, unreachable pairs, determinism and the refused inputs. The same
 * checks over real Vancouver matrices are in optimized-route-api.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { heuristicTour } from '../../engines/routing/stop-order/heuristic.ts';
import { reduce } from '../../engines/routing/stop-order/problem.ts';
import { improveOrder, orderStops, type StopEnds } from '../../engines/routing/stop-order/solve.ts';
import { ALL_ENDS, bestOfRandomRestarts, bruteForce, randomMatrix, uniformMatrix } from '../support/routing/stop-order-reference.ts';

const label = (ends: StopEnds) => `start ${ends.start}, end ${ends.end}`;

/** The order is a permutation of the stops that keeps the fixed ends. */
function expectValidOrder(order: number[], n: number, ends: StopEnds): void {
  expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
  if (ends.start === 'first') expect(order[0]).toBe(0);
  if (ends.end === 'last' && n > 1) expect(order[n - 1]).toBe(n - 1);
}

describe('orderStops: exact up to 12 stops', () => {
  it.each(ALL_ENDS.map((ends) => [label(ends), ends] as const))('equals brute force on every instance of 1 to 9 stops (%s)', (_, ends) => {
    for (let n = 1; n <= 9; n++) {
      for (let seed = 1; seed <= (n <= 7 ? 8 : 3); seed++) {
        for (const d of [randomMatrix(n, 1000 * n + seed), uniformMatrix(n, 2000 * n + seed)]) {
          const solved = orderStops(d, ends);
          const reference = bruteForce(d, ends);
          expect(solved, `n=${n} seed=${seed}`).not.toBeNull();
          expect(solved!.cost).toBeCloseTo(reference.cost, 6);
          expectValidOrder(solved!.order, n, ends);
        }
      }
    }
  });

  it('a round trip counts the way back and does not repeat the start', () => {
    const d = [[0, 1, 100], [100, 0, 1], [1, 100, 0]];
    expect(orderStops(d, { start: 'first', end: 'first' })).toEqual({ order: [0, 1, 2], cost: 3 });
    expect(orderStops(d, { start: 'first', end: 'any' })).toEqual({ order: [0, 1, 2], cost: 2 });
    expect(orderStops(d, { start: 'any', end: 'any' })!.cost).toBe(2);
    expect(orderStops(d, { start: 'first', end: 'last' })).toEqual({ order: [0, 1, 2], cost: 2 });
    expect(orderStops([[0, 5], [7, 0]], { start: 'first', end: 'first' })).toEqual({ order: [0, 1], cost: 12 });
  });
});

describe('orderStops: the heuristic above 12 stops', () => {
  const sizes = [15, 25, 40, 50];
  it.each(sizes)('is within 2 percent of the best of 50 random restarts on seeded instances of %i stops, for every start/end rule', (n) => {
    for (const ends of ALL_ENDS) {
      for (const [kind, d] of [['geometric', randomMatrix(n, 7 * n + 1)], ['uniform', uniformMatrix(n, 7 * n + 2)]] as const) {
        const solved = orderStops(d, ends)!;
        expectValidOrder(solved.order, n, ends);
        const restarts = bestOfRandomRestarts(d, ends, 50, n);
        expect(solved.cost, `${kind} ${label(ends)}: ${solved.cost} vs ${restarts}`).toBeLessThanOrEqual(restarts * 1.02);
      }
    }
  });

  it('is deterministic: the same matrix gives the same order', () => {
    const d = randomMatrix(30, 42);
    const first = orderStops(d, { start: 'any', end: 'any' });
    expect(orderStops(d, { start: 'any', end: 'any' })).toEqual(first);
  });

  it('reaches a local optimum its own moves cannot improve, and its cost is the order\'s duration', () => {
    const d = randomMatrix(20, 5);
    const ends: StopEnds = { start: 'first', end: 'first' };
    const solved = orderStops(d, ends)!;
    expect(improveOrder(d, ends, solved.order)!.cost).toBeCloseTo(solved.cost, 9);
    const legs = solved.order.map((s, i) => d[s]![solved.order[(i + 1) % 20]!]!);
    expect(solved.cost).toBeCloseTo(legs.reduce((a, b) => a + b, 0), 9);
  });
});

describe('orderStops: unreachable pairs', () => {
  const INF = Infinity;

  it('avoids an unreachable pair when an order can (exact and heuristic)', () => {
    // 1 cannot reach 2 directly: the best order goes 0 → 2 → 1 → 3 although 0 → 1 → 2 → 3 would be cheaper.
    const d = [[0, 1, 5, 9], [1, 0, INF, 9], [5, 1, 0, 1], [9, 9, 9, 0]];
    expect(orderStops(d, { start: 'first', end: 'last' })).toEqual({ order: [0, 2, 1, 3], cost: 15 });
    const big = randomMatrix(30, 9);
    for (let j = 0; j < 30; j++) if (j !== 7 && j !== 8) big[7]![j] = INF; // from 7 only 8 is reachable
    for (const end of ['any', 'last', 'first'] as const) {
      const solved = orderStops(big, { start: 'first', end })!;
      expect(Number.isFinite(solved.cost)).toBe(true);
      // 7 is left only towards 8 (or not at all, at the end of a route that may end anywhere).
      const after = solved.order[(solved.order.indexOf(7) + 1) % 30];
      expect(end === 'any' && solved.order.at(-1) === 7 ? 8 : after).toBe(8);
    }
  });

  it('puts a stop that can be entered but not left last when the end is free', () => {
    const d = randomMatrix(8, 3);
    for (let j = 0; j < 8; j++) if (j !== 4) d[4]![j] = INF;
    expect(orderStops(d, { start: 'first', end: 'any' })!.order.at(-1)).toBe(4);
    expect(orderStops(d, { start: 'first', end: 'last' })).toBeNull();
    expect(orderStops(d, { start: 'first', end: 'first' })).toBeNull();
  });

  it('returns null when a stop cannot be reached at all (exact and heuristic); NaN counts as unreachable', () => {
    for (const n of [6, 20]) {
      const d = randomMatrix(n, n);
      for (let i = 0; i < n; i++) if (i !== 2) d[i]![2] = INF;
      for (const ends of ALL_ENDS) {
        const result = orderStops(d, ends);
        if (ends.start === 'any') expect(result!.order[0]).toBe(2); // a free start can begin there
        else expect(result).toBeNull();
      }
    }
    expect(orderStops([[0, NaN], [1, 0]], { start: 'first', end: 'last' })).toBeNull();
    expect(orderStops([[0, NaN], [1, 0]], { start: 'any', end: 'any' })).toEqual({ order: [1, 0], cost: 1 });
  });

  it('finds the one feasible order of a heuristic-size instance with a forced chain', () => {
    const n = 18;
    const d = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j === (i + 1) % n ? 10 : i === j ? 0 : INF)));
    expect(orderStops(d, { start: 'first', end: 'first' })).toEqual({ order: Array.from({ length: n }, (_, i) => i), cost: 10 * n });
    const problem = reduce(d, { start: 'any', end: 'any' });
    expect(heuristicTour(problem).cost).toBeLessThan(problem.penalty);
  });
});

describe('orderStops: refused input', () => {
  it('throws RangeError on a round trip with a free start, a matrix that is not square, or no stops', () => {
    expect(() => orderStops([[0, 1], [1, 0]], { start: 'any', end: 'first' })).toThrow(RangeError);
    expect(() => orderStops([[0, 1], [1]], { start: 'first', end: 'last' })).toThrow(RangeError);
    expect(() => orderStops([], { start: 'first', end: 'last' })).toThrow(RangeError);
  });
});

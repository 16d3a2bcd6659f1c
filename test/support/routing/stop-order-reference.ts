/**
 * References for the stop-order solver: every permutation (brute force), the best of random
 * restarts of the solver's own local search, random asymmetric matrices and the ends combinations.
 */
import { improveOrder, type StopEnds } from '../../../engines/routing/stop-order/solve.ts';
import {  } from '../../routing/vancouver-graph.ts';
import { seededRandom as random } from '../../../lib/seeded-random.ts';

export const ALL_ENDS: readonly StopEnds[] = [
  { start: 'first', end: 'last' },
  { start: 'first', end: 'first' },
  { start: 'first', end: 'any' },
  { start: 'any', end: 'last' },
  { start: 'any', end: 'any' },
];

type Matrix = readonly (readonly number[])[];

function duration(d: Matrix, order: readonly number[], roundTrip: boolean): number {
  let sum = 0;
  for (let i = 0; i + 1 < order.length; i++) sum += d[order[i]!]![order[i + 1]!]!;
  if (roundTrip && order.length > 1) sum += d[order[order.length - 1]!]![order[0]!]!;
  return sum;
}

/** Every order the ends allow: the least duration (Infinity when none is finite) and an order reaching it. */
export function bruteForce(d: Matrix, ends: StopEnds): { cost: number; order: number[] | null } {
  const n = d.length;
  const head = ends.start === 'first' ? 0 : -1;
  const tail = ends.end === 'last' ? n - 1 : -1;
  const free = Array.from({ length: n }, (_, i) => i).filter((i) => i !== head && i !== tail);
  const roundTrip = ends.end === 'first';
  let best = Infinity;
  let bestOrder: number[] | null = null;
  const path: number[] = head >= 0 ? [head] : [];
  const used = new Array<boolean>(n).fill(false);
  const visit = (): void => {
    if (path.length === free.length + (head >= 0 ? 1 : 0)) {
      const order = tail >= 0 && tail !== head ? [...path, tail] : [...path];
      const c = duration(d, order, roundTrip);
      if (c < best) [best, bestOrder] = [c, order];
      return;
    }
    for (const x of free) {
      if (used[x]) continue;
      used[x] = true;
      path.push(x);
      visit();
      path.pop();
      used[x] = false;
    }
  };
  visit();
  return { cost: best, order: bestOrder };
}

/** A random order of every stop keeping the fixed ends. */
export function randomOrder(n: number, ends: StopEnds, next: () => number): number[] {
  const head = ends.start === 'first' ? 0 : -1;
  const tail = ends.end === 'last' ? n - 1 : -1;
  const free = Array.from({ length: n }, (_, i) => i).filter((i) => i !== head && i !== tail);
  for (let i = free.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [free[i], free[j]] = [free[j]!, free[i]!];
  }
  return [...(head >= 0 ? [head] : []), ...free, ...(tail >= 0 ? [tail] : [])];
}

/** The best of `restarts` local searches (the solver's own moves) from seeded random orders. */
export function bestOfRandomRestarts(d: Matrix, ends: StopEnds, restarts: number, seed: number): number {
  const next = random(seed);
  let best = Infinity;
  for (let r = 0; r < restarts; r++) best = Math.min(best, improveOrder(d, ends, randomOrder(d.length, ends, next))?.cost ?? Infinity);
  return best;
}

/** A random asymmetric matrix: points in a square, travel = distance × a random one-way factor. */
export function randomMatrix(n: number, seed: number, asymmetry = 0.4): number[][] {
  const next = random(seed);
  const points = Array.from({ length: n }, () => [next() * 1000, next() * 1000] as const);
  return points.map(([x1, y1], i) => points.map(([x2, y2], j) => (i === j ? 0 : Math.hypot(x2 - x1, y2 - y1) * (1 + asymmetry * next()) + 30 * next())));
}

/** Uniform random costs (no geometry at all): the hardest kind for a local search. */
export function uniformMatrix(n: number, seed: number): number[][] {
  const next = random(seed);
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 0 : Math.round(next() * 1000))));
}

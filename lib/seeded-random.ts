/**
 * The one deterministic PRNG (mulberry32) and the draws made with it: the same seed gives the
 * same numbers in [0, 1), so solver restarts, generated test cases, synthetic corpora and
 * benchmark draws replay exactly.
 */
export interface Random {
  (): number;
  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  /** An item drawn with probability proportional to its weight, through a precomputed cumulative table. */
  weighted<T>(table: WeightedTable<T>): T;
  chance(p: number): boolean;
}

export interface WeightedTable<T> {
  items: readonly T[];
  cumulative: Float64Array;
}

export function weightedTable<T>(entries: ReadonlyArray<readonly [T, number]>): WeightedTable<T> {
  const cumulative = new Float64Array(entries.length);
  let sum = 0;
  entries.forEach(([, w], i) => (cumulative[i] = sum += w));
  return { items: entries.map(([item]) => item), cumulative };
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random = next as Random;
  random.int = (max) => Math.floor(next() * max);
  random.pick = (items) => items[Math.floor(next() * items.length)]!;
  random.chance = (p) => next() < p;
  random.weighted = ({ cumulative, items }) => {
    const x = next() * cumulative[cumulative.length - 1]!;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo]!;
  };
  return random;
}

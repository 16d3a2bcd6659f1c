/** A seeded PRNG (sfc32) and the draws the corpus generator makes with it: same seed, same corpus. */
export interface Random {
  (): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  /** Index drawn with probability proportional to weights[i], through a precomputed cumulative table. */
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
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  const random = next as Random;
  random.int = (max) => Math.floor(next() * max);
  random.pick = (items) => items[Math.floor(next() * items.length)]!;
  random.chance = (p) => next() < p;
  random.weighted = (table) => {
    const { cumulative, items } = table;
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

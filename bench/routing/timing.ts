/** Per-call timings of the engine benchmark and their summary. */

export interface Timings {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentiles, mean and max of milliseconds. */
export function summarize(ms: readonly number[]): Timings {
  const sorted = Float64Array.from(ms).sort();
  const rank = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, p50: rank(50), p95: rank(95), mean, max: sorted.length ? sorted[sorted.length - 1]! : NaN };
}

/** Milliseconds of each call, after one untimed pass over all of them (JIT, caches). */
export function timeEach<T>(items: readonly T[], call: (item: T) => unknown): number[] {
  for (const item of items) call(item);
  return items.map((item) => {
    const started = performance.now();
    call(item);
    return performance.now() - started;
  });
}

export const ms = (v: number): string => (Number.isNaN(v) ? 'n/a' : `${v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0)} ms`);
export const ratio = (a: number, b: number): string => `${a / b >= 10 ? (a / b).toFixed(0) : (a / b).toFixed(2)}×`;

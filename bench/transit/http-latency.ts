export interface LatencySummary {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Percentiles (nearest rank) of per-request latencies and the throughput over the run. */
export function latencySummary(latenciesMs: number[], seconds: number): LatencySummary {
  const sorted = Float64Array.from(latenciesMs).sort();
  const rank = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
  return { rps: latenciesMs.length / seconds, p50: rank(50), p95: rank(95), p99: rank(99) };
}

/** The serving-cost benchmark's figures per run and its table. */
export interface RunFigures {
  name: string;
  label: string;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  cpu_us_per_answer: number;
  /** CPU per answer over the authenticated no-op's (the first run). */
  x_noop: number;
  /** Bytes the loader read per answer, headers included. */
  mean_bytes: number;
  /** Answers other than the family's expected status class, and socket errors. */
  unexpected: number;
  loader_cores: number;
}

const size = (bytes: number) => (bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${bytes.toFixed(0)} B`);

export function costTable(figures: readonly RunFigures[]): string {
  return [
    '| run | request | bytes read per answer | req/s | p50 ms | p95 ms | p99 ms | server CPU per answer | × no-op | loader cores | unexpected answers |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...figures.map((f) => `| ${f.name} | ${f.label} | ${size(f.mean_bytes)} | ${f.rps.toFixed(0)} | ${f.p50_ms.toFixed(2)} | ${f.p95_ms.toFixed(2)} | ${f.p99_ms.toFixed(2)} `
      + `| ${f.cpu_us_per_answer.toFixed(0)} µs | ${f.x_noop.toFixed(2)} | ${f.loader_cores.toFixed(2)} | ${f.unexpected} |`),
  ].join('\n');
}

/** autocannon over a rotating list of requests, with per-request latencies kept for percentiles. */
import { createRequire } from 'node:module';
import { latencySummary, type LatencySummary } from '../transit/http-latency.ts';

interface Instance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'done', fn: (result: { non2xx: number; errors: number; timeouts: number; duration: number }) => void): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Instance;

export interface LoadResult extends LatencySummary {
  requests: number;
  failed: number;
  /** Mean response size, bytes. */
  meanBytes: number;
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

/** GETs of `paths` in turn (wrapping around) for `seconds` at `connections` connections. */
export function loadPaths(paths: readonly string[], options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  return new Promise((resolve) => {
    const latencies: number[] = [];
    let bytes = 0;
    const instance = autocannon({
      url: options.url,
      connections: options.connections,
      duration: options.seconds,
      headers: options.headers,
      requests: [{ setupRequest: (req: object) => ({ ...req, path: paths[next++ % paths.length] }) }],
    });
    instance.on('response', (_client, _status, b, ms) => {
      latencies.push(ms);
      bytes += b;
    });
    instance.on('done', (r) => {
      resolve({
        ...latencySummary(latencies, r.duration),
        requests: latencies.length,
        failed: r.non2xx + r.errors + r.timeouts,
        meanBytes: bytes / Math.max(1, latencies.length),
      });
    });
  });
}

export interface CpuPerAnswer {
  /** The API processes' CPU time (user + system) over the run ÷ answers, µs. */
  cpuUsPerAnswer: number;
  /** The load generator's (this process's) CPU time ÷ answers, µs. */
  loaderCpuUsPerAnswer: number;
}

export function cpuPerAnswer(apiCpuSeconds: number, loaderCpuSeconds: number, answers: number): CpuPerAnswer {
  const per = (seconds: number) => (seconds * 1e6) / Math.max(1, answers);
  return { cpuUsPerAnswer: per(apiCpuSeconds), loaderCpuUsPerAnswer: per(loaderCpuSeconds) };
}

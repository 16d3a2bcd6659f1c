import { createRequire } from 'node:module';
import { latencySummary, type LatencySummary } from '../transit/http-latency.ts';

interface Instance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'done', fn: (result: { non2xx: number; errors: number; timeouts: number; duration: number }) => void): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Instance;

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RequestsLoad extends LatencySummary {
  requests: number;
  failed: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
}

/** One request sent over and over for `seconds` at `connections` connections, latencies kept for percentiles. */
export function loadRequest(origin: string, request: LoadRequest, options: { connections: number; seconds: number }): Promise<RequestsLoad> {
  return new Promise((resolve) => {
    const latencies: number[] = [];
    const statuses: Record<number, number> = {};
    const instance = autocannon({
      url: `${origin}${request.path}`,
      connections: options.connections,
      duration: options.seconds,
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
    instance.on('done', (r) => {
      resolve({ ...latencySummary(latencies, r.duration), requests: latencies.length, failed: r.non2xx + r.errors + r.timeouts, statuses });
    });
  });
}

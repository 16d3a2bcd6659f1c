/**
 * autocannon over a rotating list of GET and POST requests (bench/geocoding/load.ts takes GET
 * paths only), with per-request latencies for percentiles and a count per status code.
 */
import { createRequire } from 'node:module';
import { latencySummary, type LatencySummary } from '../transit/http-latency.ts';
import type { BenchRequest } from './serve-requests.ts';

interface Instance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'done', fn: (result: { errors: number; timeouts: number; duration: number }) => void): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Instance;

export interface RequestsResult extends LatencySummary {
  requests: number;
  /** Answers per HTTP status. */
  statuses: Map<number, number>;
  /** Connection errors and timeouts. */
  errors: number;
  meanBytes: number;
}

export function loadRequests(requests: readonly BenchRequest[], options: { url: string; key: string; connections: number; seconds: number }): Promise<RequestsResult> {
  let next = 0;
  const withKey = (p: string) => `${p}${p.includes('?') ? '&' : '?'}key=${options.key}`;
  const json = { 'content-type': 'application/json' };
  const prepared = requests.map((r) => ({ method: r.method, path: withKey(r.path), ...(r.body === undefined ? {} : { body: r.body, headers: json }) }));
  return new Promise((resolve) => {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let bytes = 0;
    const instance = autocannon({
      url: options.url,
      connections: options.connections,
      duration: options.seconds,
      requests: [{
        setupRequest: (req: Record<string, unknown>) => {
          return { ...req, ...prepared[next++ % prepared.length]! };
        },
      }],
    });
    instance.on('response', (_client, status, b, ms) => {
      latencies.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      bytes += b;
    });
    instance.on('done', (r) => {
      resolve({
        ...latencySummary(latencies, r.duration), requests: latencies.length, statuses,
        errors: r.errors + r.timeouts, meanBytes: bytes / Math.max(1, latencies.length),
      });
    });
  });
}

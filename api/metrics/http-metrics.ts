import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram, type Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics-registry.ts';

/** Most answers take 1–50 ms; tiles and lookups less, /optimize up to about a minute. */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The route label of a request that matched no route (a 404 of an unserved path, an unroutable URL). */
export const UNMATCHED_ROUTE = 'unmatched';

export type HttpDuration = Histogram<'method' | 'route' | 'status_code'>;

export function httpDurationHistogram(registry: Registry): HttpDuration {
  return new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'Time from a request\'s arrival to its answer, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  });
}

/** Labels are the route's pattern (never the raw URL: no ids, keys or coordinates). */
export function observeRequest(histogram: HttpDuration, request: FastifyRequest, reply: FastifyReply, elapsedMs: number): void {
  const route = request.is404 ? undefined : request.routeOptions.url;
  histogram.observe({ method: request.method, route: route ?? UNMATCHED_ROUTE, status_code: String(reply.statusCode) }, elapsedMs / 1000);
}

/** Observes every answered request (onResponse: the answer is sent). */
export const httpMetricsPlugin = fp<{ histogram: HttpDuration }>(
  async (app, { histogram }) => {
    app.addHook('onResponse', (request, reply, done) => {
      observeRequest(histogram, request, reply, reply.elapsedTime);
      done();
    });
  },
  { name: 'canmap-http-metrics' },
);

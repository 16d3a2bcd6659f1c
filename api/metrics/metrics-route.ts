import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MetricsSource } from './cluster-metrics.ts';

/** GET /metrics of the admin server: the Prometheus text format. */
export function metricsRoute(source: MetricsSource) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    const text = await source.scrape();
    return reply.type(source.contentType).send(text);
  };
}

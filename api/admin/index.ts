import Fastify, { type FastifyInstance } from 'fastify';
import type { ReleaseStore } from '../../releases/reader.ts';
import type { MetricsSource } from '../metrics/cluster-metrics.ts';
import { metricsRoute } from '../metrics/metrics-route.ts';
import type { HealthProbe } from './health-probe.ts';
import { readinessOf } from './readiness.ts';

/**
 * The operators' server on ADMIN_PORT (never exposed publicly), no key:
 * - GET /livez: 200 while the process serves;
 * - GET /readyz: 200 when Postgres and Redis answer and every enabled release is served, else 503
 *   with the reasons (what a load balancer or an orchestrator routes by);
 * - GET /healthz: the details (each kind's release, the last checks, the full verifies) with the
 *   readiness status code;
 * - GET /metrics: the Prometheus metrics (api/metrics/).
 */
export function buildAdmin(deps: { releases: ReleaseStore; health: HealthProbe; metrics?: MetricsSource; logger?: boolean | object }): FastifyInstance {
  const admin = Fastify({ logger: deps.logger ?? false });
  const current = () => {
    const health = deps.health.snapshot();
    const releases = deps.releases.status();
    return { health, releases, readiness: readinessOf(health, releases) };
  };
  admin.get('/livez', async () => ({ status: 'live' }));
  if (deps.metrics) admin.get('/metrics', metricsRoute(deps.metrics)); // Prometheus text (docs/operations.md, Metrics)
  admin.get('/readyz', async (_request, reply) => {
    const { readiness } = current();
    reply.code(readiness.ready ? 200 : 503);
    const warnings = readiness.warnings.length > 0 ? { warnings: readiness.warnings } : {};
    return readiness.ready ? { status: 'ready', ...warnings } : { status: 'not ready', reasons: readiness.reasons, ...warnings };
  });
  admin.get('/healthz', async (_request, reply) => {
    const { health, releases, readiness } = current();
    const allServed = Object.values(releases).every((r) => r.state === 'ready');
    reply.code(readiness.ready ? 200 : 503);
    return {
      // ok: everything registered is served; degraded: something is not (ready says whether that matters).
      status: readiness.ready && allServed ? 'ok' : 'degraded',
      ready: readiness.ready,
      reasons: readiness.reasons,
      warnings: readiness.warnings,
      releases,
      postgres: health.postgres.ok,
      redis: health.redis.ok,
      checks: health,
      // fullVerify: each kind's last sha256 check of every artifact (at open or in the background).
      fullVerify: deps.releases.verification(),
    };
  });
  return admin;
}

import type { FastifyInstance } from 'fastify';
import type { Config } from '../lib/config.ts';
import { createPool } from '../lib/postgres.ts';
import { redactUrl } from '../lib/redact-url.ts';
import { createApiRedis, redisReady } from '../lib/redis.ts';
import { openReleaseBucket } from '../releases/object-store/open-bucket.ts';
import { ReleaseStore, type ReaderLog } from '../releases/reader.ts';
import { buildAdmin } from './admin/index.ts';
import { HealthProbe } from './admin/health-probe.ts';
import { buildApp } from './app.ts';
import { metricsSource } from './metrics/cluster-metrics.ts';
import { createApiMetrics } from './metrics/index.ts';
import { releaseKinds } from './release-kinds.ts';
import { hotTilesOf } from '../engines/tiles/hot-tiles.ts';

export interface RunningServer {
  app: FastifyInstance;
  admin: FastifyInstance;
  /** Where the API and the admin server listen (the real ports when 0 was configured). */
  url: string;
  adminUrl: string;
  /**
   * Stops accepting, lets in-flight requests finish for up to config.shutdownGraceMs (then closes
   * their connections), then closes releases, the pool and Redis.
   */
  close(): Promise<void>;
}

function listenUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') return String(address);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Everything `canmap serve` runs: the release store, the API and the admin server. A Redis that
 * does not answer does not stop it: the rate limit fails open until Redis is back (README, API).
 */
export async function startServer(config: Config, options: { logger?: boolean | object; queueNames?: readonly string[] } = {}): Promise<RunningServer> {
  const pool = createPool(config.databaseUrl);
  // The store logs through the app's logger, which exists only once the app is built.
  let app: FastifyInstance | undefined;
  let storeLog: ReaderLog | undefined;
  const log: ReaderLog = {
    info: (obj, msg) => storeLog?.info(obj, msg),
    warn: (obj, msg) => storeLog?.warn(obj, msg),
    error: (obj, msg) => storeLog?.error(obj, msg),
  };
  // RELEASE_STORE: RELEASES_DIR is this node's cache of the releases in object storage.
  const store = await openReleaseBucket(config);
  const releases = new ReleaseStore({
    pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: config.releasePollMs,
    reverifyMs: config.releaseReverifyMs, log, store, syncWaitMs: config.releaseSyncWaitMs,
  });
  const hotTiles = hotTilesOf(config);
  for (const opener of releaseKinds(config, hotTiles)) releases.register(opener);
  const redis = createApiRedis(config.redisUrl);
  const health = new HealthProbe({ pool, redis });
  // queueNames: the job queues whose counts /metrics reports (`canmap serve` passes those of jobs/).
  const metrics = createApiMetrics({ releases, health, redis, redisPrefix: config.redisPrefix, queueNames: options.queueNames ?? [], hotTiles });
  const admin = buildAdmin({ releases, health, metrics: metricsSource(metrics.registry) });
  try {
    app = await buildApp({ config, pool, releases, logger: options.logger, redis, metrics, hotTiles });
    storeLog = app.log.child({ module: 'releases' });
    if (!(await redisReady(redis, 2000))) {
      app.log.warn({ redis: redactUrl(config.redisUrl) }, 'Redis does not answer: requests are not rate-limited until it does');
    }
    await releases.start();
    await health.start();
    await app.listen({ host: config.host, port: config.port });
    await admin.listen({ host: config.adminHost, port: config.adminPort });
  } catch (err) {
    health.stop();
    await metrics.close();
    await app?.close().catch(() => {});
    await admin.close().catch(() => {});
    await releases.stop().catch(() => {});
    store?.close();
    await pool.end().catch(() => {});
    redis.disconnect();
    throw err;
  }
  const running = app;
  let closing: Promise<void> | undefined;
  return {
    app: running,
    admin,
    url: listenUrl(running),
    adminUrl: listenUrl(admin),
    close() {
      closing ??= (async () => {
        // In-flight requests get SHUTDOWN_GRACE_SECONDS; then every connection still open is
        // closed, so a client holding one (a stalled upload) cannot keep the process alive.
        const force = setTimeout(() => {
          running.log.warn({ graceMs: config.shutdownGraceMs }, 'shutdown grace over: closing the connections still open');
          running.server.closeAllConnections();
          admin.server.closeAllConnections();
        }, config.shutdownGraceMs);
        try {
          await Promise.all([running.close(), admin.close()]);
        } finally {
          clearTimeout(force);
        }
        health.stop();
        await metrics.close();
        await releases.stop();
        store?.close();
        await pool.end();
        await redis.quit().catch(() => redis.disconnect());
      })();
      return closing;
    },
  };
}

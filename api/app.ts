import { createRequire } from 'node:module';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { createRateLimiter, RATE_LIMIT_WINDOW_MS } from '../io/access/rate-limit-window.ts';
import type { MeterJournal } from '../io/access/meter-journal.ts';
import type { Config } from '../lib/config.ts';
import type { Pool } from '../lib/postgres.ts';
import type { ReleaseStore } from '../releases/reader.ts';
import { createAuthenticator } from './access/authenticator.ts';
import { sendMetered } from './access/meter-hook.ts';
import { solveSlotGateFor } from './access/solve-slot-gate.ts';
import { createRequestLimiter, type RequestLimiter } from './access/request-limiter.ts';
import { unroutableAnswer } from './unroutable-ids.ts';
import { loggerOptions, requestLogController } from './logging.ts';
import { authPlugin } from './plugins/auth.ts';
import { blockedPlugin } from './plugins/blocked.ts';
import { blockedAnswer } from './access/block-answer.ts';
import { bodyTimeoutPlugin } from './plugins/body-timeout.ts';
import { capabilitiesPlugin } from './plugins/capabilities.ts';
import { clockPlugin } from './plugins/clock.ts';
import { corsPlugin } from './plugins/cors.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { jsonBodyPlugin } from './plugins/json-body.ts';
import { numericQueryPlugin } from './plugins/numeric-query.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { postgresPlugin } from './plugins/postgres.ts';
import { meterPlugin } from './plugins/meter.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { releaseStorePlugin } from './plugins/release-store.ts';
import { logUnroutedRequest, requestLogPlugin } from './plugins/request-log.ts';
import { REQUEST_ID_HEADER, requestIdOf, requestIdPlugin } from './plugins/request-id.ts';
import { httpMetricsPlugin } from './metrics/http-metrics.ts';
import type { ApiMetrics } from './metrics/index.ts';
import { wellKnownPlugin } from './plugins/well-known.ts';
import { answerClientError } from './raw-answer.ts';
import { replyWithError } from './reply-error.ts';
import { routes } from './routes/index.ts';
import { buildServices } from '../services/index.ts';
import { hotTilesOf, type HotTiles } from '../engines/tiles/hot-tiles.ts';
import { ERROR_CODE_KEYWORD, ERROR_MESSAGE_KEYWORD } from '../schemas/common.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

type AjvPlugin = NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number];
const errorKeywords: AjvPlugin = (ajv) => {
  ajv.addKeyword({ keyword: ERROR_MESSAGE_KEYWORD, schemaType: 'string' });
  return ajv.addKeyword({ keyword: ERROR_CODE_KEYWORD, schemaType: 'string' });
};

export interface AppDeps {
  config: Config;
  pool: Pool;
  releases: ReleaseStore;
  /** false silences it; an object is merged into the pino options (e.g. a `stream` in tests). */
  logger?: boolean | object;
  /** The clock of time-dependent answers (road-event freshness); Date.now when omitted. */
  now?: () => number;
  /**
   * The rate limit's Redis connection (`createApiRedis`, lib/redis.ts: it never queues or waits);
   * `api/server.ts` always passes one. Without it requests are not rate-limited (tests of other
   * concerns that build the app directly).
   */
  redis?: Redis;
  /** Test-only: a shorter window or a clock for the rate limit (RATE_LIMIT_PER_MINUTE sets the limit). */
  rateLimit?: { windowMs?: number; now?: () => number; warnEveryMs?: number };
  /** Test-only: the meter's journal (io/access/meter-journal.ts); one in `config.meterJournalDir` on its own pool when omitted, none (no metering) when null (bench baselines). */
  meterJournal?: MeterJournal | null;
  /** The process's metrics (api/metrics/), served by the admin server; none when omitted. */
  metrics?: ApiMetrics;
  /** The process's memory for stored tile bytes, shared with the release openers; its own TILE_CACHE_MB when omitted. */
  hotTiles?: HotTiles;
}

function requestLimiterFor(deps: AppDeps): RequestLimiter | undefined {
  if (deps.redis === undefined) return undefined;
  const limiter = createRateLimiter({
    redis: deps.redis,
    prefix: deps.config.redisPrefix,
    limit: deps.config.rateLimitPerMinute,
    windowMs: deps.rateLimit?.windowMs ?? RATE_LIMIT_WINDOW_MS,
    now: deps.rateLimit?.now,
  });
  return createRequestLimiter({ limiter, warnEveryMs: deps.rateLimit?.warnEveryMs, onFailOpen: deps.metrics?.countFailOpen });
}

/**
 * The API: CORS, then authentication (every path), the per-key rate limit, then the routes of
 * api/routes/index.ts.
 * Returned before `ready()` so callers (tests, benches) may still add routes.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const authenticator = createAuthenticator({ config: deps.config, pool: deps.pool });
  const requestLimiter = requestLimiterFor(deps);
  const app = Fastify({
    logger: loggerOptions(deps.config.logLevel, deps.logger),
    logController: requestLogController(),
    ajv: { plugins: [errorKeywords] },
    // Service ids embed publishers' raw ids; URL-encoded they can pass Fastify's 100-character default.
    routerOptions: { maxParamLength: 1024 },
    // What Node's HTTP parser refuses (a body cut short by a half-close, oversized headers) in the catalog's words.
    clientErrorHandler: answerClientError,
    // X-Request-Id: the caller's when sane, else a new UUID (api/plugins/request-id.ts).
    genReqId: requestIdOf,
    // A path Fastify cannot even route (bad percent-encoding, over-long parameter) is still
    // authenticated and rate-limited first, then answered like any path we do not serve.
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      deps.metrics?.observeUnrouted(request, reply);
      if (deps.logger !== false) logUnroutedRequest(request, reply);
      if (error.code !== 'FST_ERR_BAD_URL' && error.code !== 'FST_ERR_MAX_PARAM_LENGTH') {
        return replyWithError(error, request, reply);
      }
      const notFound = unroutableAnswer(request.url);
      Promise.resolve()
        .then(() => authenticator.authenticate(request))
        .then((key) => {
          // The same door as a routed request: blocked check, then the rate limit.
          const blocked = blockedAnswer(key, request, deps.config.dashboardUrl);
          if (blocked) throw blocked;
          return key;
        })
        .then((key) => new Promise<void>((resolve, reject) => {
          request.apiKey = key; // so the meter counts this 404 like any other after authentication
          if (requestLimiter === undefined) return resolve();
          requestLimiter.admit(key, request.log, (err) => (err ? reject(err) : resolve()));
        }))
        .then(
          () => sendMetered(app.meterOnSend, request, reply, notFound),
          (err: unknown) => replyWithError(err, request, reply),
        );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // The validated config, for route plugins that need a setting (e.g. BYOD_DIR); never re-read.
  app.decorate('config', deps.config);
  app.decorate('requestLimiter', requestLimiter ?? null);
  await app.register(requestIdPlugin);
  if (deps.metrics) await app.register(httpMetricsPlugin, { histogram: deps.metrics.httpDuration });
  await app.register(errorHandlerPlugin);
  await app.register(bodyTimeoutPlugin, { idleMs: deps.config.bodyIdleTimeoutMs, totalMs: deps.config.bodyTimeoutMs });
  if (deps.logger !== false) await app.register(requestLogPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(capabilitiesPlugin);
  await app.register(numericQueryPlugin);
  await app.register(releaseStorePlugin, { store: deps.releases });
  await app.register(postgresPlugin, { pool: deps.pool });
  await app.register(clockPlugin, { now: deps.now });
  await app.register(corsPlugin);
  await app.register(authPlugin, { authenticator });
  // The blocked check (quota_exceeded, spend_cap, billing_required) sits between
  // auth and the rate limit: volume 1 refuses blocked keys before the rate limiter runs.
  await app.register(blockedPlugin, { dashboardUrl: deps.config.dashboardUrl });
  if (requestLimiter) await app.register(rateLimitPlugin, { limiter: requestLimiter });
  if (deps.meterJournal !== null) {
    await app.register(meterPlugin, { databaseUrl: deps.config.databaseUrl, journalDir: deps.config.meterJournalDir, journal: deps.meterJournal });
    if (deps.metrics && app.meterJournal) deps.metrics.watchMeterJournal(app.meterJournal);
  }
  await app.register(openapiPlugin, { baseUrl: deps.config.baseUrl, version });
  await app.register(wellKnownPlugin, { baseUrl: deps.config.baseUrl });
  app.decorate('solveSlots', solveSlotGateFor(deps.redis, deps.config.redisPrefix));
  app.decorate('services', buildServices({
    config: deps.config, releases: deps.releases, pool: deps.pool, redis: deps.redis, now: () => app.now(),
    hotTiles: deps.hotTiles ?? hotTilesOf(deps.config),
  }));
  for (const routePlugin of routes) await app.register(routePlugin);
  return app;
}

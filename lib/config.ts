import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ConfigSchema, ConfigVariables, type ConfigEnv } from '../schemas/config.ts';

export interface Config {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  releasesDir: string;
  host: string;
  port: number;
  adminHost: string;
  adminPort: number;
  baseUrl: string;
  dashboardUrl: string;
  logLevel: ConfigEnv['LOG_LEVEL'];
  keyCacheTtlMs: number;
  /** Requests per API key in any 60 s window (api/access/rate-limit.ts). */
  rateLimitPerMinute: number;
  /** Uploaded overlays' files (engines/byod/files.ts); the API and the worker share it. */
  byodDir: string;
  /** A request body silent this long is answered 408 and closed (api/plugins/body-timeout.ts). */
  bodyIdleTimeoutMs: number;
  /** A request body not complete this long after its request began is answered 408 and closed. */
  bodyTimeoutMs: number;
  /** On SIGTERM, how long in-flight requests may finish before their connections are closed (api/server.ts). */
  shutdownGraceMs: number;
  /** Where this host's API processes journal their answers' usage (engines/access/meter-journal.ts). */
  meterJournalDir: string;
  releasePollMs: number;
  /** 0 = the API never re-hashes a served release in the background. */
  releaseReverifyMs: number;
  workerConcurrency: number;
  jobLockMs: number;
  jobAttempts: number;
  jobBackoffMs: number;
  /** Longest one GeoJSON upload's tiling may run (jobs/byod/): killed past it, the overlay failed. */
  byodTilingTimeoutMs: number;
  fetchTimeoutMs: number;
  maxDownloadBytes: number;
  geocodingBuildHeapMb: number;
  open511Url: string;
  alberta511Url: string;
  ontario511Url: string;
  /** 0 = the worker does not schedule the poll. */
  roadEventsPollMs: number;
  closuresPollMs: number;
  /** 0 = the worker does not schedule plan enforcement. */
  enforcementIntervalMs: number;
  roadEventsTimeoutMs: number;
  roadEventsMaxResponseBytes: number;
  /** POST /matrix is served (else 404). */
  matrixEnabled: boolean;
  /** A matrix pair whose road route is longer fails the matrix. */
  matrixMaxMetres: number;
  /** Who answers the road routing endpoints: the enabled roads release, or a Valhalla server. */
  routingBackend: ConfigEnv['ROUTING_BACKEND'];
  /** The Valhalla server ('' unless routingBackend is valhalla). */
  valhallaUrl: string;
  valhallaTimeoutMs: number;
  /** Worker threads of the built-in road routing (engines/routing/workers/). */
  routingWorkers: number;
  /** Time budget of one built-in road routing task, queue wait included. */
  routingTimeBudgetMs: number;
  /** TRANSIT_ROUTING_FEED: the feed GET /route?mode=transit routes over; null = the release's first feed. */
  transitRoutingFeed: string | null;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`invalid configuration: ${variable} ${message}`);
  }
}

type VariableName = keyof typeof ConfigVariables;

/** Reads and validates the environment once; a wrong value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(ConfigVariables) as VariableName[]) {
    const schema = ConfigVariables[name];
    const given = env[name];
    if (given === undefined || given === '') {
      raw[name] = schema.default;
      continue;
    }
    const isInteger = schema.type === 'integer';
    if (isInteger && !/^-?\d+$/.test(given.trim())) {
      throw new ConfigError(name, `must be an integer, got ${JSON.stringify(given)}`);
    }
    raw[name] = isInteger ? Number(given.trim()) : given.trim();
  }
  const firstError = Value.Errors(ConfigSchema, raw).First();
  if (firstError) {
    const name = firstError.path.replace(/^\//, '') || 'environment';
    throw new ConfigError(name, `${firstError.message}, got ${JSON.stringify(raw[name])}`);
  }
  const v = raw as ConfigEnv;
  if (v.ROUTING_BACKEND === 'valhalla' && v.VALHALLA_URL === '') {
    throw new ConfigError('VALHALLA_URL', 'is required when ROUTING_BACKEND=valhalla');
  }
  return {
    databaseUrl: v.DATABASE_URL,
    redisUrl: v.REDIS_URL,
    redisPrefix: v.REDIS_PREFIX,
    releasesDir: path.resolve(v.RELEASES_DIR),
    host: v.HOST,
    port: v.PORT,
    adminHost: v.ADMIN_HOST,
    adminPort: v.ADMIN_PORT,
    baseUrl: v.BASE_URL || `http://localhost:${v.PORT}`,
    dashboardUrl: v.DASHBOARD_URL.replace(/\/$/, ''),
    logLevel: v.LOG_LEVEL,
    keyCacheTtlMs: v.KEY_CACHE_TTL_SECONDS * 1000,
    rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
    byodDir: path.resolve(v.BYOD_DIR),
    bodyIdleTimeoutMs: v.BODY_IDLE_TIMEOUT_SECONDS * 1000,
    bodyTimeoutMs: v.BODY_TIMEOUT_SECONDS * 1000,
    shutdownGraceMs: v.SHUTDOWN_GRACE_SECONDS * 1000,
    meterJournalDir: path.resolve(v.METER_JOURNAL_DIR),
    releasePollMs: v.RELEASE_POLL_SECONDS * 1000,
    releaseReverifyMs: v.RELEASE_REVERIFY_INTERVAL_SECONDS * 1000,
    workerConcurrency: v.WORKER_CONCURRENCY,
    jobLockMs: v.JOB_LOCK_SECONDS * 1000,
    jobAttempts: v.JOB_ATTEMPTS,
    jobBackoffMs: v.JOB_BACKOFF_SECONDS * 1000,
    byodTilingTimeoutMs: v.BYOD_TILING_SECONDS * 1000,
    fetchTimeoutMs: v.FETCH_TIMEOUT_SECONDS * 1000,
    maxDownloadBytes: v.MAX_DOWNLOAD_MB * 1024 * 1024,
    geocodingBuildHeapMb: v.GEOCODING_BUILD_HEAP_MB,
    open511Url: v.OPEN511_URL,
    alberta511Url: v.ALBERTA_511_URL,
    ontario511Url: v.ONTARIO_511_URL,
    roadEventsPollMs: v.ROAD_EVENTS_POLL_SECONDS * 1000,
    closuresPollMs: v.CLOSURES_POLL_SECONDS * 1000,
    enforcementIntervalMs: v.ENFORCEMENT_INTERVAL_SECONDS * 1000,
    roadEventsTimeoutMs: v.ROAD_EVENTS_TIMEOUT_SECONDS * 1000,
    roadEventsMaxResponseBytes: v.ROAD_EVENTS_MAX_RESPONSE_BYTES,
    matrixEnabled: v.MATRIX_ENABLED === 1,
    matrixMaxMetres: v.MATRIX_MAX_KM * 1000,
    routingBackend: v.ROUTING_BACKEND,
    valhallaUrl: v.VALHALLA_URL.replace(/\/+$/, ''),
    valhallaTimeoutMs: v.VALHALLA_TIMEOUT_MS,
    routingWorkers: v.ROUTING_WORKERS,
    routingTimeBudgetMs: v.ROUTING_TIME_BUDGET_MS,
    transitRoutingFeed: v.TRANSIT_ROUTING_FEED === '' ? null : v.TRANSIT_ROUTING_FEED,
  };
}

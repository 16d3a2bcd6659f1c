import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * How lib/config.ts turns a variable's validated value into its Config field: `seconds` and
 * `kilometres` scale to ms and metres, `megabytes` to bytes, `path` resolves against the working
 * directory, `url` drops trailing slashes, `origin` (BASE_URL) falls back to http://localhost:PORT,
 * `flag` reads 0/1 as a boolean, `emptyIsNull` reads '' as "not set" (null), `optionalPath` is
 * `path` or null.
 */
export type Conversion = 'as-is' | 'seconds' | 'kilometres' | 'megabytes' | 'path' | 'optionalPath' | 'url' | 'origin' | 'flag' | 'emptyIsNull';

export interface Setting<K extends string = string, S extends TSchema = TSchema, C extends Conversion = Conversion> {
  /** The Config field it fills. */
  key: K;
  schema: S;
  conversion: C;
}

const setting = <K extends string, S extends TSchema, C extends Conversion = 'as-is'>(key: K, schema: S, conversion?: C): Setting<K, S, C> =>
  ({ key, schema, conversion: (conversion ?? 'as-is') as C });

/**
 * Every environment variable canmap reads, declared once: its Config field, its schema (type,
 * default, bounds, the docs' description) and its conversion. lib/config.ts validates the
 * environment against it once at start; docs/operations.md's table is generated from it.
 */
export const Settings = {
  DATABASE_URL: setting('databaseUrl', Type.String({ default: 'postgres://postgres@127.0.0.1:5432/canmap', pattern: '^postgres(ql)?://', description: 'PostgreSQL control plane (created by `canmap migrate` if missing)' })),
  REDIS_URL: setting('redisUrl', Type.String({ default: 'redis://127.0.0.1:6379', pattern: '^rediss?://', description: 'Redis for queues and short caches' })),
  REDIS_PREFIX: setting('redisPrefix', Type.String({ default: 'canmap', pattern: '^[A-Za-z0-9_.-]+$', description: 'prefix of every Redis key and queue (isolates test runs)' })),
  RELEASES_DIR: setting('releasesDir', Type.String({ default: './data/releases', minLength: 1, description: 'root of the immutable release directories' }), 'path'),
  HOST: setting('host', Type.String({ default: '127.0.0.1', minLength: 1, description: 'address the API listens on' })),
  PORT: setting('port', Type.Integer({ default: 8080, minimum: 0, maximum: 65535, description: 'API port' })),
  ADMIN_HOST: setting('adminHost', Type.String({ default: '127.0.0.1', minLength: 1, description: 'address the keyless admin server listens on' })),
  ADMIN_PORT: setting('adminPort', Type.Integer({ default: 9090, minimum: 0, maximum: 65535, description: 'operators\' port: GET /livez, /readyz, /healthz, /metrics without a key' })),
  WORKER_ADMIN_PORT: setting('workerAdminPort', Type.Integer({ default: 9091, minimum: 0, maximum: 65535, description: '`canmap worker`\'s operators\' port on ADMIN_HOST: GET /metrics (job counts, durations), /livez without a key; 0 = any free port' })),
  BASE_URL: setting('baseUrl', Type.String({ default: '', pattern: '^(https?://[^/]+)?$', description: 'public origin of the API, e.g. https://api.canmap.ca (default http://localhost:PORT)' }), 'origin'),
  MCP_ALLOWED_HOSTS: setting('mcpAllowedHosts', Type.String({ default: '', pattern: '^[A-Za-z0-9.:\\[\\],-]*$', description: 'host names POST /mcp answers besides the host name of BASE_URL (its DNS-rebinding check on the Host header; IP addresses and localhost always pass), comma-separated' })),
  DASHBOARD_URL: setting('dashboardUrl', Type.String({ default: 'http://localhost:3000', pattern: '^https?://', description: 'account dashboard, named in billing messages' }), 'url'),
  LOG_LEVEL: setting('logLevel', Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info', description: 'pino log level' })),
  KEY_CACHE_TTL_SECONDS: setting('keyCacheTtlMs', Type.Integer({ default: 30, minimum: 1, maximum: 60, description: 'how long the API trusts a cached key lookup (a disabled key stops within this)' }), 'seconds'),
  RATE_LIMIT_PER_MINUTE: setting('rateLimitPerMinute', Type.Integer({ default: 1000, minimum: 1, maximum: 1000000000, description: 'requests one API key may make in any 60 seconds (the contract sets 1,000); exact across API processes sharing REDIS_URL' })),
  TILE_CACHE_MB: setting('tileCacheMb', Type.Integer({ default: 256, minimum: 0, maximum: 1048576, description: 'memory of each API process for stored tile bytes (basemap, overlays, uploads, terrain, contours): an archive of at most a quarter of it is held whole from when it opens, and the most recently served tiles of larger ones are kept; 0 reads every tile from its file' })),
  BYOD_DIR: setting('byodDir', Type.String({ default: './data/byod', minLength: 1, description: 'uploaded overlays (POST /byod): their files, named by generated id; shared by the API and the worker that tiles them' }), 'path'),
  BODY_IDLE_TIMEOUT_SECONDS: setting('bodyIdleTimeoutMs', Type.Integer({ default: 30, minimum: 1, maximum: 3600, description: 'a request body (an upload, a JSON body) that sends nothing for this long is answered 408 and its connection closed; what it had sent is discarded' }), 'seconds'),
  BODY_TIMEOUT_SECONDS: setting('bodyTimeoutMs', Type.Integer({ default: 300, minimum: 1, maximum: 86400, description: 'a request body not complete this long after its request began (a client dripping it byte by byte) is answered 408 and its connection closed' }), 'seconds'),
  SHUTDOWN_GRACE_SECONDS: setting('shutdownGraceMs', Type.Integer({ default: 10, minimum: 0, maximum: 3600, description: 'on SIGTERM/SIGINT the API stops accepting and lets in-flight requests finish for this long, then closes the connections still open and exits' }), 'seconds'),
  METER_JOURNAL_DIR: setting('meterJournalDir', Type.String({ default: './data/meter-journal', minLength: 1, description: 'this host\'s meter journal directory: each API process appends the events of its answers there before sending them, and flushes them to Postgres (never a shared volume)' }), 'path'),
  RELEASE_POLL_SECONDS: setting('releasePollMs', Type.Integer({ default: 30, minimum: 1, maximum: 3600, description: 'the API re-reads enabled releases this often besides LISTEN/NOTIFY' }), 'seconds'),
  RELEASE_REVERIFY_INTERVAL_SECONDS: setting('releaseReverifyMs', Type.Integer({ default: 21600, minimum: 0, maximum: 604800, description: 'the API re-hashes every served release against its manifest this often, one at a time; 0 turns it off' }), 'seconds'),
  RELEASE_STORE: setting('releaseStore', Type.String({ default: '', pattern: '^(s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/[^\\s]*)?)?$', description: 'shared release storage for several hosts, s3://bucket/prefix: workers upload every release there (manifest.json last) and each API node downloads the enabled ones into its RELEASES_DIR (a local cache); unset: releases live only in RELEASES_DIR. Credentials and region come from the standard AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION)' }), 'emptyIsNull'),
  S3_ENDPOINT: setting('s3Endpoint', Type.String({ default: '', pattern: '^(https?://[^\\s]+)?$', description: 'endpoint of an S3-compatible RELEASE_STORE (MinIO, R2, Ceph…), addressed path-style; unset: AWS S3' }), 'emptyIsNull'),
  RELEASE_SYNC_WAIT_SECONDS: setting('releaseSyncWaitMs', Type.Integer({ default: 600, minimum: 0, maximum: 86400, description: 'with RELEASE_STORE, how long a starting API waits for the enabled releases to download before it listens; a kind still downloading then is unavailable (503, not ready) until it is done' }), 'seconds'),
  WORKER_CONCURRENCY: setting('workerConcurrency', Type.Integer({ default: 1, minimum: 1, maximum: 16, description: 'jobs one worker runs at once per queue' })),
  JOB_LOCK_SECONDS: setting('jobLockMs', Type.Integer({ default: 30, minimum: 1, maximum: 3600, description: 'BullMQ lock; a killed worker\'s job is retried after this' }), 'seconds'),
  JOB_ATTEMPTS: setting('jobAttempts', Type.Integer({ default: 4, minimum: 1, maximum: 50, description: 'tries per job for transient faults (exponential backoff)' })),
  JOB_BACKOFF_SECONDS: setting('jobBackoffMs', Type.Integer({ default: 10, minimum: 1, maximum: 3600, description: 'first retry delay; doubles each try' }), 'seconds'),
  BYOD_TILING_SECONDS: setting('byodTilingTimeoutMs', Type.Integer({ default: 60, minimum: 1, maximum: 3600, description: 'longest the worker tiles one GeoJSON upload (POST /byod); past it the tiling process is killed and the overlay fails with the reason, not retried' }), 'seconds'),
  FETCH_TIMEOUT_SECONDS: setting('fetchTimeoutMs', Type.Integer({ default: 60, minimum: 1, maximum: 3600, description: 'HTTP timeout for downloads of sources' }), 'seconds'),
  GEOCODING_BUILD_HEAP_MB: setting('geocodingBuildHeapMb', Type.Integer({ default: 12288, minimum: 512, maximum: 1048576, description: 'JavaScript heap limit of the geocoding build process (national builds hold tens of millions of strings)' })),
  BASEMAP_BUILD_MEMORY_MB: setting('basemapBuildMemoryMb', Type.Integer({ default: 1024, minimum: 256, maximum: 1048576, description: 'what a basemap build sizes its memory by, whatever the extract\'s size: an eighth caches node pages, an eighth is the tiler\'s in-memory cap (shared by its threads); nodes, ways and features beyond it go to BASEMAP_BUILD_TEMP_DIR. At 1024 a province-sized build peaks under 1 GiB of RSS' })),
  BASEMAP_BUILD_TEMP_DIR: setting('basemapBuildTempDir', Type.String({ default: '', description: 'where a basemap build keeps its node table, way table, feature spool and tiling scratch (about 4 × the PBF\'s size, 25 × for its nodes); unset: under RELEASES_DIR/.staging. A killed build\'s files are removed when the next worker starts' }), 'optionalPath'),
  ROADS_BUILD_MEMORY_MB: setting('roadsBuildMemoryMb', Type.Integer({ default: 12288, minimum: 256, maximum: 1048576, description: 'peak memory a roads build (the road graph, its turn-restriction regions and contraction hierarchy) may use: before writing anything it estimates its peak from the graph\'s node and edge counts and fails naming this setting when over it, instead of swapping or being killed (measured 7.0 GiB for 25 million road nodes, about 11 GiB estimated for Canada\'s 35 million; the default leaves half of a 24 GiB machine to the API beside it)' })),
  MAX_DOWNLOAD_MB: setting('maxDownloadBytes', Type.Integer({ default: 1024, minimum: 1, maximum: 65536, description: 'largest source download accepted' }), 'megabytes'),
  OPEN511_URL: setting('open511Url', Type.String({ default: 'https://api.open511.gov.bc.ca/events', pattern: '^https?://', description: 'DriveBC Open511 events API (road events and BC closures)' })),
  ALBERTA_511_URL: setting('alberta511Url', Type.String({ default: 'https://511.alberta.ca/api/v2/get/event', pattern: '^https?://', description: 'Alberta 511 events (closure snapshots)' })),
  ONTARIO_511_URL: setting('ontario511Url', Type.String({ default: 'https://511on.ca/api/v2/get/event', pattern: '^https?://', description: 'Ontario 511 events (closure snapshots)' })),
  ROAD_EVENTS_POLL_SECONDS: setting('roadEventsPollMs', Type.Integer({ default: 60, minimum: 0, maximum: 3600, description: 'road-event poll interval of the worker; 0 turns the schedule off' }), 'seconds'),
  CLOSURES_POLL_SECONDS: setting('closuresPollMs', Type.Integer({ default: 300, minimum: 0, maximum: 86400, description: 'closure snapshot interval of the worker; 0 turns the schedule off' }), 'seconds'),
  ENFORCEMENT_INTERVAL_SECONDS: setting('enforcementIntervalMs', Type.Integer({ default: 300, minimum: 0, maximum: 3600, description: 'how often the worker applies plan enforcement (quota, spend cap) to every account; 0 turns the schedule off' }), 'seconds'),
  ROAD_EVENTS_TIMEOUT_SECONDS: setting('roadEventsTimeoutMs', Type.Integer({ default: 20, minimum: 1, maximum: 300, description: 'HTTP timeout of one request to a road-event API' }), 'seconds'),
  MATRIX_ENABLED: setting('matrixEnabled', Type.Integer({ default: 0, minimum: 0, maximum: 1, description: 'feature flag of POST /matrix: 1 serves it, 0 answers 404 as for an unserved path' }), 'flag'),
  MATRIX_MAX_KM: setting('matrixMaxMetres', Type.Integer({ default: 250, minimum: 1, maximum: 10000, description: 'road-distance ceiling of POST /matrix: a pair whose route is longer fails the matrix with 422 (a 212 km trip succeeds, about 300 km fails)' }), 'kilometres'),
  ROAD_EVENTS_MAX_RESPONSE_BYTES: setting('roadEventsMaxResponseBytes', Type.Integer({ default: 20971520, minimum: 1024, maximum: 1073741824, description: 'largest answer of a road-event API accepted (per request); a larger one is cut off and the poll fails' })),
  ROUTING_BACKEND: setting('routingBackend', Type.Union([Type.Literal('builtin'), Type.Literal('valhalla')], { default: 'builtin', description: 'who answers /route, /isochrone and /matrix: builtin (the enabled roads release) or valhalla (the Valhalla server at VALHALLA_URL)' })),
  VALHALLA_URL: setting('valhallaUrl', Type.String({ default: '', pattern: '^(https?://[^\\s]+)?$', description: 'base URL of the Valhalla server (e.g. http://valhalla:8002); required when ROUTING_BACKEND=valhalla' }), 'url'),
  ROUTING_WORKERS: setting('routingWorkers', Type.Integer({ default: 2, minimum: 1, maximum: 64, description: 'worker threads of each API process that answer built-in road routing (/route road modes, /match, /matrix, /isochrone, /optimized-route) off the event loop; they share the release in memory' })),
  ROUTING_TIME_BUDGET_MS: setting('routingTimeBudgetMs', Type.Integer({ default: 10000, minimum: 1, maximum: 600000, description: 'time budget of one built-in road routing request, queue wait included; past it the worker is replaced and the endpoint answers 503 routing temporarily unavailable (Retry-After 5)' })),
  VALHALLA_TIMEOUT_MS: setting('valhallaTimeoutMs', Type.Integer({ default: 10000, minimum: 1, maximum: 600000, description: 'timeout of one call to Valhalla (connect, headers and body); past it the endpoint answers 503 routing temporarily unavailable' })),
  TRANSIT_ROUTING_FEED: setting('transitRoutingFeed', Type.String({ default: '', pattern: '^([a-z0-9][a-z0-9_-]{0,31})?$', description: 'feed id (as in the transit feeds list) whose agency GET /route?mode=transit routes over; default the first feed (by id) of the enabled transit release. A feed the enabled release lacks answers 503' }), 'emptyIsNull'),
} as const;

type Settings = typeof Settings;
type VariableName = keyof Settings;

/** Each variable's schema, by name (the validated environment's shape). */
export const ConfigVariables = Object.fromEntries(
  Object.entries(Settings).map(([name, { schema }]) => [name, schema]),
) as { [N in VariableName]: Settings[N]['schema'] };

export const ConfigSchema = Type.Object(ConfigVariables);
export type ConfigEnv = Static<typeof ConfigSchema>;

type Converted<S extends TSchema, C extends Conversion> =
  C extends 'seconds' | 'kilometres' | 'megabytes' ? number
    : C extends 'flag' ? boolean
      : C extends 'emptyIsNull' | 'optionalPath' ? Static<S> | null
        : Static<S>;

/** The validated configuration every process is given: one field per variable, derived from Settings. */
export type Config = { [N in VariableName as Settings[N]['key']]: Converted<Settings[N]['schema'], Settings[N]['conversion']> };

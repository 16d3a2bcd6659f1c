import { Type, type Static } from '@sinclair/typebox';

/**
 * Every environment variable canmap reads, with its default. The README's config table is
 * written from this list; `lib/config.ts` validates it once at start.
 */
export const ConfigVariables = {
  DATABASE_URL: Type.String({ default: 'postgres://postgres@127.0.0.1:5432/canmap', pattern: '^postgres(ql)?://', description: 'PostgreSQL control plane (created by `canmap migrate` if missing)' }),
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379', pattern: '^rediss?://', description: 'Redis for queues and short caches' }),
  REDIS_PREFIX: Type.String({ default: 'canmap', pattern: '^[A-Za-z0-9_.-]+$', description: 'prefix of every Redis key and queue (isolates test runs)' }),
  RELEASES_DIR: Type.String({ default: './data/releases', minLength: 1, description: 'root of the immutable release directories' }),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'address the API listens on' }),
  PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65535, description: 'API port' }),
  ADMIN_HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'address the keyless admin server listens on' }),
  ADMIN_PORT: Type.Integer({ default: 9090, minimum: 0, maximum: 65535, description: 'operators\' port: GET /healthz without a key' }),
  BASE_URL: Type.String({ default: '', pattern: '^(https?://[^/]+)?$', description: 'public origin of the API, e.g. https://api.canmap.ca (default http://localhost:PORT)' }),
  DASHBOARD_URL: Type.String({ default: 'http://localhost:3000', pattern: '^https?://', description: 'account dashboard, named in billing messages' }),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info', description: 'pino log level' }),
  KEY_CACHE_TTL_SECONDS: Type.Integer({ default: 30, minimum: 1, maximum: 60, description: 'how long the API trusts a cached key lookup (a disabled key stops within this)' }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 1000, minimum: 1, maximum: 1000000000, description: 'requests one API key may make in any 60 seconds (volume 1: 1,000); exact across API processes sharing REDIS_URL' }),
  BYOD_DIR: Type.String({ default: './data/byod', minLength: 1, description: 'uploaded overlays (POST /byod): their files, named by generated id; shared by the API and the worker that tiles them' }),
  BODY_IDLE_TIMEOUT_SECONDS: Type.Integer({ default: 30, minimum: 1, maximum: 3600, description: 'a request body (an upload, a JSON body) that sends nothing for this long is answered 408 and its connection closed; what it had sent is discarded' }),
  BODY_TIMEOUT_SECONDS: Type.Integer({ default: 300, minimum: 1, maximum: 86400, description: 'a request body not complete this long after its request began (a client dripping it byte by byte) is answered 408 and its connection closed' }),
  SHUTDOWN_GRACE_SECONDS: Type.Integer({ default: 10, minimum: 0, maximum: 3600, description: 'on SIGTERM/SIGINT the API stops accepting and lets in-flight requests finish for this long, then closes the connections still open and exits' }),
  METER_JOURNAL_DIR: Type.String({ default: './data/meter-journal', minLength: 1, description: 'this host\'s meter journal directory: each API process appends the events of its answers there before sending them, and flushes them to Postgres (never a shared volume)' }),
  RELEASE_POLL_SECONDS: Type.Integer({ default: 30, minimum: 1, maximum: 3600, description: 'the API re-reads enabled releases this often besides LISTEN/NOTIFY' }),
  RELEASE_REVERIFY_INTERVAL_SECONDS: Type.Integer({ default: 21600, minimum: 0, maximum: 604800, description: 'the API re-hashes every served release against its manifest this often, one at a time; 0 turns it off' }),
  WORKER_CONCURRENCY: Type.Integer({ default: 1, minimum: 1, maximum: 16, description: 'jobs one worker runs at once per queue' }),
  JOB_LOCK_SECONDS: Type.Integer({ default: 30, minimum: 1, maximum: 3600, description: 'BullMQ lock; a killed worker\'s job is retried after this' }),
  JOB_ATTEMPTS: Type.Integer({ default: 4, minimum: 1, maximum: 50, description: 'tries per job for transient faults (exponential backoff)' }),
  JOB_BACKOFF_SECONDS: Type.Integer({ default: 10, minimum: 1, maximum: 3600, description: 'first retry delay; doubles each try' }),
  BYOD_TILING_SECONDS: Type.Integer({ default: 60, minimum: 1, maximum: 3600, description: 'longest the worker tiles one GeoJSON upload (POST /byod); past it the tiling process is killed and the overlay fails with the reason, not retried' }),
  FETCH_TIMEOUT_SECONDS: Type.Integer({ default: 60, minimum: 1, maximum: 3600, description: 'HTTP timeout for downloads of sources' }),
  GEOCODING_BUILD_HEAP_MB: Type.Integer({ default: 12288, minimum: 512, maximum: 1048576, description: 'JavaScript heap limit of the geocoding build process (national builds hold tens of millions of strings)' }),
  MAX_DOWNLOAD_MB: Type.Integer({ default: 1024, minimum: 1, maximum: 65536, description: 'largest source download accepted' }),
  OPEN511_URL: Type.String({ default: 'https://api.open511.gov.bc.ca/events', pattern: '^https?://', description: 'DriveBC Open511 events API (road events and BC closures)' }),
  ALBERTA_511_URL: Type.String({ default: 'https://511.alberta.ca/api/v2/get/event', pattern: '^https?://', description: 'Alberta 511 events (closure snapshots)' }),
  ONTARIO_511_URL: Type.String({ default: 'https://511on.ca/api/v2/get/event', pattern: '^https?://', description: 'Ontario 511 events (closure snapshots)' }),
  ROAD_EVENTS_POLL_SECONDS: Type.Integer({ default: 60, minimum: 0, maximum: 3600, description: 'road-event poll interval of the worker; 0 turns the schedule off' }),
  CLOSURES_POLL_SECONDS: Type.Integer({ default: 300, minimum: 0, maximum: 86400, description: 'closure snapshot interval of the worker; 0 turns the schedule off' }),
  ENFORCEMENT_INTERVAL_SECONDS: Type.Integer({ default: 300, minimum: 0, maximum: 3600, description: 'how often the worker applies plan enforcement (quota, spend cap) to every account; 0 turns the schedule off' }),
  ROAD_EVENTS_TIMEOUT_SECONDS: Type.Integer({ default: 20, minimum: 1, maximum: 300, description: 'HTTP timeout of one request to a road-event API' }),
  MATRIX_ENABLED: Type.Integer({ default: 0, minimum: 0, maximum: 1, description: 'feature flag of POST /matrix: 1 serves it, 0 answers 404 as for an unserved path (volume 3)' }),
  MATRIX_MAX_KM: Type.Integer({ default: 250, minimum: 1, maximum: 10000, description: 'road-distance ceiling of POST /matrix: a pair whose route is longer fails the matrix with 422 (volume 1: a 212 km trip succeeds, about 300 km fails)' }),
  ROAD_EVENTS_MAX_RESPONSE_BYTES: Type.Integer({ default: 20971520, minimum: 1024, maximum: 1073741824, description: 'largest answer of a road-event API accepted (per request); a larger one is cut off and the poll fails' }),
  ROUTING_BACKEND: Type.Union([Type.Literal('builtin'), Type.Literal('valhalla')], { default: 'builtin', description: 'who answers /route, /isochrone and /matrix: builtin (the enabled roads release) or valhalla (the Valhalla server at VALHALLA_URL)' }),
  VALHALLA_URL: Type.String({ default: '', pattern: '^(https?://[^\\s]+)?$', description: 'base URL of the Valhalla server (e.g. http://valhalla:8002); required when ROUTING_BACKEND=valhalla' }),
  ROUTING_WORKERS: Type.Integer({ default: 2, minimum: 1, maximum: 64, description: 'worker threads of each API process that answer built-in road routing (/route road modes, /match, /matrix, /isochrone, /optimized-route) off the event loop; they share the release in memory' }),
  ROUTING_TIME_BUDGET_MS: Type.Integer({ default: 10000, minimum: 1, maximum: 600000, description: 'time budget of one built-in road routing request, queue wait included; past it the worker is replaced and the endpoint answers 503 routing temporarily unavailable (Retry-After 5)' }),
  VALHALLA_TIMEOUT_MS: Type.Integer({ default: 10000, minimum: 1, maximum: 600000, description: 'timeout of one call to Valhalla (connect, headers and body); past it the endpoint answers 503 routing temporarily unavailable' }),
  TRANSIT_ROUTING_FEED: Type.String({ default: '', pattern: '^([a-z0-9][a-z0-9_-]{0,31})?$', description: 'feed id (as in the transit feeds list) whose agency GET /route?mode=transit routes over; default the first feed (by id) of the enabled transit release. A feed the enabled release lacks answers 503' }),
} as const;

export const ConfigSchema = Type.Object(ConfigVariables);
export type ConfigEnv = Static<typeof ConfigSchema>;

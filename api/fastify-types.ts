import type { Config } from '../lib/config.ts';
import type { KeyRecord } from '../lib/keys.ts';
import type { Pool } from '../lib/postgres.ts';
import type { ReleaseStore } from '../releases/reader.ts';
import type { RequestLimiter } from './access/request-limiter.ts';
import type { SolveSlotGate } from './access/solve-slot-gate.ts';
import type { Services } from '../services/index.ts';
import type { FreeText } from '../engines/grammars/free-text.ts';

/** What canmap's plugins add to Fastify's types. */
declare module 'fastify' {
  interface FastifyInstance {
    /** The enabled release of every kind, opened READ_ONLY; see releases/reader.ts. */
    releases: ReleaseStore;
    /** The API's Postgres pool (api/plugins/postgres.ts). */
    pg: Pool;
    /** Epoch ms now (api/plugins/clock.ts); tests replace it. */
    now: () => number;
    /** The config validated at start (lib/config.ts), as `buildApp` was given it. */
    config: Config;
    /** POST /optimize's solves at once per account (volume 1 plan table), on the API's Redis; unlimited without one. */
    solveSlots: SolveSlotGate;
    /** Every capability's facade (services/index.ts), built once at start-up. */
    services: Services;
    /** The per-key rate limit (null: an app built without Redis); the door hook and per-call front doors share it. */
    requestLimiter: RequestLimiter | null;
  }
  interface FastifyRequest {
    /** The authenticated key; null only on the few routes marked `config: { public: true }`. */
    apiKey: KeyRecord | null;
    /** Whether the request used a premium capability (api/access/capability-check.ts); the meter counts it apart. */
    premium: boolean;
    /** A geocode route's q (batch: queries) read once (api/params/geocoding/free-text.ts): the capability check and the search share it. */
    freeText?: readonly FreeText[] | null;
  }
  interface FastifyContextConfig {
    /** Served without an API key: the OAuth protected-resource metadata the 401 points to, and the dashboard's /account/* (browser session). */
    public?: boolean;
    /** Errors are answered in the optimization endpoint's shape (lib/errors.ts asOptimizationError). */
    optimizationErrors?: boolean;
    /** The route applies the blocked check and the rate limit per call itself (POST /mcp: per tool call), not at the door. */
    perCallAccess?: boolean;
  }
}

export {};

import type { Config } from '../lib/config.ts';
import type { KeyRecord } from '../lib/keys.ts';
import type { Pool } from '../lib/postgres.ts';
import type { ReleaseStore } from '../releases/reader.ts';

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
  }
  interface FastifyRequest {
    /** The authenticated key; null only on the few routes marked `config: { public: true }`. */
    apiKey: KeyRecord | null;
    /** Whether the request used a premium capability (api/access/capabilities.ts); the meter counts it apart. */
    premium: boolean;
  }
  interface FastifyContextConfig {
    /** Served without an API key: the OAuth protected-resource metadata the 401 points to, and the dashboard's /account/* (browser session). */
    public?: boolean;
  }
}

export {};

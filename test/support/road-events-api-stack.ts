import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import type { TestEnv } from './env.ts';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field
  body: any;
}

/**
 * The API app (auth, routes, error handler) on a test database with a working key and a clock
 * the test sets: `clock.ms` is what the app takes for now.
 */
export class RoadEventsApi {
  readonly clock = { ms: Date.now() };
  private constructor(readonly app: FastifyInstance, readonly pool: Pool, readonly key: string) {}

  static async start(env: TestEnv): Promise<RoadEventsApi> {
    const pool = createPool(env.config.databaseUrl, 4);
    const key = (await createKey(pool, {})).key;
    const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
    let api: RoadEventsApi | undefined;
    const app = await buildApp({ config: env.config, pool, releases, logger: false, now: () => api!.clock.ms });
    await app.ready();
    api = new RoadEventsApi(app, pool, key);
    return api;
  }

  setNow(iso: string): void {
    this.clock.ms = Date.parse(iso);
  }

  /** The next request reads the snapshot status from Postgres again (call it after a poll). */
  refresh(): void {
    this.app.services.roadEvents.invalidate();
  }

  async get(url: string): Promise<Answer> {
    const res = await this.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${this.key}` } });
    let body: unknown = res.body;
    try {
      body = JSON.parse(res.body);
    } catch {
      // plain text
    }
    return { status: res.statusCode, headers: res.headers, body };
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.pool.end();
  }
}

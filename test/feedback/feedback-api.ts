import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.ts';
import { createKey, type CreateKeyInput } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { answerOf, type Answer } from '../support/answer.ts';
import type { TestEnv } from '../support/env.ts';

/**
 * The API app as `canmap serve` builds it (auth, JSON body parser, routes, error handler) on a
 * test database, with a clock the test sets: `clock.ms` is what the app takes for now.
 */
export class FeedbackApi {
  readonly clock = { ms: Date.parse('2026-03-14T18:30:00.250Z') };
  private constructor(readonly app: FastifyInstance, readonly pool: Pool) {}

  static async start(env: TestEnv): Promise<FeedbackApi> {
    const pool = createPool(env.config.databaseUrl, 20);
    const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
    let api: FeedbackApi | undefined;
    const app = await buildApp({ config: env.config, pool, releases, logger: false, now: () => api!.clock.ms });
    await app.ready();
    api = new FeedbackApi(app, pool);
    return api;
  }

  setNow(iso: string): void {
    this.clock.ms = Date.parse(iso);
  }

  async key(input: CreateKeyInput = {}): Promise<{ id: string; key: string }> {
    const created = await createKey(this.pool, input);
    return { id: created.id, key: created.key };
  }

  async post(url: string, payload: unknown, key: string | null, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await this.app.inject({
      method: 'POST',
      url,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    return answerOf(response);
  }

  async reportCount(): Promise<number> {
    return Number((await this.pool.query('SELECT count(*) AS n FROM feedback_reports')).rows[0].n);
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.pool.end();
  }
}

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.ts';
import { loadConfig } from '../../lib/config.ts';
import { createKey, type CreateKeyInput } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { answerOf, type Answer } from '../support/answer.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

/**
 * The API as `canmap serve` builds it, over a test database, Redis prefix and BYOD_DIR of its own.
 * `restart()` builds a new app over the same directory and database (what survives a restart).
 */
export class ByodApi {
  private constructor(readonly env: TestEnv, readonly byodDir: string, public app: FastifyInstance, readonly pool: Pool) {}

  static async start(label: string, overrides: Record<string, string> = {}): Promise<ByodApi> {
    const byodDir = await mkdtemp(path.join(os.tmpdir(), `canmap-byod-${label}-`));
    const env = await createTestEnv(label, { BYOD_DIR: byodDir, ...overrides });
    const pool = createPool(env.config.databaseUrl, 20);
    return new ByodApi(env, byodDir, await ByodApi.build(env, pool), pool);
  }

  private static async build(env: TestEnv, pool: Pool, config = env.config): Promise<FastifyInstance> {
    const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 60_000 });
    const app = await buildApp({ config, pool, releases, logger: false });
    await app.ready();
    return app;
  }

  /** A second app instance over the same store with other settings (e.g. a Redis that does not answer). */
  async sibling(overrides: Record<string, string>): Promise<FastifyInstance> {
    return ByodApi.build(this.env, this.pool, loadConfig({ ...this.env.env, ...overrides }));
  }

  async restart(): Promise<void> {
    await this.app.close();
    this.app = await ByodApi.build(this.env, this.pool);
  }

  async key(input: CreateKeyInput = {}): Promise<string> {
    return (await createKey(this.pool, input)).key;
  }

  async upload(key: string, body: Buffer | string | undefined, contentType: string | undefined, query = '', headers: Record<string, string> = {}): Promise<Answer> {
    return answerOf(await this.app.inject({
      method: 'POST',
      url: `/byod${query}`,
      headers: { authorization: `Bearer ${key}`, ...(contentType ? { 'content-type': contentType } : {}), ...headers },
      ...(body !== undefined ? { payload: body } : {}),
    }));
  }

  /** A multipart/form-data body built by the platform's FormData (as a browser would send it). */
  async uploadForm(key: string, fields: Record<string, string | { data: Buffer | string; filename?: string; type?: string }>, query = ''): Promise<Answer> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === 'string') form.append(name, value);
      else {
        const data = typeof value.data === 'string' ? value.data : new Uint8Array(value.data);
        form.append(name, new Blob([data], { type: value.type ?? 'application/octet-stream' }), value.filename ?? 'blob');
      }
    }
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const body = Buffer.from(await request.arrayBuffer());
    return this.upload(key, body, request.headers.get('content-type')!, query);
  }

  async get(key: string, url: string, headers: Record<string, string> = {}): Promise<Answer & { raw: Buffer }> {
    const response = await this.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}`, ...headers } });
    return { ...answerOf(response), raw: response.rawPayload };
  }

  /** A tile with the key as query parameter, as a map client sends it. */
  async tile(key: string, id: string, z: number | string, x: number | string, y: number | string, headers: Record<string, string> = {}): Promise<Answer & { raw: Buffer }> {
    const response = await this.app.inject({ method: 'GET', url: `/byod/${id}/${z}/${x}/${y}?key=${key}`, headers });
    return { ...answerOf(response), raw: response.rawPayload };
  }

  async delete(key: string, id: string): Promise<Answer> {
    return answerOf(await this.app.inject({ method: 'DELETE', url: `/byod/${id}`, headers: { authorization: `Bearer ${key}` } }));
  }

  async rows(): Promise<number> {
    return Number((await this.pool.query('SELECT count(*) AS n FROM byod_overlays')).rows[0].n);
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.pool.end();
    await this.env.cleanup();
    await rm(this.byodDir, { recursive: true, force: true });
  }
}

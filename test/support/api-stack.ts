import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../api/server.ts';
import { prepareCatalogRelease } from '../../ingest/catalog/release.ts';
import { createKey, type CreateKeyInput } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { publishRelease, type PublishSpec } from '../../releases/publish.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { CATALOG_KIND } from '../../schemas/catalog-release.ts';
import { answerOf, type Answer } from './answer.ts';
import { createTestEnv, type TestEnv } from './env.ts';

/**
 * The whole API as `canmap serve` runs it on a test database, plus releases of any kind built the
 * way their jobs build them (prepare → publish → enable); `build` and `serving` take a catalog
 * definition file.
 */
export class ApiStack {
  server: RunningServer | null = null;
  key = '';

  private constructor(readonly env: TestEnv, readonly pool: Pool) {}

  static async create(label: string, overrides: Record<string, string> = {}): Promise<ApiStack> {
    const env = await createTestEnv(label, overrides);
    const stack = new ApiStack(env, createPool(env.config.databaseUrl, 4));
    stack.key = await stack.createKey({});
    return stack;
  }

  /** A stack serving the release built from one definition. */
  static async serving(label: string, definitionFile: string): Promise<{ stack: ApiStack; release: RegisteredRelease }> {
    const stack = await ApiStack.create(label);
    const release = await stack.build(definitionFile);
    await stack.enable(release);
    await stack.start();
    await stack.waitForRelease(release.id);
    return { stack, release };
  }

  async createKey(input: CreateKeyInput): Promise<string> {
    return (await createKey(this.pool, input)).key;
  }

  async build(definitionFile: string): Promise<RegisteredRelease> {
    return this.publish((workDir) => prepareCatalogRelease(definitionFile, { workDir }));
  }

  /** Publishes the release a kind's prepare step makes (as its job does), with a scratch folder for the build. */
  async publish(prepare: (workDir: string) => Promise<PublishSpec>): Promise<RegisteredRelease> {
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-release-work-'));
    try {
      return (await publishRelease({ pool: this.pool, releasesDir: this.env.config.releasesDir }, await prepare(workDir))).release;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  async enable(release: RegisteredRelease): Promise<void> {
    await enableRelease(this.pool, release.id, 'catalog test', { allowShrink: true }); // tests swap in smaller releases on purpose
    if (this.server) await this.waitForRelease(release.id, release.kind);
  }

  async start(): Promise<void> {
    this.server = await startServer(this.env.config, { logger: false });
  }

  /** Waits until the API serves release `id` of `kind` (it learns of an enable by NOTIFY). */
  async waitForRelease(id: string, kind = CATALOG_KIND, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.server!.app.releases.status()[kind]?.id !== id) {
      if (Date.now() > deadline) throw new Error(`${kind} release ${id} not served: ${JSON.stringify(this.server!.app.releases.status())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async get(url: string, options: { key?: string | null; headers?: Record<string, string> } = {}): Promise<Answer> {
    const key = options.key === undefined ? this.key : options.key;
    const response = await this.server!.app.inject({
      method: 'GET',
      url,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...options.headers },
    });
    return answerOf(response);
  }

  async post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await this.server!.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return answerOf(response);
  }

  /** Raw bytes of an answer (tiles). */
  async getBytes(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
    const response = await this.server!.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${this.key}`, ...headers } });
    return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
  }

  async close(): Promise<void> {
    await this.server?.close();
    await this.pool.end();
    await this.env.cleanup();
  }
}

import { startServer, type RunningServer } from '../../api/server.ts';
import { prepareTerrainRelease } from '../../ingest/terrain/release.ts';
import { createKey } from '../../lib/keys.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { TERRAIN_KIND } from '../../schemas/terrain-release.ts';
import { answerOf, type Answer } from '../support/answer.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

/** The whole API on a test database, with terrain releases built the way the terrain job builds them. */
export class TerrainStack {
  server: RunningServer | null = null;
  key = '';

  private constructor(readonly env: TestEnv, readonly pool: Pool) {}

  static async create(label: string): Promise<TerrainStack> {
    const env = await createTestEnv(label);
    const stack = new TerrainStack(env, createPool(env.config.databaseUrl, 4));
    stack.key = (await createKey(stack.pool, {})).key;
    return stack;
  }

  /** prepare → publish (not enabled). */
  async build(demFiles: string[]): Promise<{ release: RegisteredRelease; reused: boolean }> {
    const spec = await prepareTerrainRelease(demFiles);
    return publishRelease({ pool: this.pool, releasesDir: this.env.config.releasesDir }, spec);
  }

  async enable(release: RegisteredRelease): Promise<void> {
    await enableRelease(this.pool, release.id, 'terrain test');
    if (this.server) await this.waitForRelease(release.id);
  }

  async start(): Promise<void> {
    this.server = await startServer(this.env.config, { logger: false });
  }

  /** Waits until the API serves terrain release `id` (it learns of an enable by NOTIFY). */
  async waitForRelease(id: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.server!.app.releases.status()[TERRAIN_KIND]?.id !== id) {
      if (Date.now() > deadline) throw new Error(`terrain release ${id} not served: ${JSON.stringify(this.server!.app.releases.status())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await this.server!.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${this.key}`, ...headers } });
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

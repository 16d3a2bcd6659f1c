import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../api/server.ts';
import { prepareTransitRelease, type FeedSpec, type LocatedFeed } from '../../ingest/transit/release.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { createTestEnv, type TestEnv } from './env.ts';
import { answerOf, type Answer } from './answer.ts';
import { sharedData } from './paths.ts';

export const GTFS_DIR = sharedData('gtfs');


/**
 * The whole API as `canmap serve` runs it (release store, auth, routes) on a test database,
 * with a working API key, plus building a transit release from feeds with the real builder.
 */
export class TransitApiStack {
  server: RunningServer | null = null;
  key = '';

  private constructor(readonly env: TestEnv, readonly pool: Pool, private readonly workDir: string) {}

  static async create(label: string): Promise<TransitApiStack> {
    const env = await createTestEnv(label);
    const pool = createPool(env.config.databaseUrl, 4);
    const stack = new TransitApiStack(env, pool, await mkdtemp(path.join(os.tmpdir(), `canmap-${label}-work-`)));
    stack.key = (await createKey(pool, {})).key;
    return stack;
  }

  /** Builds (prepareTransitRelease + publishRelease) and enables a transit release. */
  async publishAndEnable(feeds: LocatedFeed[]): Promise<RegisteredRelease> {
    const workDir = await mkdtemp(path.join(this.workDir, 'build-'));
    const spec = await prepareTransitRelease(feeds, { workDir, fetchTimeoutMs: 10_000, maxDownloadBytes: 100 * 1024 * 1024 });
    const { release } = await publishRelease({ pool: this.pool, releasesDir: this.env.config.releasesDir }, spec);
    await enableRelease(this.pool, release.id, 'transit-api test', { allowShrink: true }); // tests swap in smaller feeds on purpose
    await rm(workDir, { recursive: true, force: true });
    return release;
  }

  async start(): Promise<void> {
    this.server = await startServer(this.env.config, { logger: false });
  }

  /** Waits until the API serves transit release `id` (after an enable it learns of by NOTIFY). */
  async waitForRelease(id: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.server!.app.releases.status().transit?.id !== id) {
      if (Date.now() > deadline) throw new Error(`transit release ${id} not served: ${JSON.stringify(this.server!.app.releases.status())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** GET through the full stack (auth included) with the test key. */
  async get(url: string, options: { key?: string | null } = {}): Promise<Answer> {
    const key = options.key === undefined ? this.key : options.key;
    const response = await this.server!.app.inject({
      method: 'GET',
      url,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });
    return answerOf(response);
  }

  async close(): Promise<void> {
    await this.server?.close();
    await this.pool.end();
    await rm(this.workDir, { recursive: true, force: true });
    await this.env.cleanup();
  }
}

export function feedSpec(id: string, zipName: string, extra: Partial<FeedSpec> = {}): FeedSpec {
  return {
    id,
    source: path.join(GTFS_DIR, zipName),
    licence: `licence of ${id}`,
    attribution: `attribution of ${id}`,
    ...extra,
  };
}

/** /transit/stops/{id} with the id URL-encoded as one path segment. */
export const stopPath = (id: string, suffix = '') => `/transit/stops/${encodeURIComponent(id)}${suffix}`;
export const routePath = (id: string) => `/transit/routes/${encodeURIComponent(id)}`;

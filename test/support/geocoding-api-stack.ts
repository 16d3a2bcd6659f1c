import { createHash } from 'node:crypto';
import path from 'node:path';
import { startServer, type RunningServer } from '../../api/server.ts';
import { assembleIndex } from '../../engines/geocoding/index/assemble.ts';
import { writeIndexFile } from '../../engines/geocoding/index/file.ts';
import { GEOCODER_INDEX_FILE, GEOCODING_KIND } from '../../schemas/geocoding-release.ts';
import type { Corpus } from '../../engines/geocoding/corpus.ts';
import { createKey, type CreateKeyInput } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { publishRelease, type PublishSpec } from '../../releases/publish.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { createTestEnv, type TestEnv } from './env.ts';
import { answerOf, type Answer } from './answer.ts';

/** Typed arrays as plain arrays, so a corpus hashes by its content. */
const corpusJson = (corpus: Corpus) =>
  JSON.stringify(corpus, (_key, value: unknown) => (ArrayBuffer.isView(value) ? Array.from(value as unknown as ArrayLike<number>) : value));

/**
 * The whole API as `canmap serve` runs it (release store, auth, routes) on a test database,
 * plus publishing a geocoding release from a hand-written corpus the way a build does:
 * assembled index file → published release → enabled, so the kind's opener reads it.
 */
export class GeocodingApiStack {
  server: RunningServer | null = null;
  key = '';

  private constructor(readonly env: TestEnv, readonly pool: Pool) {}

  static async create(label: string, overrides: Record<string, string> = {}): Promise<GeocodingApiStack> {
    const env = await createTestEnv(label, overrides);
    const stack = new GeocodingApiStack(env, createPool(env.config.databaseUrl, 4));
    stack.key = await stack.createKey({});
    return stack;
  }

  async createKey(input: CreateKeyInput): Promise<string> {
    return (await createKey(this.pool, input)).key;
  }

  async publishAndEnable(corpus: Corpus): Promise<RegisteredRelease> {
    const json = corpusJson(corpus);
    const { release } = await publishRelease({ pool: this.pool, releasesDir: this.env.config.releasesDir }, {
      kind: GEOCODING_KIND,
      builderVersion: 'geocoding-api-test',
      schemaVersion: 1,
      inputs: [{ name: 'corpus', source: 'test/support/geocoding-corpus.ts', sha256: createHash('sha256').update(json).digest('hex') }],
      build: async (stagingDir) => {
        await writeIndexFile(path.join(stagingDir, GEOCODER_INDEX_FILE), assembleIndex(corpus));
        return { stats: { places: corpus.places.length, addresses: corpus.addresses.count } };
      },
    });
    await enableRelease(this.pool, release.id, 'geocoding-api test', { allowShrink: true }); // tests swap in smaller corpora on purpose
    return release;
  }

  /** Publishes and enables a release of any kind from a build's PublishSpec (as the job runner does). */
  async publishSpecAndEnable(spec: PublishSpec): Promise<RegisteredRelease> {
    const { release } = await publishRelease({ pool: this.pool, releasesDir: this.env.config.releasesDir }, spec);
    await enableRelease(this.pool, release.id, 'geocoding-api test', { allowShrink: true }); // tests swap in smaller corpora on purpose
    return release;
  }

  async start(): Promise<void> {
    this.server = await startServer(this.env.config, { logger: false });
  }

  /** Waits until the API serves release `id` of `kind` (it learns of an enable by NOTIFY). */
  async waitForRelease(id: string, timeoutMs = 30_000, kind = GEOCODING_KIND): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.server!.app.releases.status()[kind]?.id !== id) {
      if (Date.now() > deadline) throw new Error(`${kind} release ${id} not served: ${JSON.stringify(this.server!.app.releases.status())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async get(url: string, options: { key?: string | null } = {}): Promise<Answer> {
    return this.request('GET', url, undefined, options.key);
  }

  async post(url: string, payload: unknown, options: { key?: string | null; contentType?: string } = {}): Promise<Answer> {
    return this.request('POST', url, payload, options.key, options.contentType);
  }

  private async request(method: 'GET' | 'POST', url: string, payload: unknown, key: string | null | undefined, contentType?: string): Promise<Answer> {
    const headers: Record<string, string> = {};
    const useKey = key === undefined ? this.key : key;
    if (useKey !== null) headers.authorization = `Bearer ${useKey}`;
    if (payload !== undefined) headers['content-type'] = contentType ?? 'application/json';
    const response = await this.server!.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    return answerOf(response);
  }

  async close(): Promise<void> {
    await this.server?.close();
    await this.pool.end();
    await this.env.cleanup();
  }
}

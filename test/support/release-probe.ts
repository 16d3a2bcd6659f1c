import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import type { RegisteredRelease } from '../../releases/registry.ts';

let counter = 0;

/** Publishes a release of a test-only kind holding `text` in data.txt (a new release every call). */
export async function publishTextRelease(db: { pool: Pool; releasesDir: string }, kind: string, text: string): Promise<RegisteredRelease> {
  counter += 1;
  const { release } = await publishRelease(db, {
    kind,
    builderVersion: 'probe-1',
    schemaVersion: 1,
    inputs: [{ name: 'text', source: 'memory', sha256: createHash('sha256').update(`${text}-${counter}`).digest('hex') }],
    async build(dir) {
      await writeFile(path.join(dir, 'data.txt'), text);
      return { stats: { length: text.length } };
    },
  });
  return release;
}

/** Polls `check` every 10 ms; resolves with the milliseconds it took, or throws after timeoutMs. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 5000): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

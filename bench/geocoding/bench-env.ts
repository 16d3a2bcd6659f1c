/**
 * The benchmark's isolated setup (database, Redis prefix, releases dir: test/support/env.ts).
 * With `keep`, it outlives the run and is saved beside the corpus with the build's outcome, so the
 * next run with `keep` serves the same release instead of building it again (~5 min at 15M).
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type Config } from '../../lib/config.ts';
import { createTestEnv } from '../../test/support/env.ts';
import type { BuildOutcome } from './build.ts';

const SAVED_FILE = 'bench-env.json';

export interface BenchEnv {
  config: Config;
  env: Record<string, string>;
  /** The build this env already holds (a kept env), or null: build one. */
  built: BuildOutcome | null;
  /** Saves the build with the env (kept envs only). */
  remember(build: BuildOutcome): Promise<void>;
  cleanup(): Promise<void>;
}

interface Saved {
  env: Record<string, string>;
  build: BuildOutcome;
}

export async function openBenchEnv(corpusDir: string, keep: boolean, overrides: Record<string, string>): Promise<BenchEnv> {
  const savedFile = path.join(corpusDir, SAVED_FILE);
  if (keep) {
    const saved = await readFile(savedFile, 'utf8').then((t) => JSON.parse(t) as Saved, () => null);
    const releaseDir = saved && path.join(saved.env.RELEASES_DIR!, 'geocoding', saved.build.release);
    if (saved && releaseDir && (await access(releaseDir).then(() => true, () => false))) {
      const env = { ...saved.env, ...overrides };
      return { config: loadConfig(env), env, built: saved.build, remember: async () => {}, cleanup: async () => {} };
    }
  }
  const test = await createTestEnv('bench_geocoding', overrides);
  return {
    config: test.config,
    env: test.env,
    built: null,
    remember: async (build) => {
      if (keep) await writeFile(savedFile, JSON.stringify({ env: test.env, build } satisfies Saved));
    },
    cleanup: async () => {
      if (keep) return;
      await test.cleanup();
    },
  };
}

/**
 * A worker thread running a TypeScript entry file. Worker threads do not inherit the loader the
 * parent registered, so an eval'd bootstrap registers tsx in the worker, then imports the entry:
 * the same under `node --import tsx`, the CLI and vitest, with no build step.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TSX_API = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;

/** Starts `entry` (a .ts file URL, e.g. `new URL('./x-worker.ts', import.meta.url)`) on a new worker thread. */
export function startTsWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const bootstrap = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

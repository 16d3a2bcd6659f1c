/**
 * A worker thread running a TypeScript entry file. Worker threads do not inherit the loader the
 * parent registered, so an eval'd bootstrap registers tsx in the worker, then imports the entry:
 * the same under `node --import tsx`, the CLI and vitest, with no build step.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TSX_API = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;

/**
 * Nice value of the threads that do a request's heavy work (solver, routing, checks). On Linux a
 * thread is a task of its own, so lowering its priority by its thread id leaves the process's
 * event loop first in line for a core: with every core busy solving, the loop still answers in
 * milliseconds. Elsewhere the call fails and the thread keeps the process's priority.
 */
export const WORKER_NICE = 10;

export interface TsWorkerOptions extends Omit<WorkerOptions, 'eval'> {
  /** Lower the thread's priority to this nice value (Linux); absent: the process's priority. */
  nice?: number;
}

/** Starts `entry` (a .ts file URL, e.g. `new URL('./x-worker.ts', import.meta.url)`) on a new worker thread. */
export function startTsWorker(entry: URL, { nice, ...options }: TsWorkerOptions = {}): Worker {
  const lower = nice === undefined ? '' : `await lowerThreadPriority(${Number(nice)});`;
  const bootstrap = `
    async function lowerThreadPriority(nice) {
      try {
        const [{ readlinkSync }, { setPriority }] = await Promise.all([import('node:fs'), import('node:os')]);
        setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
      } catch {}
    }
    (async () => {
      ${lower}
      const tsx = await import(${JSON.stringify(TSX_API)});
      tsx.register();
      await import(${JSON.stringify(entry.href)});
    })();`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * The geocoding build in a child process of its own: `node --max-old-space-size=N --import tsx
 * build-child.ts`, driven over IPC. A national build holds tens of millions of strings and runs
 * synchronous phases of a minute (index assembly), which would stall the worker's event loop past
 * its job lock; here the worker only relays progress. The child dies with its parent.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { InvalidInputError } from '../errors.ts';
import type { GeocodingInput } from './inputs.ts';

export interface BuildRequest {
  inputs: GeocodingInput[];
  stagingDir: string;
  workDir: string;
}

export type ChildMessage =
  | { type: 'ready' }
  | { type: 'progress'; fraction: number; message: string }
  | { type: 'done'; stats: Record<string, unknown> }
  | { type: 'failed'; message: string; invalidInput: boolean };

const CHILD = fileURLToPath(new URL('./build-child.ts', import.meta.url));

/** Runs the build in a child process with the given heap limit; rejects with its error. */
export function buildInChildProcess(
  request: BuildRequest,
  heapMb: number,
  onProgress: (fraction: number, message: string) => void,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], {
      execArgv: [`--max-old-space-size=${heapMb}`, '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    child.on('message', (m: ChildMessage) => {
      // A message sent before the child listens would be lost: it asks when it is ready.
      if (m.type === 'ready') child.send(request);
      else if (m.type === 'progress') onProgress(m.fraction, m.message);
      else if (m.type === 'done') settle(() => resolve(m.stats));
      else settle(() => reject(m.invalidInput ? new InvalidInputError(m.message) : new Error(m.message)));
    });
    child.on('error', (err) => settle(() => reject(err)));
    child.on('exit', (code, signal) => {
      settle(() => reject(new Error(`the geocoding build process ended without a result (${signal ?? `exit ${code}`})`)));
    });
  });
}

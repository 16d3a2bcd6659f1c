import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { TiledUpload } from '../../engines/byod/tile-geojson.ts';
import { tooMuchMemoryReason, tooSlowReason } from '../../engines/byod/tiling-limits.ts';

/**
 * A GeoJSON upload is tiled in a child process of its own (`node --import tsx tile-child.ts`):
 * tiling is synchronous CPU work and a dense 5 MB file can take seconds and most of a gigabyte,
 * which must stall neither the worker's other jobs and their locks nor its memory. The child runs
 * at a lower CPU priority (nice 5: a third of a normal process's share when the cores are busy;
 * lower would starve it into its time limit on a loaded machine), so the worker's own jobs come
 * first. It is killed past `timeoutMs`, and dies with its parent. Its scratch files go to
 * `workDir`, which the caller removes whatever happened.
 */

export interface TileRequest {
  sourcePath: string;
  archivePath: string;
  workDir: string;
}

export type TileChildMessage =
  | { type: 'ready' }
  | { type: 'done'; tiled: TiledUpload }
  | { type: 'failed'; message: string; refused: boolean };

/** The upload itself cannot be tiled (a reason of the file's own, or over the time or memory it may take): not retried. */
export class TilingRefusedError extends Error {
  override readonly name = 'TilingRefusedError';
}

const CHILD = fileURLToPath(new URL('./tile-child.ts', import.meta.url));
const HEAP_MB = 2048;
const NICE = 5;

export function tileInChildProcess(request: TileRequest, timeoutMs: number): Promise<TiledUpload> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], {
      execArgv: [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, NICE);
    } catch {
      // Not allowed here (a container without CAP_SYS_NICE may refuse): it runs at normal priority.
    }
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    // Settled when the child is gone, so the caller's clean-up never races a child still writing.
    let exited: () => void;
    const gone = new Promise<void>((r) => (exited = r));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      void gone.then(() => settle(() => reject(new TilingRefusedError(tooSlowReason(timeoutMs / 1000)))));
    }, timeoutMs);
    child.on('message', (m: TileChildMessage) => {
      if (m.type === 'ready') child.send(request);
      else if (m.type === 'done') settle(() => resolve(m.tiled));
      else settle(() => reject(m.refused ? new TilingRefusedError(m.message) : new Error(m.message)));
    });
    child.on('error', (err) => settle(() => reject(err)));
    child.on('exit', (code, signal) => {
      exited();
      if (signal === 'SIGKILL' && child.killed) return; // our own kill: the timer settles
      // The heap limit ends the child with an abort: the file needs more memory than a tiling may use.
      if (signal === 'SIGABRT' || code === 134) settle(() => reject(new TilingRefusedError(tooMuchMemoryReason(HEAP_MB))));
      settle(() => reject(new Error(`the tiling process ended without a result (${signal ?? `exit ${code}`})`)));
    });
  });
}

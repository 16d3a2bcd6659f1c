import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TiledUpload } from '../../engines/byod/tile-geojson.ts';

/**
 * A GeoJSON upload is tiled in a child process of its own (`node --import tsx tile-child.ts`):
 * tiling is synchronous CPU work and a dense 5 MB file can take seconds and most of a gigabyte,
 * which must stall neither the worker's other jobs and their locks nor its memory. The child is
 * killed past `timeoutMs`, and dies with its parent.
 */

export interface TileRequest {
  sourcePath: string;
  archivePath: string;
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

export function tileInChildProcess(request: TileRequest, timeoutMs: number): Promise<TiledUpload> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], {
      execArgv: [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      settle(() => reject(new TilingRefusedError(`tiling took longer than ${timeoutMs / 1000} s; upload fewer or simpler features`)));
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (m: TileChildMessage) => {
      if (m.type === 'ready') child.send(request);
      else if (m.type === 'done') settle(() => resolve(m.tiled));
      else settle(() => reject(m.refused ? new TilingRefusedError(m.message) : new Error(m.message)));
    });
    child.on('error', (err) => settle(() => reject(err)));
    child.on('exit', (code, signal) => {
      // The heap limit ends the child with an abort: the file needs more memory than a tiling may use.
      if (signal === 'SIGABRT' || code === 134) settle(() => reject(new TilingRefusedError(`tiling needs more than ${HEAP_MB} MB of memory; upload fewer or simpler features`)));
      settle(() => reject(new Error(`the tiling process ended without a result (${signal ?? `exit ${code}`})`)));
    });
  });
}

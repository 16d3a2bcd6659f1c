/**
 * Entry of a tiling child process (started by tile-process.ts): waits for the request, tiles the
 * upload, reports the outcome over IPC, and stops if the worker goes.
 */
import { QueryError } from '../../lib/query-error.ts';
import { tileGeoJsonUpload } from '../../engines/byod/tile-geojson.ts';
import type { TileChildMessage, TileRequest } from './tile-process.ts';

async function runAsChild(): Promise<void> {
  const orphaned = () => process.exit(1);
  process.on('disconnect', orphaned);
  const send = (m: TileChildMessage) => new Promise<void>((resolve) => process.send!(m, () => resolve()));
  const request = await new Promise<TileRequest>((resolve) => {
    process.once('message', (m) => resolve(m as TileRequest));
    void send({ type: 'ready' });
  });
  try {
    await send({ type: 'done', tiled: await tileGeoJsonUpload(request.sourcePath, request.archivePath, { workDir: request.workDir }) });
  } catch (err) {
    await send({ type: 'failed', message: (err as Error).message, refused: err instanceof QueryError });
  }
  process.off('disconnect', orphaned);
  process.disconnect();
}

await runAsChild();

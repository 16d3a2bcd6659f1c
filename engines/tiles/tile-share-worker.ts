/**
 * A tiling thread of parallel-tiling.ts: the subtrees it is handed, one after another in the
 * order they come (tile-id order), each from its partition file, with its own maker, gzip thread
 * and spool; at `finish`, its spool files and counts handed back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { GzipPool } from './gzip-pool.ts';
import type { ShareMessage, ShareRequest, ShareSetup } from './parallel-tiling.ts';
import { TileMaker } from './tile-maker.ts';
import { TileOutput } from './tile-output.ts';
import { TileSpool } from './tile-spool.ts';
import { tileSubtree } from './tile-tree.ts';

const setup = workerData as ShareSetup;
const post = (message: ShareMessage) => parentPort!.postMessage(message);
const spool = new TileSpool(setup.dir);
const pool = new GzipPool(1);
const output = new TileOutput(spool, pool, (tiles) => post({ type: 'tiles', tiles }), setup.maxTileBytes ?? Infinity);
const maker = new TileMaker(setup.specs, setup.budget);
const tree = { maker, output, workDir: setup.dir, inMemoryFeatures: setup.inMemoryFeatures, inMemoryBytes: setup.inMemoryBytes };
let streamedTiles = 0;
let work = Promise.resolve();
let failed = false;

async function handle(request: ShareRequest): Promise<void> {
  if (request.type === 'subtree') {
    streamedTiles += await tileSubtree(request.part, request.z, request.x, request.y, tree);
    post({ type: 'subtree-done' });
    return;
  }
  await output.flush();
  post({ type: 'done', zooms: output.zoomStats(), drops: output.zoomDrops(), tiles: output.tiles, bytes: output.bytesSpooled, streamedTiles, spool: [...spool.close()] });
  await pool.close();
  parentPort!.close();
}

parentPort!.on('message', (request: ShareRequest) => {
  work = work.then(() => (failed ? undefined : handle(request))).catch(async (error: Error) => {
    failed = true;
    spool.discard();
    post({ type: 'error', name: error.name, message: error.message, stack: error.stack ?? '' });
    await pool.close();
    parentPort!.close();
  });
});

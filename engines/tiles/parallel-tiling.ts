import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../../lib/ts-worker.ts';
import { GzipPool } from './gzip-pool.ts';
import type { LayerSpec } from './layer-spec.ts';
import type { PMTilesWriter } from './pmtiles/writer.ts';
import type { TileBudget } from './tile-budget.ts';
import { TileMaker } from './tile-maker.ts';
import { TileOutput, TilesTooLargeError, type ZoomDrops, type ZoomStats } from './tile-output.ts';
import { drainMerged, TileSpool } from './tile-spool.ts';
import { tileTree, type Partition } from './tile-tree.ts';

/**
 * The tile tree on several threads: this thread walks it down to HAND_OFF_ZOOM, or less far where a
 * partition is small enough, and hands each subtree there, as a partition file, to the tiling
 * thread with the least work queued
 * (tile-share-worker.ts), which tiles it with its own maker, gzip thread and spool. Subtrees go
 * out in tile-id order and each thread takes its own in order, so every spool is in tile-id order
 * and merging them (drainMerged) writes the archive one thread would. A tile depends only on the
 * features that reach it: the tiles are the same too.
 */

/** Subtrees below this zoom are tiled on the other threads: a province spans hundreds of its tiles. */
const HAND_OFF_ZOOM = 10;
/** A subtree is handed off above HAND_OFF_ZOOM once it holds at most this share of the features per thread (or fits the in-memory caps). */
const SUBTREES_PER_THREAD = 4;
/** Subtrees queued per thread before the walk waits (their partition files wait on disk). */
const QUEUED_PER_THREAD = 4;

export interface ShareSetup {
  specs: readonly LayerSpec[];
  budget: TileBudget | undefined;
  inMemoryFeatures: number;
  inMemoryBytes: number;
  maxTileBytes: number | undefined;
  dir: string;
}

export type ShareRequest = { type: 'subtree'; part: Partition; z: number; x: number; y: number } | { type: 'finish' };

export type ShareMessage =
  | { type: 'tiles'; tiles: number }
  | { type: 'subtree-done' }
  | { type: 'done'; zooms: ZoomStats[]; drops: ZoomDrops[]; tiles: number; bytes: number; streamedTiles: number; spool: [number, string][] }
  | { type: 'error'; name: string; message: string; stack: string };

type ShareResult = Extract<ShareMessage, { type: 'done' }>;

export interface ParallelTiling {
  zooms: ZoomStats[];
  drops: ZoomDrops[];
  tiles: number;
  streamedTiles: number;
}

export interface ParallelOptions extends Omit<ShareSetup, 'dir' | 'budget' | 'maxTileBytes'> {
  /** Tiling threads besides this one. */
  threads: number;
  budget?: TileBudget;
  maxTileBytes?: number;
  workDir: string;
  onTiles?: (tiles: number) => void;
}

interface Share {
  worker: Worker;
  queued: number;
  tiles: number;
  failed: Error | null;
  result: Promise<ShareResult>;
}

/** Tiles the root partition into the writer, on this thread and `threads` more. */
export async function tileInParallel(root: Partition, writer: PMTilesWriter, options: ParallelOptions): Promise<ParallelTiling> {
  const setup = (dir: string): ShareSetup => ({
    specs: options.specs, budget: options.budget, inMemoryFeatures: options.inMemoryFeatures, inMemoryBytes: options.inMemoryBytes, maxTileBytes: options.maxTileBytes, dir,
  });
  const shares: Share[] = [];
  let ownTiles = 0;
  const report = () => options.onTiles?.(ownTiles + shares.reduce((sum, s) => sum + s.tiles, 0));
  let wake: (() => void) | null = null;
  for (let i = 0; i < options.threads; i++) {
    const dir = path.join(options.workDir, `share-${i}`);
    await mkdir(dir, { recursive: true });
    shares.push(startShare(setup(dir), () => {
      report();
      wake?.();
    }));
  }
  const ownDir = path.join(options.workDir, 'share-main');
  await mkdir(ownDir, { recursive: true });
  const spool = new TileSpool(ownDir);
  const pool = new GzipPool(1);
  try {
    const output = new TileOutput(spool, pool, (tiles) => {
      ownTiles = tiles;
      report();
    }, options.maxTileBytes);
    const streamedTiles = await tileTree(root, {
      maker: new TileMaker(options.specs, options.budget), output, workDir: ownDir, inMemoryFeatures: options.inMemoryFeatures, inMemoryBytes: options.inMemoryBytes,
      handOff: {
        zoom: HAND_OFF_ZOOM,
        features: Math.max(options.inMemoryFeatures, Math.ceil(root.count / (SUBTREES_PER_THREAD * options.threads))),
        async take(part, z, x, y) {
          for (;;) {
            const failed = shares.find((s) => s.failed);
            if (failed) throw failed.failed!;
            if (shares.reduce((sum, s) => sum + s.queued, 0) < QUEUED_PER_THREAD * shares.length) break;
            await new Promise<void>((resolve) => (wake = resolve));
          }
          const share = shares.reduce((a, b) => (b.queued < a.queued ? b : a));
          share.queued += 1;
          share.worker.postMessage({ type: 'subtree', part, z, x, y } satisfies ShareRequest);
        },
      },
    });
    await output.flush();
    for (const s of shares) s.worker.postMessage({ type: 'finish' } satisfies ShareRequest);
    const results = await Promise.all(shares.map((s) => s.result));
    const bytes = results.reduce((sum, r) => sum + r.bytes, output.bytesSpooled);
    if (options.maxTileBytes !== undefined && bytes > options.maxTileBytes) throw new TilesTooLargeError(options.maxTileBytes);
    await drainMerged([spool.close(), ...results.map((r) => new Map(r.spool))], writer);
    return {
      zooms: mergeByZoom([...output.zoomStats(), ...results.flatMap((r) => r.zooms)], (a, b) => ({ zoom: a.zoom, tiles: a.tiles + b.tiles, features: a.features + b.features })),
      drops: mergeByZoom([...output.zoomDrops(), ...results.flatMap((r) => r.drops)], sumDrops),
      tiles: results.reduce((sum, r) => sum + r.tiles, output.tiles),
      streamedTiles: results.reduce((sum, r) => sum + r.streamedTiles, streamedTiles),
    };
  } finally {
    spool.discard();
    await pool.close();
    await Promise.all(shares.map((s) => s.worker.terminate()));
  }
}

/** A tiling thread; `onChange` hears of its progress, of each subtree it finishes and of its failure. */
function startShare(setup: ShareSetup, onChange: () => void): Share {
  const worker = startTsWorker(new URL('./tile-share-worker.ts', import.meta.url), { workerData: setup });
  // The worker's events come after `share` is assigned below.
  let share!: Share;
  const result = new Promise<ShareResult>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      settled = true;
      share.failed = error;
      reject(error);
      onChange();
    };
    worker.on('message', (message: ShareMessage) => {
      if (message.type === 'tiles') share.tiles = message.tiles;
      else if (message.type === 'subtree-done') share.queued -= 1;
      else if (message.type === 'done') {
        settled = true;
        resolve(message);
      } else {
        const error = message.name === 'TilesTooLargeError' ? new TilesTooLargeError(setup.maxTileBytes!) : new Error(message.message);
        error.stack = message.stack;
        fail(error);
      }
      onChange();
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!settled) fail(new Error(`a tiling thread exited with code ${code} before it finished`));
    });
  });
  result.catch(() => {}); // awaited once the walk ends; a failure meanwhile must not go unhandled
  share = { worker, queued: 0, tiles: 0, failed: null, result };
  return share;
}

function mergeByZoom<T extends { zoom: number }>(items: readonly T[], add: (a: T, b: T) => T): T[] {
  const byZoom = new Map<number, T>();
  for (const item of items) {
    const seen = byZoom.get(item.zoom);
    byZoom.set(item.zoom, seen ? add(seen, item) : item);
  }
  return [...byZoom.values()].sort((a, b) => a.zoom - b.zoom);
}

function sumDrops(a: ZoomDrops, b: ZoomDrops): ZoomDrops {
  const bytesBefore = a.bytesBefore === undefined && b.bytesBefore === undefined ? undefined : (a.bytesBefore ?? 0) + (b.bytesBefore ?? 0);
  return { zoom: a.zoom, tilesOverBudget: a.tilesOverBudget + b.tilesOverBudget, featuresDropped: a.featuresDropped + b.featuresDropped, ...(bytesBefore !== undefined ? { bytesBefore } : {}) };
}

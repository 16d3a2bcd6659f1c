import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spillLayers, type LayerSource } from './feature-input.ts';
import { GzipPool } from './gzip-pool.ts';
import type { FieldType, TilerFeature, LayerSpec } from './layer-spec.ts';
import type { Bounds } from './pmtiles/header.ts';
import { PMTilesWriter, type ArchiveSummary } from './pmtiles/writer.ts';
import type { TileBudget } from './tile-budget.ts';
import { TileMaker } from './tile-maker.ts';
import { tileInParallel } from './parallel-tiling.ts';
import { TileOutput, type ZoomDrops, type ZoomStats } from './tile-output.ts';
import { drainMerged, TileSpool } from './tile-spool.ts';
import { tileTree } from './tile-tree.ts';

/**
 * Our vector tiler: GeoJSON features of one or more source layers → MVT tiles (gzip) → a PMTiles
 * archive, with tippecanoe-like controls per layer (layer-spec.ts: zoom band, simplification per
 * zoom, attribute include/exclude; per feature `tippecanoe: {minzoom, maxzoom}`) and a tile budget
 * (tile-budget.ts: 500 KB / 200,000 features by default; what it drops is reported per zoom).
 *
 * Inputs of any size: the features are streamed once into a partition file (feature-input.ts),
 * then tiled depth first (tile-tree.ts) with memory bounded by the in-memory caps; tiles are
 * parked per zoom (tile-spool.ts) and written in tile-id order, so the archive is clustered.
 * Every tile of every layer at one z/x/y is one MVT tile. Scratch files live in a fresh folder of
 * `workDir`, removed when the tiling ends, failed or not.
 */

export { TILE_EXTENT } from './layer-spec.ts';
export type { LayerSpec, TilerFeature } from './layer-spec.ts';
export type { LayerSource } from './feature-input.ts';
export type { TileBudget } from './tile-budget.ts';
export type { ZoomDrops, ZoomStats } from './tile-output.ts';
export { TilesTooLargeError } from './tile-output.ts';

export interface TilerLayer {
  spec: LayerSpec;
  features: readonly TilerFeature[];
}

export interface VectorLayerMetadata {
  id: string;
  fields: Record<string, FieldType>;
  minzoom: number;
  maxzoom: number;
}

export interface TilingProgress {
  stage: 'reading' | 'tiling' | 'writing';
  /** Input features read so far. */
  features: number;
  tiles: number;
}

export interface TilingOptions {
  budget?: TileBudget;
  /** A tile's features are cut in memory, with all its descendants, when they are at most this many (default 250,000)… */
  inMemoryFeatures?: number;
  /** …and their records at most this many bytes (default 256 MiB); larger tiles are streamed through partition files. */
  inMemoryBytes?: number;
  onProgress?: (progress: TilingProgress) => void;
  /**
   * Threads that make tiles besides this one (default 0). With some, an input too large to tile in
   * memory at once has its subtrees below z10 tiled on them (parallel-tiling.ts), each thread
   * with an equal part of the in-memory caps; the archive is the same.
   */
  threads?: number;
  /**
   * Most bytes the tiles may take, gzip-compressed, all zooms together: past it the tiling stops
   * with TilesTooLargeError, its scratch files removed (default: no limit). The archive is these
   * bytes (fewer when tiles repeat) plus its directories.
   */
  maxTileBytes?: number;
}

export interface TilingReport {
  /** Per zoom: tiles written and features in them (all layers). */
  zooms: ZoomStats[];
  vectorLayers: VectorLayerMetadata[];
  /** Per zoom where the tile budget left features out: how many tiles, how many features. */
  dropped: ZoomDrops[];
  /** Input features read, all layers. */
  inputFeatures: number;
  /** Of the tiled features (lon/lat); null when none had a geometry. */
  bounds: Bounds | null;
  /** Tiles (of the low zooms) too large for memory, made by streaming their features from partition files. */
  streamedTiles: number;
}

export interface TileToArchiveOptions extends TilingOptions {
  layers: readonly LayerSource[];
  archivePath: string;
  /** Where the scratch folder goes: room for about twice the input's projected size. */
  workDir: string;
  metadata?: { name?: string; attribution?: string; description?: string };
}

/** Tiles the layers into a finished PMTiles archive at `archivePath` (metadata: vector_layers, bounds, center, zooms). */
export async function tileToArchive(options: TileToArchiveOptions): Promise<TilingReport & { archive: ArchiveSummary }> {
  const writer = await PMTilesWriter.create(options.archivePath);
  try {
    const report = await tileLayersInto(options.layers, writer, options.workDir, options);
    const archive = await writer.finish({
      metadata: { ...options.metadata, vector_layers: report.vectorLayers },
      ...(report.bounds ? { bounds: report.bounds } : {}),
    });
    return { ...report, archive };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** Small inputs held in arrays: the same tiling, scratch files in the system's temp folder, the writer left open. */
export async function writeTiles(layers: readonly TilerLayer[], writer: PMTilesWriter, options: TilingOptions = {}): Promise<TilingReport> {
  return tileLayersInto(layers, writer, os.tmpdir(), options);
}

/** Tiles the layers into an open writer (which the caller finishes). */
export async function tileLayersInto(layers: readonly LayerSource[], writer: PMTilesWriter, workDir: string, options: TilingOptions = {}): Promise<TilingReport> {
  await mkdir(workDir, { recursive: true });
  const dir = await mkdtemp(path.join(workDir, 'canmap-tiling-'));
  const spool = new TileSpool(dir);
  const pool = new GzipPool();
  const progress = options.onProgress;
  try {
    const threads = options.threads ?? 0;
    const inMemoryFeatures = options.inMemoryFeatures ?? 250_000;
    const inMemoryBytes = options.inMemoryBytes ?? 256 << 20;
    const input = await spillLayers(layers, path.join(dir, 'part-0-0-0'), (n) => progress?.({ stage: 'reading', features: n, tiles: 0 }));
    const read = input.features.reduce((a, b) => a + b, 0);
    const report = (zooms: ZoomStats[], dropped: ZoomDrops[], streamedTiles: number): TilingReport => ({
      zooms,
      vectorLayers: layers.map(({ spec }, i) => ({ id: spec.id, fields: input.fields[i]!, minzoom: spec.minZoom, maxzoom: spec.maxZoom })),
      dropped,
      inputFeatures: read,
      bounds: input.bounds,
      streamedTiles,
    });
    if (threads > 0 && (input.root.count > inMemoryFeatures || input.root.bytes > inMemoryBytes)) {
      const shared = await tileInParallel(input.root, writer, {
        threads, specs: layers.map((l) => l.spec), ...(options.budget ? { budget: options.budget } : {}),
        inMemoryFeatures: Math.ceil(inMemoryFeatures / (threads + 1)), inMemoryBytes: Math.ceil(inMemoryBytes / (threads + 1)),
        ...(options.maxTileBytes !== undefined ? { maxTileBytes: options.maxTileBytes } : {}),
        workDir: dir,
        onTiles: (tiles) => progress?.({ stage: 'tiling', features: read, tiles }),
      });
      progress?.({ stage: 'writing', features: read, tiles: shared.tiles });
      return report(shared.zooms, shared.drops, shared.streamedTiles);
    }
    const output = new TileOutput(spool, pool, progress && ((tiles) => progress({ stage: 'tiling', features: read, tiles })), options.maxTileBytes);
    const maker = new TileMaker(layers.map((l) => l.spec), options.budget);
    let streamedTiles = 0;
    if (input.root.count > 0) {
      streamedTiles = await tileTree(input.root, { maker, output, workDir: dir, inMemoryFeatures, inMemoryBytes });
    }
    await output.flush();
    progress?.({ stage: 'writing', features: read, tiles: output.tiles });
    await drainMerged([spool.close()], writer);
    return report(output.zoomStats(), output.zoomDrops(), streamedTiles);
  } finally {
    await pool.close();
    spool.discard();
    await rm(dir, { recursive: true, force: true });
  }
}

import { gzipSync } from 'node:zlib';
import { simplifies, TILE_EXTENT, toleranceAt, type LayerSpec } from './layer-spec.ts';
import { encodeMvt, type PlacedFeature, type TileLayerContent } from './mvt-encode.ts';
import { DEFAULT_BUDGET, selectWithinBudget, type TileBudget } from './tile-budget.ts';
import { CommandBuffer, writeTileGeometry } from './tile-geometry.ts';
import { POINT, POLYGON, type TileFeature } from './tile-feature.ts';

/**
 * Makes one tile from the features its node holds, given one at a time (so a node streamed from
 * disk never has to be held whole): each feature that shows at the zoom gets its geometry
 * commands, and the tile is held to the budget. Over the feature cap, the features to drop are
 * chosen (tile-budget.ts) each time twice the cap is reached and at the end; over the byte cap,
 * the tile is first simplified harder if the budget allows it (`coarsen`: the tolerance doubled
 * until it fits or reaches its limit), then the share kept is cut in proportion and the tile
 * encoded again until it fits. What was dropped is returned with the tile, never silent.
 */

export interface MadeTile {
  /** MVT bytes, gzip-compressed already if `compressed`; empty when not even one feature fit the byte cap. */
  data: Uint8Array;
  compressed: boolean;
  features: number;
  /** Features that showed at this zoom but the budget left out. */
  dropped: number;
  /** Gzip size of the tile as first encoded, when it was over the byte cap. */
  bytesBefore?: number;
}

/** Uncompressed tiles this far under the byte cap cannot exceed it gzip-compressed (gzip adds < 1 KB to 500 KB). */
const GZIP_MARGIN = 1024;
const GZIP_SAMPLE_BYTES = 256 * 1024;

export class TileMaker {
  private readonly budget: Required<TileBudget>;
  /** Tolerance (tile units) per layer per zoom. */
  private readonly tolerances: number[][];
  /** Per layer: whether its vertices carry Douglas-Peucker ranks (what simplifying harder reads). */
  private readonly ranked: boolean[];
  private readonly geometry = new CommandBuffer();
  private placed: PlacedFeature[] = [];
  private shown = 0;
  private tile = { z: 0, x: 0, y: 0 };

  constructor(private readonly specs: readonly LayerSpec[], budget: TileBudget = {}) {
    this.budget = { ...DEFAULT_BUDGET, ...budget };
    this.tolerances = specs.map((spec) => Array.from({ length: 25 }, (_, z) => toleranceAt(spec, z)));
    this.ranked = specs.map(simplifies);
  }

  begin(z: number, x: number, y: number): void {
    this.tile = { z, x, y };
    this.placed = [];
    this.shown = 0;
    this.geometry.length = 0;
  }

  /** Whether the feature can show at this zoom (its zoom band, and not below the tolerance); cheap. */
  mayShow(f: Pick<TileFeature, 'layer' | 'type' | 'minZoom' | 'maxZoom' | 'largestPart'>): boolean {
    const { z } = this.tile;
    if (z < f.minZoom || z > f.maxZoom) return false;
    const tolerance = this.tolerances[f.layer]![z]!;
    if (tolerance === 0 || f.type === POINT) return true;
    const world = tolerance / (2 ** z * TILE_EXTENT);
    return f.largestPart >= (f.type === POLYGON ? world * world : world);
  }

  add(f: TileFeature): void {
    if (!this.mayShow(f)) return;
    const { z, x, y } = this.tile;
    const start = this.geometry.length;
    if (!writeTileGeometry(f, z, x, y, this.tolerances[f.layer]![z]!, this.geometry)) return;
    this.placed.push({ feature: f, start, end: this.geometry.length });
    this.shown += 1;
    if (this.placed.length >= 2 * this.budget.maxFeatures) this.keepOnly(this.budget.maxFeatures);
  }

  finish(): MadeTile | null {
    if (this.placed.length === 0) return null;
    const { maxBytes, maxFeatures, coarsen } = this.budget;
    if (this.placed.length > maxFeatures) this.keepOnly(maxFeatures);
    let raw = this.encode();
    if (raw.length <= maxBytes - GZIP_MARGIN) return this.made(raw, false);
    let bytesBefore: number | undefined;
    let data: Uint8Array | undefined;
    if (coarsen > 1) {
      // Compressing a tile of megabytes at every step would cost more than the steps: the share
      // gzip keeps of a sample tells when it is near enough to compress it and check.
      const sample = raw.subarray(0, GZIP_SAMPLE_BYTES);
      let ratio = gzipSync(sample).length / sample.length;
      for (let factor = 2; ; factor *= 2) {
        const estimate = Math.round(raw.length * ratio);
        if (estimate <= maxBytes) {
          data = gzipSync(raw);
          if (data.length <= maxBytes) break;
          ratio = data.length / raw.length;
        }
        bytesBefore ??= data?.length ?? estimate;
        if (factor > coarsen) break;
        this.simplifyHarder(factor);
        if (this.placed.length === 0) return this.made(new Uint8Array(0), true, bytesBefore);
        raw = this.encode();
        data = undefined;
        if (raw.length <= maxBytes - GZIP_MARGIN) return this.made(raw, false, bytesBefore);
      }
    }
    data ??= gzipSync(raw);
    if (data.length > maxBytes) bytesBefore ??= data.length;
    while (data.length > maxBytes) {
      const keep = Math.min(this.placed.length - 1, Math.floor(this.placed.length * (maxBytes / data.length) * 0.95));
      this.keepOnly(keep);
      if (keep === 0) return this.made(new Uint8Array(0), true, bytesBefore);
      raw = this.encode();
      data = gzipSync(raw);
    }
    return this.made(data, true, bytesBefore);
  }

  private made(data: Uint8Array, compressed: boolean, bytesBefore?: number): MadeTile {
    const features = this.placed.length;
    return { data, compressed, features, dropped: this.shown - features, ...(bytesBefore !== undefined ? { bytesBefore } : {}) };
  }

  private encode(): Uint8Array {
    const layers: TileLayerContent[] = this.specs.map((spec) => ({ name: spec.id, features: [] as PlacedFeature[] }));
    for (const p of this.placed) (layers[p.feature.layer]!.features as PlacedFeature[]).push(p);
    return encodeMvt(layers, this.geometry);
  }

  /** Writes the placed features' geometry again at `factor` times the zoom's tolerance (at least 1 unit); those that vanish go. */
  private simplifyHarder(factor: number): void {
    const { z, x, y } = this.tile;
    const placed = this.placed;
    this.placed = [];
    this.geometry.length = 0;
    for (const p of placed) {
      const f = p.feature;
      const tolerance = this.tolerances[f.layer]![z]!;
      const start = this.geometry.length;
      const harder = this.ranked[f.layer] && f.type !== POINT ? Math.max(1, tolerance) * factor : tolerance;
      if (writeTileGeometry(f, z, x, y, harder, this.geometry)) this.placed.push({ feature: f, start, end: this.geometry.length });
    }
  }

  /** Keeps `keep` features (tile-budget.ts decides which) and compacts their commands. */
  private keepOnly(keep: number): void {
    const kept = selectWithinBudget(this.placed, keep, this.tile);
    const data = this.geometry.data;
    let length = 0;
    for (const p of kept) {
      const n = p.end - p.start;
      data.copyWithin(length, p.start, p.end);
      p.start = length;
      p.end = length + n;
      length += n;
    }
    this.geometry.length = length;
    this.placed = kept;
  }
}

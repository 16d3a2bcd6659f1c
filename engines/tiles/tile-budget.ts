import { TILE_EXTENT } from './layer-spec.ts';
import type { PlacedFeature } from './mvt-encode.ts';
import { POINT } from './tile-feature.ts';

/**
 * Which features of an over-budget tile stay: `keep` of them, in their tile order. Points and the
 * other features give up the same share. Polygons and lines go smallest first (√area against
 * length, both world units; the earlier input first among equals). Points are thinned by a grid:
 * one point per cell (the earliest), the cells growing until few enough remain, so the densest
 * places lose the most and every place keeps some; the last step takes the earliest of the points
 * the next finer grid would keep, to land on `keep` exactly.
 */

export interface TileBudget {
  /** Largest gzip-compressed tile, bytes (default 500,000). */
  maxBytes?: number;
  /** Most features in one tile, all layers together (default 200,000). */
  maxFeatures?: number;
  /**
   * Over the byte cap, simplify harder before dropping features: the zoom's tolerance doubles
   * (from at least 1 tile unit) up to this many times its own (default 1: never). Only layers
   * that simplify at some zoom have the vertex ranks this needs.
   */
  coarsen?: number;
}

export const DEFAULT_BUDGET: Required<TileBudget> = { maxBytes: 500_000, maxFeatures: 200_000, coarsen: 1 };

export interface TilePosition {
  z: number;
  x: number;
  y: number;
}

export function selectWithinBudget(placed: readonly PlacedFeature[], keep: number, tile: TilePosition): PlacedFeature[] {
  if (placed.length <= keep) return [...placed];
  const points = placed.filter((p) => p.feature.type === POINT);
  const others = placed.filter((p) => p.feature.type !== POINT);
  const keepPoints = Math.round((keep * points.length) / placed.length);
  const kept = new Set<PlacedFeature>(thinPoints(points, keepPoints, tile));
  const largestFirst = [...others].sort((a, b) => b.feature.size - a.feature.size || a.feature.seq - b.feature.seq);
  for (const p of largestFirst.slice(0, keep - keepPoints)) kept.add(p);
  return placed.filter((p) => kept.has(p));
}

function thinPoints(points: PlacedFeature[], keep: number, { z, x, y }: TilePosition): PlacedFeature[] {
  if (points.length <= keep) return points;
  if (keep <= 0) return [];
  const scale = 2 ** z * TILE_EXTENT;
  const pixel = (v: number, origin: number) => Math.min(TILE_EXTENT - 1, Math.max(0, Math.floor(v * scale - origin * TILE_EXTENT)));
  const cells = points.map((p) => [pixel(p.feature.coords[0]!, x), pixel(p.feature.coords[1]!, y)] as const);
  const bySeq = (a: number, b: number) => points[a]!.feature.seq - points[b]!.feature.seq;
  let finer = points.map((_, i) => i);
  for (let level = 12; level >= 0; level -= 1) {
    const shift = 12 - level;
    const earliest = new Map<number, number>();
    for (const i of finer) {
      const [cx, cy] = cells[i]!;
      const key = (cx >> shift) * TILE_EXTENT + (cy >> shift);
      const held = earliest.get(key);
      if (held === undefined || bySeq(i, held) < 0) earliest.set(key, i);
    }
    const coarse = [...earliest.values()];
    if (coarse.length <= keep) {
      const inCoarse = new Set(coarse);
      const extra = finer.filter((i) => !inCoarse.has(i)).sort(bySeq).slice(0, keep - coarse.length);
      return [...coarse, ...extra].map((i) => points[i]!);
    }
    finer = coarse;
  }
  return [];
}

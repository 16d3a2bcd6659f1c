import type { CorpusPlace, PlaceLayer } from '../corpus.ts';

/**
 * Static prominence on one 0..1 scale across layers (log of the layer's own measure, relative
 * to the largest in the corpus): regions 1; localities 0.35..1 by population; streets and POIs
 * 0..0.6 by address count / category weight. Used for ranking and for the entity order.
 */
/** Every locality's importance is at least this (streets and POIs may be above or below). */
export const LOCALITY_IMPORTANCE_FLOOR = 0.35;

export function importanceScores(places: readonly CorpusPlace[]): Float32Array {
  const max: Record<PlaceLayer, number> = { region: 0, locality: 0, street: 0, poi: 0 };
  for (const p of places) {
    const v = positive(p.prominence);
    if (v > max[p.layer]) max[p.layer] = v;
  }
  const out = new Float32Array(places.length);
  for (let i = 0; i < places.length; i++) {
    const p = places[i]!;
    const rel = max[p.layer] > 0 ? Math.log1p(positive(p.prominence)) / Math.log1p(max[p.layer]) : 0.5;
    switch (p.layer) {
      case 'region': out[i] = 1; break;
      case 'locality': out[i] = LOCALITY_IMPORTANCE_FLOOR + (1 - LOCALITY_IMPORTANCE_FLOOR) * rel; break;
      default: out[i] = 0.6 * rel;
    }
  }
  return out;
}

function positive(v: number): number {
  return Number.isFinite(v) && v > 0 ? v : 0;
}

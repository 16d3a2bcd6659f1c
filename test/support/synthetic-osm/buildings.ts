/**
 * The buildings of one grid block: two rows of lots, one facing the street on each long side,
 * each lot a rectangle or an L (simple rings that never cross, and never reach a neighbour's lot)
 * tagged with its house number and street: odd numbers on one side of a street, even on the
 * other, in hundreds by block. Commercial and downtown blocks hold larger buildings and named POI
 * nodes inside them (and surface parking on their empty lots, an alley down some blocks); parks
 * (with a footpath) and schools replace a block's lots.
 */
import type { Random } from '../../../lib/seeded-random.ts';
import type { Emitter, Tags } from './emitter.ts';
import type { Names } from './names.ts';
import { poiTags } from './pois.ts';
import type { StreetGrid } from './streets.ts';
import type { TownPlan } from './towns.ts';

export type BlockUse = 'residential' | 'downtown' | 'commercial' | 'industrial' | 'park' | 'school';

interface LotStyle {
  lot: [number, number];
  setback: [number, number];
  depth: [number, number];
  empty: number;
  ell: number;
  poi: number;
}

const STYLES: Record<'residential' | 'downtown' | 'commercial' | 'industrial', LotStyle> = {
  residential: { lot: [12, 18], setback: [6, 10], depth: [9, 15], empty: 0.08, ell: 0.25, poi: 0.004 },
  downtown: { lot: [20, 30], setback: [4, 6], depth: [14, 24], empty: 0.05, ell: 0.2, poi: 0.35 },
  commercial: { lot: [22, 34], setback: [6, 12], depth: [12, 20], empty: 0.1, ell: 0.15, poi: 0.6 },
  industrial: { lot: [40, 60], setback: [10, 15], depth: [20, 30], empty: 0.15, ell: 0.3, poi: 0.02 },
};

const within = (random: Random, [lo, hi]: [number, number]) => lo + random() * (hi - lo);

function buildingTags(random: Random, t: TownPlan, use: keyof typeof STYLES, number: string, street: string): Tags {
  const tags: Tags = {};
  if (use === 'residential') tags.building = random.chance(0.8) ? 'house' : random.chance(0.6) ? 'yes' : 'detached';
  else if (use === 'downtown') tags.building = random.chance(0.6) ? 'apartments' : 'commercial';
  else if (use === 'commercial') tags.building = random.chance(0.6) ? 'commercial' : random.chance(0.5) ? 'retail' : 'yes';
  else tags.building = random.chance(0.5) ? 'industrial' : random.chance(0.5) ? 'warehouse' : 'yes';
  tags['addr:housenumber'] = number;
  tags['addr:street'] = street;
  if (random.chance(0.3)) tags['addr:city'] = t.name;
  if (use === 'downtown') {
    const levels = 3 + random.int(use === 'downtown' && t.place === 'city' ? 22 : 5);
    tags['building:levels'] = String(levels);
    if (random.chance(0.5)) tags.height = (levels * 3.2).toFixed(1);
  } else if (random.chance(0.3)) {
    tags['building:levels'] = String(1 + random.int(use === 'residential' ? 2 : 3));
    if (random.chance(0.3)) tags.height = (Number(tags['building:levels']) * 3.5).toFixed(1);
  }
  return tags;
}

/** One row of lots: `facing` 'low' fronts the street at the block's low v edge (row j), 'high' the one at j + 1. */
function lotRow(e: Emitter, t: TownPlan, random: Random, grid: StreetGrid, i: number, j: number, use: keyof typeof STYLES, facing: 'low' | 'high'): void {
  const style = STYLES[use];
  const u0 = i * t.blockW - (t.cols * t.blockW) / 2;
  const v0 = j * t.blockH - (t.rows * t.blockH) / 2;
  const street = facing === 'low' ? grid.rows[j]! : grid.rows[j + 1]!;
  const lot = within(random, style.lot);
  const setback = within(random, style.setback);
  const depth = Math.min(t.blockH / 2 - setback - 2, within(random, style.depth));
  if (depth < 5) return;
  const inset = 8;
  const lots = Math.floor((t.blockW - 2 * inset) / lot);
  const point = (a: number, b: number): number => {
    const u = u0 + a;
    const v = facing === 'low' ? v0 + setback + b : v0 + t.blockH - setback - b;
    return e.node(t.frame.lngOf(u, v), t.frame.latOf(u, v));
  };
  for (let k = 0; k < lots; k++) {
    if (random.chance(style.empty)) {
      // Shops and flats leave their empty lots to surface parking.
      if (use === 'commercial' || use === 'downtown') {
        e.ring([point(k * lot + inset + 1, 0), point((k + 1) * lot + inset - 1, 0), point((k + 1) * lot + inset - 1, depth), point(k * lot + inset + 1, depth)],
          { amenity: 'parking', parking: 'surface' });
      }
      continue;
    }
    const width = lot * (0.55 + 0.3 * random());
    const x0 = inset + k * lot + (lot - width) * random();
    const x1 = x0 + width;
    const d = depth * (0.7 + 0.3 * random());
    const number = String(100 * (i + 1) + 2 * k + (facing === 'low' ? 1 : 2));
    let ring: number[];
    if (random.chance(style.ell)) {
      const nw = width * (0.3 + 0.2 * random());
      const nd = d * (0.3 + 0.2 * random());
      ring = [point(x0, 0), point(x1, 0), point(x1, d - nd), point(x1 - nw, d - nd), point(x1 - nw, d), point(x0, d)];
    } else {
      ring = [point(x0, 0), point(x1, 0), point(x1, d), point(x0, d)];
    }
    e.ring(ring, buildingTags(random, t, use, number, street.name.label));
    if (random.chance(style.poi)) {
      const u = u0 + (x0 + x1) / 2;
      const v = facing === 'low' ? v0 + setback + 2 : v0 + t.blockH - setback - 2;
      e.node(t.frame.lngOf(u, v), t.frame.latOf(u, v), poiTags(random, t.province, street.name.name, street.name.label, number));
    }
  }
}

/** A park or a school filling the block, 6 m in from the street centre lines. */
function layGrounds(e: Emitter, t: TownPlan, random: Random, names: Names, grid: StreetGrid, i: number, j: number, use: 'park' | 'school'): void {
  const u0 = i * t.blockW - (t.cols * t.blockW) / 2;
  const v0 = j * t.blockH - (t.rows * t.blockH) / 2;
  const at = (a: number, b: number, tags?: Tags) => e.node(t.frame.lngOf(u0 + a, v0 + b), t.frame.latOf(u0 + a, v0 + b), tags);
  const m = 6;
  const outline = [at(m, m), at(t.blockW - m, m), at(t.blockW - m, t.blockH - m), at(m, t.blockH - m)];
  const word = names.word(random);
  if (use === 'park') {
    e.ring(outline, { leisure: 'park', name: t.province === 'QC' ? `Parc ${word}` : `${word} Park` });
    if (random.chance(0.5)) at(t.blockW / 2, t.blockH / 2, { leisure: 'playground' });
    e.way([at(m + 1, m + 1), at(t.blockW / 2, t.blockH / 2 + 4), at(t.blockW - m - 1, t.blockH - m - 1)], { highway: 'footway' });
    return;
  }
  e.ring(outline, { amenity: 'school', name: t.province === 'QC' ? `École ${word}` : `${word} Public School` });
  const [a0, a1, b0, b1] = [t.blockW * 0.3, t.blockW * 0.7, 15, Math.max(25, t.blockH * 0.55)];
  e.ring([at(a0, b0), at(a1, b0), at(a1, b1), at(a0, b1)], {
    building: 'school', 'addr:housenumber': String(100 * (i + 1) + 1), 'addr:street': grid.rows[j]!.name.label,
  });
}

export function layBlock(e: Emitter, t: TownPlan, random: Random, names: Names, grid: StreetGrid, i: number, j: number, use: BlockUse): void {
  if (use === 'park' || use === 'school') {
    layGrounds(e, t, random, names, grid, i, j, use);
    return;
  }
  lotRow(e, t, random, grid, i, j, use, 'low');
  lotRow(e, t, random, grid, i, j, use, 'high');
  if ((use === 'downtown' || use === 'commercial') && random.chance(0.4)) {
    // A back alley down the middle of the block, where the two rows of lots never reach.
    const u0 = i * t.blockW - (t.cols * t.blockW) / 2;
    const v = j * t.blockH - (t.rows * t.blockH) / 2 + t.blockH / 2;
    const ends = [u0 + 6, u0 + t.blockW - 6].map((u) => e.node(t.frame.lngOf(u, v), t.frame.latOf(u, v)));
    e.way(ends, { highway: 'service', service: 'alley' });
  }
}

/**
 * One town, all of it: its street grid (whose intersections are the town's first nodes), its
 * place node, what stands on each block (downtown at the centre, shops along the main streets,
 * an industrial corner, parks and schools here and there, houses elsewhere), a landuse ring per
 * 4 × 4 blocks, its countryside and its municipal boundary. Everything is drawn from the town's own seed, so the node
 * pass and the way pass lay exactly the same town.
 */
import { seededRandom, type Random } from '../../../lib/seeded-random.ts';
import { layBoundary } from './boundary.ts';
import { layBlock, type BlockUse } from './buildings.ts';
import { layCountryside } from './countryside.ts';
import type { Emitter, Tags } from './emitter.ts';
import type { Names } from './names.ts';
import { layStreets } from './streets.ts';
import type { TownPlan } from './towns.ts';

const SUPER = 4;

function superUses(random: Random, t: TownPlan): ('residential' | 'industrial')[][] {
  const sc = Math.ceil(t.cols / SUPER);
  const sr = Math.ceil(t.rows / SUPER);
  return Array.from({ length: sr }, (_, sj) =>
    Array.from({ length: sc }, (_, si) => {
      const edge = si === 0 || sj === 0 || si === sc - 1 || sj === sr - 1;
      const industrial = sc * sr >= 4 && ((si === 0 && sj === 0) || (edge && random.chance(0.12)));
      return industrial ? 'industrial' : 'residential';
    }));
}

function blockUse(random: Random, t: TownPlan, i: number, j: number, industrial: boolean): BlockUse {
  const im = t.cols >> 1;
  const jm = t.rows >> 1;
  const central = Math.hypot((i + 0.5 - t.cols / 2) / t.cols, (j + 0.5 - t.rows / 2) / t.rows) < 0.12;
  if (central && t.place !== 'village') return 'downtown';
  if (industrial) return 'industrial';
  if (random.chance(0.05)) return 'park';
  if (random.chance(0.012)) return 'school';
  return j === jm || j === jm - 1 || i === im || i === im - 1 ? 'commercial' : 'residential';
}

function landuseRing(e: Emitter, t: TownPlan, si: number, sj: number, landuse: string): void {
  const i0 = si * SUPER;
  const j0 = sj * SUPER;
  const i1 = Math.min(t.cols, i0 + SUPER);
  const j1 = Math.min(t.rows, j0 + SUPER);
  const corner = (i: number, j: number, du: number, dv: number) => {
    const u = i * t.blockW - (t.cols * t.blockW) / 2 + du;
    const v = j * t.blockH - (t.rows * t.blockH) / 2 + dv;
    return e.node(t.frame.lngOf(u, v), t.frame.latOf(u, v));
  };
  e.ring([corner(i0, j0, 4, 4), corner(i1, j0, -4, 4), corner(i1, j1, -4, -4), corner(i0, j1, 4, -4)], { landuse });
}

export function layTown(e: Emitter, t: TownPlan, names: Names): void {
  const random = seededRandom(t.seed);
  const grid = layStreets(e, t, random, names);
  const place: Tags = { place: t.place, name: t.name, population: String(t.population) };
  if (t.province === 'QC' || random.chance(0.2)) place['name:fr'] = t.name;
  e.node(t.lng, t.lat, place);
  e.node(t.frame.lngOf(t.blockW * 0.3, t.blockH * 0.3), t.frame.latOf(t.blockW * 0.3, t.blockH * 0.3), {
    tourism: 'information', information: 'office', name: t.province === 'QC' ? `Bureau d'accueil touristique de ${t.name}` : `${t.name} Visitor Centre`,
  });

  const supers = superUses(random, t);
  for (let j = 0; j < t.rows; j++) {
    for (let i = 0; i < t.cols; i++) {
      const industrial = supers[Math.floor(j / SUPER)]![Math.floor(i / SUPER)] === 'industrial';
      layBlock(e, t, random, names, grid, i, j, blockUse(random, t, i, j, industrial));
    }
  }
  supers.forEach((row, sj) => row.forEach((use, si) => landuseRing(e, t, si, sj, use)));
  layCountryside(e, t, random, names);
  layBoundary(e, t, random);
}

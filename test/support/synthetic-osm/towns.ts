/**
 * The plan of every town: Zipf-sized (one big city, a few towns, many villages), placed apart
 * over the region, each with its own sub-seed, name, place rank, population and street grid
 * (blocks across and up, block size, rotation). Plans are small and held for the whole run;
 * what stands in a town is generated from its plan and seed, twice (see emitter.ts).
 */
import { haversineMetres, METRES_PER_DEGREE } from '../../../lib/geo/haversine.ts';
import { seededRandom, type Random } from '../../../lib/seeded-random.ts';
import type { Names, Province } from './names.ts';
import { Frame, metresPerDegreeLng, subSeed, type Region } from './region.ts';

/** Nodes a grid block brings on average, its countryside share included (measured). */
export const NODES_PER_BLOCK = 55;
/** Share of the node target spent in towns (the rest: roads, railways and rivers between them). */
export const TOWN_SHARE = 0.94;
const MIN_BLOCKS = 9;
const SALT = 1;

export type Side = 'west' | 'east' | 'south' | 'north';

export interface TownPlan {
  index: number;
  seed: number;
  name: string;
  province: Province;
  place: 'city' | 'town' | 'village';
  population: number;
  lng: number;
  lat: number;
  /** Blocks along u (street rows run along u) and along v. */
  cols: number;
  rows: number;
  /** Block size along u and v, metres. */
  blockW: number;
  blockH: number;
  rotation: number;
  /** Centre to grid corner, and to the outer edge of its farms, forests and lakes, metres. */
  radius: number;
  reach: number;
  frame: Frame;
}

export const townCount = (targetNodes: number): number => Math.max(3, Math.min(3000, Math.round(targetNodes / 15_000)));

function zipfBudgets(total: number, count: number): number[] {
  let harmonic = 0;
  for (let i = 1; i <= count; i++) harmonic += 1 / i;
  return Array.from({ length: count }, (_, i) => total / ((i + 1) * harmonic));
}

/** Grid node offset (intersections come first in a town, row by row) and ground position of a town's gateway. */
export function gateway(t: TownPlan, side: Side): { offset: number; u: number; v: number } {
  const im = t.cols >> 1;
  const jm = t.rows >> 1;
  const [i, j] = side === 'west' ? [0, jm] : side === 'east' ? [t.cols, jm] : side === 'south' ? [im, 0] : [im, t.rows];
  return { offset: j * (t.cols + 1) + i, u: i * t.blockW - (t.cols * t.blockW) / 2, v: j * t.blockH - (t.rows * t.blockH) / 2 };
}

/** The side of town `t` that faces lng/lat. */
export function sideFacing(t: TownPlan, lng: number, lat: number): Side {
  const [u, v] = t.frame.toFrame(lng, lat);
  const w = (t.cols * t.blockW) / 2;
  const h = (t.rows * t.blockH) / 2;
  if (Math.abs(u) / w > Math.abs(v) / h) return u > 0 ? 'east' : 'west';
  return v > 0 ? 'north' : 'south';
}

function place(random: Random, region: Region, placed: readonly TownPlan[], reach: number): [number, number] {
  const marginLat = (reach + 2000) / METRES_PER_DEGREE;
  const marginLng = (reach + 2000) / metresPerDegreeLng(region.north);
  const spanLng = Math.max(0, region.east - region.west - 2 * marginLng);
  const spanLat = Math.max(0, region.north - region.south - 2 * marginLat);
  let spacing = 1;
  let best: [number, number] = [(region.west + region.east) / 2, (region.south + region.north) / 2];
  for (let attempt = 0; attempt < 600; attempt++) {
    if (attempt > 0 && attempt % 150 === 0) spacing *= 0.8;
    const lng = region.west + (region.east - region.west - spanLng) / 2 + random() * spanLng;
    const lat = region.south + (region.north - region.south - spanLat) / 2 + random() * spanLat;
    best = [lng, lat];
    if (placed.every((p) => haversineMetres(p.lng, p.lat, lng, lat) > spacing * (p.reach + reach))) return best;
  }
  return best;
}

export function planTowns(targetNodes: number, seed: number, region: Region, names: Names): TownPlan[] {
  const random = seededRandom(subSeed(seed, SALT, 0));
  const budgets = zipfBudgets(targetNodes * TOWN_SHARE, townCount(targetNodes));
  const towns: TownPlan[] = [];
  budgets.forEach((budget, index) => {
    const blocks = Math.max(MIN_BLOCKS, Math.round(budget / NODES_PER_BLOCK));
    const blockW = 120 + random() * 50;
    const blockH = 65 + random() * 25;
    const cols = Math.max(3, Math.round(Math.sqrt(((blocks * blockH) / blockW) * (0.7 + 0.6 * random()))));
    const rows = Math.max(3, Math.round(blocks / cols));
    const radius = 0.5 * Math.hypot(cols * blockW, rows * blockH);
    const reach = radius * 1.5 + 2500;
    const [lng, lat] = place(random, region, towns, reach);
    const province: Province = lng > region.quebecFrom ? 'QC' : 'ON';
    const rotation = (random() - 0.5) * 0.6;
    const population = Math.round(cols * rows * (30 + 20 * random()) * (index < 3 ? 1.6 : 1));
    towns.push({
      index, seed: subSeed(seed, SALT, index + 1), name: names.town(random, province), province,
      place: population >= 50_000 ? 'city' : population >= 5_000 ? 'town' : 'village', population,
      lng, lat, cols, rows, blockW, blockH, rotation, radius, reach, frame: new Frame(lng, lat, rotation),
    });
  });
  return towns;
}

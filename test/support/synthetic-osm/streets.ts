/**
 * A town's street grid: its intersections first (row by row, so gateway() in towns.ts knows
 * their ids), then the streets along u (with a slightly bent node mid-block) and along v, split
 * into ways of a few blocks like OSM's. Main streets are primary, every 4th line tertiary and in
 * cities every 8th secondary, the rest residential; some residential streets are one-way in
 * alternating directions; some carry name:fr.
 */
import type { Random } from '../../../lib/seeded-random.ts';
import type { StreetName } from '../geocoding/street-names.ts';
import type { Emitter, Tags } from './emitter.ts';
import type { Names } from './names.ts';
import type { TownPlan } from './towns.ts';

export type StreetClass = 'primary' | 'secondary' | 'tertiary' | 'residential';

export interface StreetLine {
  name: StreetName;
  cls: StreetClass;
}

export interface StreetGrid {
  /** Streets along u, one per row of intersections (rows + 1). */
  rows: StreetLine[];
  /** Streets along v (cols + 1). */
  cols: StreetLine[];
}

const BLOCKS_PER_WAY = 6;

function lineClass(k: number, main: number, city: boolean): StreetClass {
  const d = Math.abs(k - main);
  if (d === 0) return 'primary';
  if (city && d % 8 === 0) return 'secondary';
  return d % 4 === 0 ? 'tertiary' : 'residential';
}

function streetTags(random: Random, names: Names, t: TownPlan, line: StreetLine): Tags {
  const tags: Tags = { highway: line.cls, name: line.name.label };
  if (t.province === 'QC') {
    if (random.chance(0.25)) tags['name:fr'] = line.name.label;
  } else if (random.chance(0.2)) {
    const fr = names.frenchOf(line.name);
    if (fr) tags['name:fr'] = fr;
  }
  if (line.cls === 'primary' || line.cls === 'secondary') tags.maxspeed = '50';
  if (line.cls !== 'residential' && random.chance(0.3)) tags.lanes = line.cls === 'primary' ? '4' : '2';
  return tags;
}

/** Emits the grid's nodes and ways; returns the street of each grid line (addresses use them). */
export function layStreets(e: Emitter, t: TownPlan, random: Random, names: Names): StreetGrid {
  const city = t.cols * t.rows > 400;
  const used = new Set<string>();
  const line = (k: number, main: number): StreetLine => ({ name: names.street(random, t.province, used), cls: lineClass(k, main, city) });
  const grid: StreetGrid = {
    rows: Array.from({ length: t.rows + 1 }, (_, j) => line(j, t.rows >> 1)),
    cols: Array.from({ length: t.cols + 1 }, (_, i) => line(i, t.cols >> 1)),
  };
  const w = t.cols * t.blockW;
  const h = t.rows * t.blockH;
  const u = (i: number) => i * t.blockW - w / 2;
  const v = (j: number) => j * t.blockH - h / 2;

  let base = 0;
  for (let j = 0; j <= t.rows; j++) {
    for (let i = 0; i <= t.cols; i++) {
      const major = grid.rows[j]!.cls !== 'residential' && grid.cols[i]!.cls !== 'residential';
      const id = e.node(t.frame.lngOf(u(i), v(j)), t.frame.latOf(u(i), v(j)), major ? { highway: 'traffic_signals' } : undefined);
      if (i === 0 && j === 0) base = id;
    }
  }
  const at = (i: number, j: number) => base + j * (t.cols + 1) + i;

  const emitLine = (street: StreetLine, refs: number[], k: number) => {
    const tags = streetTags(random, names, t, street);
    const oneway = street.cls === 'residential' && random.chance(0.3);
    if (oneway) tags.oneway = 'yes';
    e.way(oneway && k % 2 === 1 ? refs.reverse() : refs, tags);
  };

  for (let j = 0; j <= t.rows; j++) {
    for (let start = 0; start < t.cols; start += BLOCKS_PER_WAY) {
      const end = Math.min(t.cols, start + BLOCKS_PER_WAY);
      const refs = [at(start, j)];
      for (let i = start; i < end; i++) {
        const mu = u(i) + t.blockW * (0.4 + 0.2 * random());
        const mv = v(j) + (random() - 0.5) * 3;
        refs.push(e.node(t.frame.lngOf(mu, mv), t.frame.latOf(mu, mv)), at(i + 1, j));
      }
      emitLine(grid.rows[j]!, refs, j);
    }
  }
  for (let i = 0; i <= t.cols; i++) {
    for (let start = 0; start < t.rows; start += BLOCKS_PER_WAY) {
      const refs: number[] = [];
      for (let j = start; j <= Math.min(t.rows, start + BLOCKS_PER_WAY); j++) refs.push(at(i, j));
      emitLine(grid.cols[i]!, refs, i);
    }
  }
  return grid;
}

/**
 * What lies around a town, between its grid and its reach: farmland and forest patches, lakes
 * (natural=water rings, the first of some towns a multipolygon with an island as its inner ring)
 * and meandering named streams. Patches are star-shaped rings (shapes.ts), hence simple; an
 * island's radius stays inside the lake's.
 */
import type { Random } from '../../../lib/seeded-random.ts';
import type { Emitter, Tags } from './emitter.ts';
import type { Names } from './names.ts';
import { starRing } from './shapes.ts';
import type { TownPlan } from './towns.ts';

function ringSpot(random: Random, t: TownPlan, margin: number): [number, number] {
  const inner = t.radius + 400 + margin;
  const outer = Math.max(inner + 100, t.reach - 600 - margin);
  const angle = random() * 2 * Math.PI;
  const d = inner + random() * (outer - inner);
  return [d * Math.cos(angle), d * Math.sin(angle)];
}

function lake(e: Emitter, t: TownPlan, random: Random, names: Names, withIsland: boolean): void {
  const r = 200 + random() * 500;
  const [cu, cv] = ringSpot(random, t, r * 1.25);
  const outer = starRing(e, t, random, cu, cv, r, 12 + random.int(20));
  const tags: Tags = { natural: 'water', water: 'lake' };
  if (withIsland || random.chance(0.7)) tags.name = names.water(random, t.province, 'lake');
  if (!withIsland) {
    e.ring(outer, tags);
    return;
  }
  const island = starRing(e, t, random, cu, cv, r * 0.3, 8 + random.int(6));
  const outerWay = e.ring(outer);
  const innerWay = e.ring(island);
  e.relation([{ type: 'way', ref: outerWay, role: 'outer' }, { type: 'way', ref: innerWay, role: 'inner' }], { type: 'multipolygon', ...tags });
}

function stream(e: Emitter, t: TownPlan, random: Random, names: Names): void {
  let [u, v] = ringSpot(random, t, 0);
  let heading = random() * 2 * Math.PI;
  const refs: number[] = [];
  const n = 15 + random.int(35);
  for (let k = 0; k < n; k++) {
    refs.push(e.node(t.frame.lngOf(u, v), t.frame.latOf(u, v)));
    heading += (random() - 0.5) * 0.7;
    const step = 70 + random() * 60;
    u += step * Math.cos(heading);
    v += step * Math.sin(heading);
  }
  const tags: Tags = { waterway: 'stream' };
  if (random.chance(0.4)) tags.name = names.water(random, t.province, 'creek');
  e.way(refs, tags);
}

export function layCountryside(e: Emitter, t: TownPlan, random: Random, names: Names): void {
  const blocks = t.cols * t.rows;
  const farms = 3 + Math.round(blocks / 20);
  for (let k = 0; k < farms; k++) {
    const r = 250 + random() * 450;
    const [cu, cv] = ringSpot(random, t, r);
    e.ring(starRing(e, t, random, cu, cv, r, 8 + random.int(9)), { landuse: 'farmland' });
  }
  const forests = 2 + Math.round(blocks / 40);
  for (let k = 0; k < forests; k++) {
    const r = 200 + random() * 600;
    const [cu, cv] = ringSpot(random, t, r);
    e.ring(starRing(e, t, random, cu, cv, r, 10 + random.int(16)), random.chance(0.7) ? { landuse: 'forest' } : { natural: 'wood' });
  }
  const lakes = 1 + Math.floor(blocks / 120);
  for (let k = 0; k < lakes; k++) lake(e, t, random, names, k === 0 && (t.index === 0 || random.chance(0.35)));
  const streams = 1 + Math.floor(blocks / 60);
  for (let k = 0; k < streams; k++) stream(e, t, random, names);
}

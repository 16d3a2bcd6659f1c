/**
 * A town's limits: a municipal boundary relation (admin_level 8) whose one outer way rings the
 * whole grid (its smallest radius stays beyond the grid's corners) inside the town's reach.
 */
import type { Random } from '../../../lib/seeded-random.ts';
import type { Emitter } from './emitter.ts';
import { starRing } from './shapes.ts';
import type { TownPlan } from './towns.ts';

export function layBoundary(e: Emitter, t: TownPlan, random: Random): void {
  const ring = starRing(e, t, random, 0, 0, t.radius * 1.15 + 800, 24 + random.int(16), 0.08);
  const way = e.ring(ring, { boundary: 'administrative', admin_level: '8' });
  const tags: Record<string, string> = { type: 'boundary', boundary: 'administrative', admin_level: '8', name: t.name };
  if (t.province === 'QC') tags['name:fr'] = t.name;
  e.relation([{ type: 'way', ref: way, role: 'outer' }], tags);
}

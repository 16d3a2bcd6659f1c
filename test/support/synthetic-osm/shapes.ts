/**
 * Star-shaped rings: vertex angles strictly increasing about a centre, so the ring is simple
 * whatever its radii; lakes, islands, farm and forest patches and town limits are drawn so.
 */
import type { Random } from '../../../lib/seeded-random.ts';
import type { Emitter } from './emitter.ts';
import type { TownPlan } from './towns.ts';

/** Node ids of a star-shaped ring of `n` vertices about (cu, cv) in the town's frame, radii within ±`jitter` of `r`. */
export function starRing(e: Emitter, t: TownPlan, random: Random, cu: number, cv: number, r: number, n: number, jitter = 0.25): number[] {
  const step = (2 * Math.PI) / n;
  const start = random() * step;
  const ids: number[] = [];
  for (let k = 0; k < n; k++) {
    const angle = start + k * step + (random() - 0.5) * 0.6 * step;
    const radius = r * (1 - jitter + 2 * jitter * random());
    const u = cu + radius * Math.cos(angle);
    const v = cv + radius * Math.sin(angle);
    ids.push(e.node(t.frame.lngOf(u, v), t.frame.latOf(u, v)));
  }
  return ids;
}

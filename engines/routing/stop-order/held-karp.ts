/**
 * Exact stop ordering by Held–Karp dynamic programming over the reduced tour (problem.ts): the
 * least cost of leaving the depot, visiting exactly the free nodes of `mask` and standing at
 * node j, for every mask and j; O(2^k · k²) time and O(2^k · k) memory for k free nodes, so it
 * serves up to EXACT_MAX_FREE of them (12: about 0.6 M steps). Asymmetric costs throughout; ties
 * keep the first found, so the answer is deterministic.
 */
import type { StopOrderProblem } from './problem.ts';

export const EXACT_MAX_FREE = 12;

/** The least-cost tour (tour[0] = 0, the depot) and its penalised cost. */
export function heldKarp(problem: StopOrderProblem): { tour: Int32Array; cost: number } {
  const { m, cost } = problem;
  const k = m - 1;
  if (k > EXACT_MAX_FREE + 4) throw new RangeError(`heldKarp: ${k} free stops is too many for the exact search`);
  if (k === 0) return { tour: Int32Array.of(0), cost: cost[0]! };
  const full = (1 << k) - 1;
  // best[mask * k + j]: free node j + 1 last, mask over free nodes 0..k-1 (node = bit + 1).
  const best = new Float64Array((full + 1) * k).fill(Infinity);
  const from = new Int8Array((full + 1) * k).fill(-1);
  for (let j = 0; j < k; j++) best[(1 << j) * k + j] = cost[j + 1]!;
  for (let mask = 1; mask <= full; mask++) {
    for (let j = 0; j < k; j++) {
      if ((mask & (1 << j)) === 0) continue;
      const here = best[mask * k + j]!;
      if (here === Infinity) continue;
      const row = (j + 1) * m;
      for (let next = 0; next < k; next++) {
        if (mask & (1 << next)) continue;
        const to = (mask | (1 << next)) * k + next;
        const c = here + cost[row + next + 1]!;
        if (c < best[to]!) {
          best[to] = c;
          from[to] = j;
        }
      }
    }
  }
  let last = -1;
  let total = Infinity;
  for (let j = 0; j < k; j++) {
    const c = best[full * k + j]! + cost[(j + 1) * m]!;
    if (c < total) {
      total = c;
      last = j;
    }
  }
  const tour = new Int32Array(m);
  let mask = full;
  for (let pos = k, j = last; pos >= 1; pos--) {
    tour[pos] = j + 1;
    const prev = from[mask * k + j]!;
    mask &= ~(1 << j);
    j = prev;
  }
  return { tour, cost: total };
}

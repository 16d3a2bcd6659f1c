/**
 * Single-vehicle stop ordering over any travel-time matrix (ours from the contraction hierarchy,
 * or another backend's): the order of visits that takes least time, with the start fixed at stop
 * 0 or free, and the end at the last stop, back at stop 0 (a round trip) or free.
 *
 * Exact (Held–Karp) when at most EXACT_MAX_FREE stops are free to move — so always up to 12
 * stops; above, the deterministic heuristic of heuristic.ts. Costs may be asymmetric.
 */
import { EXACT_MAX_FREE, heldKarp } from './held-karp.ts';
import { heuristicTour, type HeuristicOptions } from './heuristic.ts';
import { localSearch } from './local-search.ts';
import { checkInput, orderDuration, orderOf, reduce, tourOf, type StopEnds } from './problem.ts';

export type { EndRule, StartRule, StopEnds } from './problem.ts';

export interface StopOrder {
  /** Stop indices in visiting order; every stop once (a round trip does not repeat its start). */
  order: number[];
  /** Total duration of the order (a round trip's includes the way back to the start). */
  cost: number;
}

/**
 * The least-duration order of the stops.
 *
 * `durations[i][j]` is the time from stop i to stop j (any unit; the diagonal is ignored); a
 * non-finite value (Infinity, NaN) means j cannot be reached from i. Returns null when no order
 * avoids every unreachable pair — exactly so when the search is exact; above EXACT_MAX_FREE free
 * stops, when the heuristic found none. Throws RangeError on a matrix that is not square or
 * empty, and on `end: 'first'` with `start: 'any'` (a round trip needs a fixed start).
 * Deterministic: the same input gives the same order.
 */
export function orderStops(durations: readonly (readonly number[])[], ends: StopEnds, options: HeuristicOptions = {}): StopOrder | null {
  checkInput(durations, ends);
  const problem = reduce(durations, ends);
  const { tour } = problem.m - 1 <= EXACT_MAX_FREE ? heldKarp(problem) : heuristicTour(problem, options);
  return result(durations, ends, orderOf(problem, tour));
}

/**
 * A local optimum of the heuristic's moves from `order` (an order of every stop that keeps the
 * fixed ends): what the tests and the benchmark restart from random orders to measure the solver.
 */
export function improveOrder(durations: readonly (readonly number[])[], ends: StopEnds, order: readonly number[]): StopOrder | null {
  checkInput(durations, ends);
  const problem = reduce(durations, ends);
  const tour = localSearch(problem, tourOf(problem, order));
  return result(durations, ends, orderOf(problem, tour));
}

function result(durations: readonly (readonly number[])[], ends: StopEnds, order: number[]): StopOrder | null {
  const cost = orderDuration(durations, order, ends.end === 'first');
  return Number.isFinite(cost) ? { order, cost } : null;
}

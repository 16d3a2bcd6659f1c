/**
 * Stop ordering above the exact search's size: a deterministic multi-start iterated local search.
 * 1. Starts: nearest neighbour, cheapest insertion, and randomStartsFor(m) seeded random ones
 *    (half insert the nodes in a random order, half visit them in it), each taken to a local
 *    optimum (local-search.ts).
 * 2. From each start, kicksFor(m) ruin-and-recreate kicks: remove a node and its nearest others
 *    (by the round-trip cost between them), put them back one by one where each adds least, in a
 *    seeded random order, and search again; a tour no worse replaces the start's current one.
 * The best tour over all starts wins. Budgets are counts fixed by the size, never the clock, so
 * the same matrix always gives the same order (about 15–20 ms at 25 stops, 60–110 ms at 50).
 */
import { seededRandom } from '../../../lib/seeded-random.ts';
import { cheapestInsertion, insertInOrder, nearestNeighbour, shuffledNodes } from './construct.ts';
import { localSearch } from './local-search.ts';
import { tourCost, type StopOrderProblem } from './problem.ts';

const SEED = 0x5eed;

/** Random starts for a tour of m nodes: more where each is cheap (48 at 13 stops, 25 at 25, 16 from 40). */
export const randomStartsFor = (m: number): number => Math.max(16, Math.min(48, Math.ceil(640 / m)));

/** Kicks after each start: one per two nodes. */
export const kicksFor = (m: number): number => Math.ceil(m / 2);

/** How many nodes a kick removes: about a fifth of them, 3 to 10. */
const ruinSize = (m: number) => Math.max(3, Math.min(10, Math.round((m - 1) / 5)));

export interface HeuristicOptions {
  /** Kicks after the starts (kicksFor(m) when absent). */
  kicks?: number;
  seed?: number;
}

/** Nodes 1..m-1 by the round-trip cost to each node, nearest first (ties by index). */
function neighbourLists(problem: StopOrderProblem): Int32Array[] {
  const { m, cost } = problem;
  const lists: Int32Array[] = [new Int32Array(0)];
  for (let x = 1; x < m; x++) {
    const others = Array.from({ length: m - 2 }, (_, k) => (k + 1 < x ? k + 1 : k + 2));
    const around = (y: number) => cost[x * m + y]! + cost[y * m + x]!;
    others.sort((y, z) => around(y) - around(z) || y - z);
    lists.push(Int32Array.from(others));
  }
  return lists;
}

function ruinAndRecreate(problem: StopOrderProblem, tour: Int32Array, neighbours: Int32Array[], random: () => number): Int32Array {
  const m = problem.m;
  const size = Math.min(ruinSize(m), m - 1);
  const centre = 1 + Math.floor(random() * (m - 1));
  const removed = new Set<number>([centre]);
  // The centre's nearest, skipping some at random so repeated kicks around one node differ.
  for (const y of neighbours[centre]!) {
    if (removed.size >= size) break;
    if (random() < 0.8) removed.add(y);
  }
  const kept = Array.from(tour).filter((x) => !removed.has(x));
  const order = [...removed];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return insertInOrder(problem, order, kept);
}

/** Kicks from one local optimum, each kept when no worse; the best tour seen. */
function iterate(problem: StopOrderProblem, start: Int32Array, startCost: number, kicks: number, neighbours: Int32Array[], random: () => number): { tour: Int32Array; cost: number } {
  let best = start;
  let bestCost = startCost;
  for (let k = 0; k < kicks; k++) {
    const tour = localSearch(problem, ruinAndRecreate(problem, best, neighbours, random));
    const c = tourCost(problem, tour);
    if (c <= bestCost) [best, bestCost] = [tour, c];
  }
  return { tour: best, cost: bestCost };
}

/** A good tour (tour[0] = 0) and its penalised cost; deterministic for a given problem and options. */
export function heuristicTour(problem: StopOrderProblem, options: HeuristicOptions = {}): { tour: Int32Array; cost: number } {
  const m = problem.m;
  const random = seededRandom(options.seed ?? SEED);
  const starts = [nearestNeighbour(problem), cheapestInsertion(problem)];
  // Half of them insert the nodes in a random order, half visit them in it: different basins.
  for (let r = 0; r < randomStartsFor(m); r++) {
    const nodes = shuffledNodes(m, random);
    starts.push(r % 2 === 0 ? insertInOrder(problem, nodes) : Int32Array.from([0, ...nodes]));
  }
  const neighbours = neighbourLists(problem);
  const kicks = options.kicks ?? kicksFor(m);
  let best = { tour: starts[0]!, cost: Infinity };
  for (const start of starts) {
    const tour = localSearch(problem, start);
    const found = m < 4 ? { tour, cost: tourCost(problem, tour) } : iterate(problem, tour, tourCost(problem, tour), kicks, neighbours, random);
    if (found.cost < best.cost - 1e-7) best = found;
  }
  return best;
}

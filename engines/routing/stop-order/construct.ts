/**
 * First tours for the heuristic (problem.ts's reduced form: node 0 is the depot, tour[0] = 0):
 * nearest neighbour, cheapest insertion, and insertion of the nodes in a given order, each at the
 * place where it adds least (the same insertion repairs a tour in the ruin-and-recreate kick).
 */
import type { StopOrderProblem } from './problem.ts';

/** From the depot, always on to the nearest node not yet visited (first of equals). */
export function nearestNeighbour(problem: StopOrderProblem): Int32Array {
  const { m, cost } = problem;
  const tour = new Int32Array(m);
  const seen = new Uint8Array(m);
  seen[0] = 1;
  for (let pos = 1, at = 0; pos < m; pos++) {
    let next = -1;
    let best = Infinity;
    for (let x = 1; x < m; x++) {
      if (!seen[x] && cost[at * m + x]! < best) {
        best = cost[at * m + x]!;
        next = x;
      }
    }
    tour[pos] = next;
    seen[next] = 1;
    at = next;
  }
  return tour;
}

/** What putting node x between tour[i] and tour[i + 1] (the depot after the last) adds. */
function insertionCost(cost: Float64Array, m: number, tour: readonly number[], i: number, x: number): number {
  const a = tour[i]!;
  const b = tour[(i + 1) % tour.length]!;
  return cost[a * m + x]! + cost[x * m + b]! - cost[a * m + b]!;
}

/** Puts x where it adds least (first of equals). */
export function insertCheapest(problem: StopOrderProblem, tour: number[], x: number): void {
  let at = 0;
  let best = Infinity;
  for (let i = 0; i < tour.length; i++) {
    const c = insertionCost(problem.cost, problem.m, tour, i, x);
    if (c < best) {
      best = c;
      at = i;
    }
  }
  tour.splice(at + 1, 0, x);
}

/** Inserts the nodes in the order given, each where it adds least, into `tour` (the depot alone when absent). */
export function insertInOrder(problem: StopOrderProblem, nodes: readonly number[], tour: number[] = [0]): Int32Array {
  for (const x of nodes) insertCheapest(problem, tour, x);
  return Int32Array.from(tour);
}

/**
 * Cheapest insertion: repeatedly the node and place that add least over every node left
 * (O(m³), at most ~130,000 steps for 50 stops).
 */
export function cheapestInsertion(problem: StopOrderProblem): Int32Array {
  const { m, cost } = problem;
  const tour = [0];
  const left = new Set<number>();
  for (let x = 1; x < m; x++) left.add(x);
  while (left.size > 0) {
    let bestNode = -1;
    let bestAt = 0;
    let best = Infinity;
    for (const x of left) {
      for (let i = 0; i < tour.length; i++) {
        const c = insertionCost(cost, m, tour, i, x);
        if (c < best) {
          best = c;
          bestNode = x;
          bestAt = i;
        }
      }
    }
    tour.splice(bestAt + 1, 0, bestNode);
    left.delete(bestNode);
  }
  return Int32Array.from(tour);
}

/** The free nodes 1..m-1 shuffled (Fisher–Yates). */
export function shuffledNodes(m: number, random: () => number): number[] {
  const nodes = Array.from({ length: m - 1 }, (_, i) => i + 1);
  for (let i = nodes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [nodes[i], nodes[j]] = [nodes[j]!, nodes[i]!];
  }
  return nodes;
}

/**
 * Stop ordering as one problem: whatever the requested ends, the stops left free to move form an
 * asymmetric travelling-salesman tour through a depot (node 0) that stands for the fixed ends.
 *
 * With `start` "first" the depot leaves from stop 0; with `end` "last" it is reached at the last
 * stop, with "first" back at stop 0 (a round trip), with "any" anywhere. So the depot's row is the
 * fixed start's row (or 0 when the start is free) and its column the fixed end's column (or 0):
 *
 *   C[0][x] = d[head][x] or 0,  C[x][0] = d[x][tail] or 0,  C[x][y] = d[x][y]
 *
 * and a tour 0 → x1 → … → xk → 0 costs exactly the route head → x1 → … → xk → tail. Pairs with no
 * route (non-finite durations) cost PENALTY, more than any tour without one, so minimising the
 * penalised cost minimises first the unreachable pairs used and then the duration.
 */

export type StartRule = 'first' | 'any';
export type EndRule = 'last' | 'first' | 'any';

export interface StopEnds {
  start: StartRule;
  end: EndRule;
}

export interface StopOrderProblem {
  /** Nodes of the tour: the depot (0) and the free stops (1..m-1). */
  readonly m: number;
  /** Row-major m×m, penalised. */
  readonly cost: Float64Array;
  /** The stop index of each node 1..m-1 (slot 0 unused: -1). */
  readonly stopOf: Int32Array;
  /** Fixed first and last stop, or -1. A round trip has tail === head. */
  readonly head: number;
  readonly tail: number;
  /** What one unreachable pair costs in `cost`. */
  readonly penalty: number;
}

/** Checks the matrix is square with at least one stop, and the ends are a valid combination (RangeError otherwise). */
export function checkInput(durations: readonly (readonly number[])[], ends: StopEnds): void {
  const n = durations.length;
  if (n === 0) throw new RangeError('orderStops: at least one stop');
  if (durations.some((row) => row.length !== n)) throw new RangeError('orderStops: the durations must be a square matrix');
  if (ends.start !== 'first' && ends.start !== 'any') throw new RangeError(`orderStops: start must be first or any, not ${String(ends.start)}`);
  if (ends.end !== 'last' && ends.end !== 'first' && ends.end !== 'any') throw new RangeError(`orderStops: end must be last, first or any, not ${String(ends.end)}`);
  if (ends.end === 'first' && ends.start === 'any') throw new RangeError('orderStops: a round trip (end first) needs start first');
}

export function reduce(durations: readonly (readonly number[])[], ends: StopEnds): StopOrderProblem {
  const n = durations.length;
  const head = ends.start === 'first' ? 0 : -1;
  // A single stop with start first and end last is its own start: nothing left to end at.
  const tail = ends.end === 'first' ? 0 : ends.end === 'last' && (n > 1 || head < 0) ? n - 1 : -1;
  const free: number[] = [];
  for (let s = 0; s < n; s++) if (s !== head && s !== tail) free.push(s);
  const m = free.length + 1;
  const stopOf = Int32Array.from([-1, ...free]);
  const raw = (from: number, to: number): number => {
    const a = from === 0 ? head : stopOf[from]!;
    const b = to === 0 ? tail : stopOf[to]!;
    return a < 0 || b < 0 ? 0 : durations[a]![b]!;
  };
  let largest = 0;
  const cost = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      const v = raw(i, j);
      cost[i * m + j] = v;
      if (Number.isFinite(v)) largest = Math.max(largest, Math.abs(v));
    }
  }
  // m edges per tour: a tour with one penalty costs more than any tour with none.
  const penalty = (largest + 1) * (m + 1) * 2;
  for (let i = 0; i < cost.length; i++) if (!Number.isFinite(cost[i]!)) cost[i] = penalty;
  return { m, cost, stopOf, head, tail, penalty };
}

/** The penalised cost of a tour (tour[0] = 0, the depot; it closes back to it). */
export function tourCost(problem: StopOrderProblem, tour: ArrayLike<number>): number {
  const { m, cost } = problem;
  let sum = 0;
  for (let i = 0; i < tour.length; i++) sum += cost[tour[i]! * m + tour[(i + 1) % tour.length]!]!;
  return sum;
}

/** The stops in visiting order for a tour; a round trip does not repeat its start. */
export function orderOf(problem: StopOrderProblem, tour: ArrayLike<number>): number[] {
  const order: number[] = [];
  if (problem.head >= 0) order.push(problem.head);
  for (let i = 1; i < tour.length; i++) order.push(problem.stopOf[tour[i]!]!);
  if (problem.tail >= 0 && problem.tail !== problem.head) order.push(problem.tail);
  return order;
}

/** The tour of an order of every stop that keeps the problem's fixed ends (an Error when it does not). */
export function tourOf(problem: StopOrderProblem, order: readonly number[]): Int32Array {
  const nodeOf = new Map<number, number>();
  problem.stopOf.forEach((stop, node) => {
    if (node > 0) nodeOf.set(stop, node);
  });
  const inner = order.filter((s) => s !== problem.head && s !== problem.tail);
  if (inner.length !== problem.m - 1 || (problem.head >= 0 && order[0] !== problem.head)) throw new Error('order does not fit the ends');
  if (problem.tail >= 0 && problem.tail !== problem.head && order[order.length - 1] !== problem.tail) throw new Error('order does not fit the ends');
  return Int32Array.from([0, ...inner.map((s) => nodeOf.get(s)!)]);
}

/** The true duration of visiting `order` (Infinity when a pair on it has no route). */
export function orderDuration(durations: readonly (readonly number[])[], order: readonly number[], roundTrip: boolean): number {
  let sum = 0;
  for (let i = 0; i + 1 < order.length; i++) sum += durations[order[i]!]![order[i + 1]!]!;
  if (roundTrip && order.length > 1) sum += durations[order[order.length - 1]!]![order[0]!]!;
  return Number.isFinite(sum) ? sum : Infinity;
}

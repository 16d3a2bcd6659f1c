/** Binary searches over ascending number arrays (typed or not). */

/** Smallest k in [from, to) with sorted[k] ≥ value, or `to`. */
export function lowerBound(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (sorted[mid]! < value) from = mid + 1;
    else to = mid;
  }
  return from;
}

/** Smallest k in [from, to) with sorted[k] > value, or `to`. */
export function upperBound(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (sorted[mid]! <= value) from = mid + 1;
    else to = mid;
  }
  return from;
}

/** Whether an ascending array holds `value`. */
export function sortedHas(sorted: ArrayLike<number>, value: number): boolean {
  const i = lowerBound(sorted, value);
  return i < sorted.length && sorted[i] === value;
}

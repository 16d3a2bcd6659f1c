/** Smallest k in [from, to) with ids[k] >= value, or `to` (ids ascending). */
export function lowerBoundU32(ids: Uint32Array, from: number, to: number, value: number): number {
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (ids[mid]! < value) from = mid + 1;
    else to = mid;
  }
  return from;
}

/**
 * Douglas-Peucker ranks, as geojson-vt computes them once per line or ring: each vertex gets the
 * squared distance (world units) at which the simplification keeps it; a tile at tolerance t keeps
 * the vertices ranked above t². The ends rank 1 (always kept). `coords` holds x, y, rank per
 * vertex; first and last are vertex offsets (multiples of 3).
 *
 * Every vertex is ranked (geojson-vt stops at the finest tolerance it will use): Douglas-Peucker
 * is not monotone, a vertex can rank up to about twice its segment's maximum, so a threshold
 * would change what coarser zooms keep whenever a finer zoom's tolerance changed.
 */
export function rankVertices(coords: Float64Array, first: number, last: number): void {
  const sqTolerance = 0;
  coords[first + 2] = 1;
  coords[last + 2] = 1;
  const stack = [first, last];
  while (stack.length) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    rankSegment(coords, a, b, sqTolerance, stack);
  }
}

function rankSegment(coords: Float64Array, first: number, last: number, sqTolerance: number, stack: number[]): void {
  let maxSqDist = sqTolerance;
  const mid = first + ((last - first) >> 1);
  let minPosToMid = last - first;
  let index = -1;
  const ax = coords[first]!;
  const ay = coords[first + 1]!;
  const bx = coords[last]!;
  const by = coords[last + 1]!;
  for (let i = first + 3; i < last; i += 3) {
    const d = sqSegmentDistance(coords[i]!, coords[i + 1]!, ax, ay, bx, by);
    if (d > maxSqDist) {
      index = i;
      maxSqDist = d;
    } else if (d === maxSqDist) {
      // Prefer a pivot near the middle, so degenerate input does not recurse one vertex at a time.
      const posToMid = Math.abs(i - mid);
      if (posToMid < minPosToMid) {
        index = i;
        minPosToMid = posToMid;
      }
    }
  }
  if (index >= 0 && maxSqDist > sqTolerance) {
    coords[index + 2] = maxSqDist;
    if (index - first > 3) stack.push(first, index);
    if (last - index > 3) stack.push(index, last);
  }
}

function sqSegmentDistance(px: number, py: number, x: number, y: number, bx: number, by: number): number {
  let dx = bx - x;
  let dy = by - y;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = bx;
      y = by;
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = px - x;
  dy = py - y;
  return dx * dx + dy * dy;
}

/**
 * Isolines of a regular grid by marching squares. Grid node (col, row) sits at x = col, y = row
 * (y down); NaN marks a node without a value, and a cell with one such corner draws nothing, so
 * lines end at the edge of the data. A node counts as above a level when its value is ≥ the level.
 * Every line runs with the higher ground on its right (north up, y down); a closed ring repeats
 * its first point at the end.
 */

export interface Grid {
  width: number;
  height: number;
  /** width × height values, row by row from row 0. */
  values: Float64Array;
}

export type Line = [number, number][];

/** Cell edges: top, right, bottom, left; corners: top-left, top-right, bottom-right, bottom-left. */
type Edge = 0 | 1 | 2 | 3;
const EDGE_CORNERS: readonly (readonly [number, number])[] = [[0, 1], [1, 2], [2, 3], [3, 0]];
const CORNER_XY: readonly (readonly [number, number])[] = [[0, 0], [1, 0], [1, 1], [0, 1]];
const EDGE_MIDPOINT: readonly (readonly [number, number])[] = [[0.5, 0], [1, 0.5], [0.5, 1], [0, 0.5]];

/**
 * The oriented segments [from edge, to edge] of a cell, by corner states (bit 3 top-left … bit 0
 * bottom-left) and, for the two saddles, whether the cell's centre is above.
 */
const SEGMENTS: readonly (readonly (readonly [Edge, Edge])[])[][] = Array.from({ length: 16 }, (_, state) =>
  [false, true].map((centreAbove) => cellSegments(state, centreAbove)),
);

function cornerAbove(state: number, corner: number): boolean {
  return ((state >> (3 - corner)) & 1) === 1;
}

function cellSegments(state: number, centreAbove: boolean): [Edge, Edge][] {
  const crossing = ([0, 1, 2, 3] as const).filter((e) => {
    const [a, b] = EDGE_CORNERS[e]!;
    return cornerAbove(state, a!) !== cornerAbove(state, b!);
  });
  let pairs: [Edge, Edge][];
  if (crossing.length === 0) return [];
  if (crossing.length === 2) pairs = [[crossing[0]!, crossing[1]!]];
  else {
    // a saddle: cut off the two corners on the other side from the centre
    pairs = [];
    for (let corner = 0; corner < 4; corner++) {
      if (cornerAbove(state, corner) === centreAbove) continue;
      pairs.push([((corner + 3) % 4) as Edge, corner as Edge]);
    }
  }
  return pairs.map(([a, b]) => orient(state, a, b));
}

/** Orders a segment so the above side is on its right: cross product > 0 with y down. */
function orient(state: number, a: Edge, b: Edge): [Edge, Edge] {
  const [ax, ay] = EDGE_MIDPOINT[a]!;
  const [bx, by] = EDGE_MIDPOINT[b]!;
  // The corner a segment cuts off is alone on its side; a segment across the cell (never in a
  // saddle) has uniform sides, so any corner decides there.
  const corner = (a + 1) % 4 === b ? b : (b + 1) % 4 === a ? a : 0;
  const [cx, cy] = CORNER_XY[corner]!;
  const cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return (cross > 0) === cornerAbove(state, corner) ? [a, b] : [b, a];
}

/** The lines of one level. */
export function isolines(grid: Grid, level: number): Line[] {
  const { width, height, values } = grid;
  if (values.length !== width * height) throw new Error(`a ${width}×${height} grid needs ${width * height} values, not ${values.length}`);
  // crossings are named by the grid edge they lie on: 2 × node index, + 1 for the edge going down
  const next = new Map<number, number>();
  const points = new Map<number, [number, number]>();
  const edgeId = (col: number, row: number, edge: Edge): number => {
    if (edge === 0) return 2 * (row * width + col);
    if (edge === 2) return 2 * ((row + 1) * width + col);
    if (edge === 3) return 2 * (row * width + col) + 1;
    return 2 * (row * width + col + 1) + 1;
  };
  const crossing = (id: number): [number, number] => {
    const known = points.get(id);
    if (known) return known;
    const node = id >> 1;
    const col = node % width;
    const row = (node - col) / width;
    const a = values[node]!;
    const down = (id & 1) === 1;
    const b = values[down ? node + width : node + 1]!;
    const t = (level - a) / (b - a);
    const point: [number, number] = down ? [col, row + t] : [col + t, row];
    points.set(id, point);
    return point;
  };
  for (let row = 0; row + 1 < height; row++) {
    for (let col = 0; col + 1 < width; col++) {
      const i = row * width + col;
      const tl = values[i]!;
      const tr = values[i + 1]!;
      const br = values[i + width + 1]!;
      const bl = values[i + width]!;
      if (Number.isNaN(tl) || Number.isNaN(tr) || Number.isNaN(br) || Number.isNaN(bl)) continue;
      const state = (tl >= level ? 8 : 0) | (tr >= level ? 4 : 0) | (br >= level ? 2 : 0) | (bl >= level ? 1 : 0);
      if (state === 0 || state === 15) continue;
      const centreAbove = (tl + tr + br + bl) / 4 >= level;
      for (const [from, to] of SEGMENTS[state]![centreAbove ? 1 : 0]!) next.set(edgeId(col, row, from), edgeId(col, row, to));
    }
  }
  return chain(next, crossing);
}

/** Joins oriented segments (from → to crossing) into lines: open ones first, then rings. */
function chain(next: Map<number, number>, point: (id: number) => [number, number]): Line[] {
  const ends = new Set(next.values());
  const lines: Line[] = [];
  const walk = (start: number) => {
    const line: Line = [point(start)];
    let at = start;
    for (let to = next.get(at); to !== undefined; to = next.get(at)) {
      next.delete(at);
      // a node exactly on the level is the crossing of both its edges: one vertex, not two
      const p = point(to);
      const last = line[line.length - 1]!;
      if (p[0] !== last[0] || p[1] !== last[1]) line.push(p);
      at = to;
      if (at === start) break;
    }
    if (line.length > 1) lines.push(line);
  };
  for (const start of [...next.keys()]) if (!ends.has(start)) walk(start);
  for (const start of [...next.keys()]) if (next.has(start)) walk(start);
  return lines;
}

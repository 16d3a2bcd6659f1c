/**
 * Land polygons inside an extract's box from OSM coastlines (natural=coastline: land on the
 * left), as osmcoastline does for the planet: coastline ways are joined into chains; a closed
 * chain inside the box is an island; open chains are cut to the box, and each land ring runs
 * along a coast piece, then counterclockwise along the box's edge to the next piece. A clipped
 * extract drops the nodes beyond its edge, so a chain may stop just short of the edge: an end
 * within SNAP_DEGREES of the edge is moved onto it. A chain that ends further inside means the
 * coast is incomplete, and the caller keeps its coarser land.
 */
import type { Box } from '../../lib/geo/clip-box.ts';
import { polygonContains, ringArea } from '../../lib/geo/planar.ts';

type Point = [number, number];

/** How far short of the box's edge a coast may stop and still be taken to reach it. */
export const SNAP_DEGREES = 0.01;

export type CoastLand = { ok: true; polygons: Point[][][] } | { ok: false; reason: string };

const key = (p: Point) => `${p[0]},${p[1]}`;
const same = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1];

/** Coastline ways joined end to start into chains. */
export function joinChains(lines: readonly Point[][]): Point[][] {
  const byStart = new Map<string, number[]>();
  lines.forEach((l, i) => byStart.set(key(l[0]!), [...(byStart.get(key(l[0]!)) ?? []), i]));
  const used = new Set<number>();
  const take = (p: Point) => {
    const i = byStart.get(key(p))?.find((j) => !used.has(j));
    if (i !== undefined) used.add(i);
    return i;
  };
  const chains: Point[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (used.has(i)) continue;
    used.add(i);
    const chain = [...lines[i]!];
    for (let next = take(chain.at(-1)!); next !== undefined && !same(chain[0]!, chain.at(-1)!); next = take(chain.at(-1)!)) chain.push(...lines[next]!.slice(1));
    chains.push(chain);
  }
  // A chain that ends where another starts was begun in its middle: join the pieces again.
  for (let merged = true; merged;) {
    merged = false;
    for (const a of chains) {
      const b = chains.find((c) => c !== a && !same(a[0]!, a.at(-1)!) && same(c[0]!, a.at(-1)!));
      if (b) {
        a.push(...b.slice(1));
        chains.splice(chains.indexOf(b), 1);
        merged = true;
        break;
      }
    }
  }
  return chains;
}

const inside = ([x, y]: Point, [w, s, e, n]: Box) => x >= w && x <= e && y >= s && y <= n;

/** The part of segment a→b inside the box as fractions [enter, leave] along it (Liang–Barsky), or null. */
function clipSegment(a: Point, b: Point, [w, s, e, n]: Box): [number, number] | null {
  let [t0, t1] = [0, 1];
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  for (const [p, q] of [[-dx, a[0] - w], [dx, e - a[0]], [-dy, a[1] - s], [dy, n - a[1]]] as const) {
    if (p === 0) {
      if (q < 0) return null;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
    }
  }
  return t0 <= t1 ? [t0, t1] : null;
}

const along = (a: Point, b: Point, t: number): Point => (t === 0 ? a : t === 1 ? b : [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);

/** The parts of a chain inside the box; a part that leaves it ends on its edge, one that enters begins there. */
function clipChain(chain: readonly Point[], box: Box): Point[][] {
  const parts: Point[][] = [];
  let part: Point[] | null = null;
  for (let i = 1; i < chain.length; i++) {
    const [a, b] = [chain[i - 1]!, chain[i]!];
    const cut = clipSegment(a, b, box);
    if (!cut) continue;
    if (!part || cut[0] > 0) {
      if (part) parts.push(part);
      part = [along(a, b, cut[0])];
    }
    part.push(along(a, b, cut[1]));
    if (cut[1] < 1) {
      parts.push(part);
      part = null;
    }
  }
  if (part) parts.push(part);
  return parts.filter((p) => p.length >= 2);
}

/** Position along the box's edge, counterclockwise from its south-west corner; null when off the edge by more than SNAP. */
function edgePosition(p: Point, [w, s, e, n]: Box): { t: number; at: Point } | null {
  const [W, H] = [e - w, n - s];
  const candidates: [number, number, Point][] = [
    [Math.abs(p[1] - s), p[0] - w, [p[0], s]],
    [Math.abs(p[0] - e), W + (p[1] - s), [e, p[1]]],
    [Math.abs(p[1] - n), W + H + (e - p[0]), [p[0], n]],
    [Math.abs(p[0] - w), 2 * W + H + (n - p[1]), [w, p[1]]],
  ];
  const [distance, t, at] = candidates.sort((a, b) => a[0] - b[0])[0]!;
  return distance <= SNAP_DEGREES ? { t, at } : null;
}

export function coastLand(coastlines: readonly Point[][], box: Box): CoastLand {
  const [w, s, e, n] = box;
  const perimeter = 2 * (e - w + (n - s));
  const corners: { t: number; at: Point }[] = [
    { t: e - w, at: [e, s] }, { t: e - w + (n - s), at: [e, n] }, { t: 2 * (e - w) + (n - s), at: [w, n] }, { t: 0, at: [w, s] },
  ];
  const islands: Point[][] = [];
  const pieces: { coords: Point[]; start: number; end: number }[] = [];
  for (const chain of joinChains(coastlines)) {
    if (same(chain[0]!, chain.at(-1)!) && chain.every((p) => inside(p, box))) {
      islands.push(chain);
      continue;
    }
    for (const coords of clipChain(chain, box)) {
      const start = edgePosition(coords[0]!, box);
      const end = edgePosition(coords.at(-1)!, box);
      if (!start || !end) return { ok: false, reason: `a coastline stops inside the box at ${(start ? coords.at(-1)! : coords[0]!).join(',')}` };
      pieces.push({ coords: [start.at, ...coords.slice(1, -1), end.at], start: start.t, end: end.t });
    }
  }
  if (pieces.length === 0 && islands.length === 0) return { ok: false, reason: 'no coastline in the box' };

  const rings: Point[][] = [];
  const used = new Set<number>();
  for (let first = 0; first < pieces.length; first++) {
    if (used.has(first)) continue;
    const ring: Point[] = [];
    for (let current = first; ;) {
      used.add(current);
      ring.push(...pieces[current]!.coords);
      const from = pieces[current]!.end;
      const ahead = (t: number) => (t - from + perimeter) % perimeter;
      let next = -1;
      pieces.forEach((p, i) => {
        if ((i === first || !used.has(i)) && (next < 0 || ahead(p.start) < ahead(pieces[next]!.start))) next = i;
      });
      for (const c of corners.filter((c) => ahead(c.t) > 0 && ahead(c.t) < ahead(pieces[next]!.start)).sort((a, b) => ahead(a.t) - ahead(b.t))) ring.push(c.at);
      if (next === first) break;
      current = next;
    }
    ring.push(ring[0]!);
    rings.push(ring);
  }
  // Closed clockwise coasts (water inside land) are holes of the ring around them; counterclockwise ones are islands.
  const flat = (r: Point[]) => new Float64Array(r.flat());
  const polygons: Point[][][] = rings.map((r) => [r]);
  for (const island of islands) {
    if (ringArea(flat(island)) > 0) polygons.push([island]);
    else polygons.find((p) => polygonContains([flat(p[0]!)], island[0]![0], island[0]![1]))?.push(island);
  }
  return { ok: true, polygons };
}

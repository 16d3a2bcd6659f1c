/**
 * A multipolygon or boundary relation's member ways → a GeoJSON Polygon or MultiPolygon.
 * Rings are joined on node ids (ring-join.ts); whether a ring is outer or inner is decided by
 * containment (a ring inside an odd number of rings is an inner), so missing or wrong roles do
 * not matter: roles that disagree are only counted. Each inner goes to the smallest outer that
 * contains it; rings are oriented per RFC 7946 (outer counter-clockwise, holes clockwise).
 * Rings are assumed not to cross each other (they may touch at nodes); self-intersections are
 * not checked.
 */
import { joinRings, type MemberWay, type Position, type JoinedRing } from './ring-join.ts';

export type { MemberWay, Position } from './ring-join.ts';

export interface PolygonGeometry {
  type: 'Polygon';
  coordinates: Position[][];
}

export interface MultiPolygonGeometry {
  type: 'MultiPolygon';
  coordinates: Position[][][];
}

export type MultipolygonResult =
  | {
      geometry: PolygonGeometry | MultiPolygonGeometry;
      /** Rings whose members' role ('outer'/'inner') disagreed with their containment. */
      roleFixes: number;
    }
  | { error: string };

interface PlacedRing extends JoinedRing {
  bbox: [number, number, number, number];
  /** Shoelace area in square degrees: > 0 counter-clockwise. */
  signedArea: number;
  area: number;
  nodes: Set<number>;
  outer: boolean;
}

export function assembleMultipolygon(members: readonly MemberWay[]): MultipolygonResult {
  const joined = joinRings(members);
  if ('error' in joined) return joined;
  const rings = joined.rings.map(place);
  const flat = rings.find((r) => r.area === 0);
  if (flat) return { error: `zero-area ring (ways ${flat.wayIds.join(', ')})` };

  const containers = rings.map((ring) => rings.filter((other) => other !== ring && contains(other, ring)));
  let roleFixes = 0;
  rings.forEach((ring, i) => {
    ring.outer = containers[i]!.length % 2 === 0;
    if (ring.role !== '' && (ring.role === 'outer') !== ring.outer) roleFixes++;
  });

  const outers = rings.filter((r) => r.outer).sort((a, b) => b.area - a.area);
  const holes = new Map<PlacedRing, Position[][]>(outers.map((o) => [o, []]));
  for (let i = 0; i < rings.length; i++) {
    const ring = rings[i]!;
    if (ring.outer) continue;
    let parent: PlacedRing | null = null;
    for (const c of containers[i]!) if (c.outer && (!parent || c.area < parent.area)) parent = c;
    // only when rings cross each other
    if (!parent) return { error: `inner ring (ways ${ring.wayIds.join(', ')}) inside no outer ring` };
    holes.get(parent)!.push(oriented(ring, false));
  }
  const polygons = outers.map((o) => [oriented(o, true), ...holes.get(o)!]);
  return {
    geometry: polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0]! } : { type: 'MultiPolygon', coordinates: polygons },
    roleFixes,
  };
}

/**
 * A closed way as an area: what assembleMultipolygon gives for it alone, without its general
 * machinery (most areas are buildings, closed ways of a few nodes). Anything unusual — a
 * missing node, a degenerate or flat ring — goes the general way, for the same error.
 */
export function assembleClosedWay(member: MemberWay): MultipolygonResult {
  const { refs, coords } = member;
  const n = refs?.length ?? 0;
  if (!refs || n < 4 || refs[0] !== refs[n - 1] || coords.length !== n || coords.includes(null) || fewerThanThreeDistinct(refs)) return assembleMultipolygon([member]);
  const c = coords as readonly Position[];
  let twice = 0;
  for (let i = 1; i < n; i++) twice += c[i - 1]![0] * c[i]![1] - c[i]![0] * c[i - 1]![1];
  if (twice === 0) return assembleMultipolygon([member]);
  const ring = c.map((p): Position => [p[0], p[1]]);
  return { geometry: { type: 'Polygon', coordinates: [twice > 0 ? ring : ring.reverse()] }, roleFixes: member.role === 'inner' ? 1 : 0 };
}

function fewerThanThreeDistinct(refs: readonly number[]): boolean {
  const a = refs[0];
  let b: number | undefined;
  for (const r of refs) {
    if (r === a || r === b) continue;
    if (b === undefined) b = r;
    else return false;
  }
  return true;
}

function place(ring: JoinedRing): PlacedRing {
  const c = ring.coords;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity, twice = 0;
  for (let i = 0; i < c.length; i++) {
    const [x, y] = c[i]!;
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
    if (i > 0) {
      const [px, py] = c[i - 1]!;
      twice += px * y - x * py;
    }
  }
  return { ...ring, bbox: [minX, minY, maxX, maxY], signedArea: twice / 2, area: Math.abs(twice / 2), nodes: new Set(ring.refs), outer: true };
}

/** Whether `inner` lies inside `outer`, for rings that do not cross (they may share nodes). */
function contains(outer: PlacedRing, inner: PlacedRing): boolean {
  if (outer.area <= inner.area) return false;
  const [ax, ay, bx, by] = outer.bbox;
  const [cx, cy, dx, dy] = inner.bbox;
  if (cx < ax || cy < ay || dx > bx || dy > by) return false;
  // A vertex that is not a node of the other ring is strictly inside or outside it.
  const i = inner.refs.findIndex((ref) => !outer.nodes.has(ref));
  if (i >= 0) return insideRing(inner.coords[i]!, outer.coords);
  // Every node shared: fall back on the middle of an edge.
  const [p, q] = [inner.coords[0]!, inner.coords[1]!];
  return insideRing([(p[0] + q[0]) / 2, (p[1] + q[1]) / 2], outer.coords);
}

/** Even-odd ray casting against a closed ring (first position repeated last). */
function insideRing([x, y]: Position, ring: readonly Position[]): boolean {
  let inside = false;
  for (let i = 1; i < ring.length; i++) {
    const [x1, y1] = ring[i - 1]!;
    const [x2, y2] = ring[i]!;
    if (y1 > y !== y2 > y && x < ((x2 - x1) * (y - y1)) / (y2 - y1) + x1) inside = !inside;
  }
  return inside;
}

function oriented(ring: PlacedRing, counterClockwise: boolean): Position[] {
  const coords = ring.coords.map((p): Position => [p[0], p[1]]);
  return ring.signedArea > 0 === counterClockwise ? coords : coords.reverse();
}

/** Multipolygon assembly on hand-made member ways: joining, classification, hole assignment, orientation. */
import { describe, expect, it } from 'vitest';
import { assembleMultipolygon, type MemberWay, type Position } from '../../ingest/osm/multipolygon.ts';

/** Node table: id → [lng, lat]; nodes absent from it are "missing from the file". */
type Nodes = Record<number, Position>;

function way(nodes: Nodes, id: number, role: string, refs: number[]): MemberWay {
  return { id, role, refs, coords: refs.map((r) => nodes[r] ?? null) };
}

/** Square nodes base+1..base+4 with corners (x0,y0)-(x1,y1), listed counter-clockwise from the south-west. */
function square(nodes: Nodes, base: number, x0: number, y0: number, x1: number, y1: number): number[] {
  nodes[base + 1] = [x0, y0];
  nodes[base + 2] = [x1, y0];
  nodes[base + 3] = [x1, y1];
  nodes[base + 4] = [x0, y1];
  return [base + 1, base + 2, base + 3, base + 4, base + 1];
}

const clockwise = (ring: number[]) => [...ring].reverse();

function signedArea(ring: readonly Position[]): number {
  let twice = 0;
  for (let i = 1; i < ring.length; i++) twice += ring[i - 1]![0] * ring[i]![1] - ring[i]![0] * ring[i - 1]![1];
  return twice / 2;
}

function geometryOf(members: MemberWay[]) {
  const result = assembleMultipolygon(members);
  if ('error' in result) throw new Error(`unexpected error: ${result.error}`);
  return result;
}

/** Rings as sorted sets of "lng,lat" (order- and start-independent). */
const cornerSet = (ring: readonly Position[]) => [...new Set(ring.map((p) => p.join(',')))].sort();

describe('assembleMultipolygon', () => {
  it('makes a Polygon of one closed way, counter-clockwise even when the way is clockwise', () => {
    const nodes: Nodes = {};
    const ring = clockwise(square(nodes, 0, 0, 0, 1, 1));
    const { geometry, roleFixes } = geometryOf([way(nodes, 7, 'outer', ring)]);
    expect(geometry.type).toBe('Polygon');
    const [outer] = geometry.coordinates as Position[][];
    expect(outer).toHaveLength(5);
    expect(outer![0]).toEqual(outer![4]);
    expect(signedArea(outer!)).toBeCloseTo(1);
    expect(cornerSet(outer!)).toEqual(['0,0', '0,1', '1,0', '1,1']);
    expect(roleFixes).toBe(0);
  });

  it('joins a ring of three open ways, one of them drawn the other way', () => {
    const nodes: Nodes = { 1: [0, 0], 2: [2, 0], 3: [4, 0], 4: [4, 2], 5: [2, 3], 6: [0, 2] };
    const { geometry } = geometryOf([
      way(nodes, 10, 'outer', [1, 2, 3]),
      way(nodes, 11, 'outer', [5, 4, 3]), // reversed: runs 5 → 3 where the ring runs 3 → 5
      way(nodes, 12, 'outer', [5, 6, 1]),
    ]);
    expect(geometry.type).toBe('Polygon');
    const outer = (geometry.coordinates as Position[][])[0]!;
    expect(outer).toHaveLength(7);
    expect(outer[0]).toEqual(outer[6]);
    // consecutive corners are neighbours on the ring 1-2-3-4-5-6
    const order = outer.slice(0, 6).map((p) => Object.entries(nodes).find(([, c]) => c.join() === p.join())![0]);
    const start = order.indexOf('1');
    expect([...order.slice(start), ...order.slice(0, start)]).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(signedArea(outer)).toBeGreaterThan(0);
  });

  it('puts an inner ring as a clockwise hole of its outer', () => {
    const nodes: Nodes = {};
    const outer = clockwise(square(nodes, 0, 0, 0, 10, 10));
    const inner = square(nodes, 10, 3, 3, 7, 7); // counter-clockwise in the input
    const { geometry } = geometryOf([way(nodes, 1, 'outer', outer), way(nodes, 2, 'inner', inner)]);
    expect(geometry.type).toBe('Polygon');
    const rings = geometry.coordinates as Position[][];
    expect(rings).toHaveLength(2);
    expect(signedArea(rings[0]!)).toBeCloseTo(100);
    expect(signedArea(rings[1]!)).toBeCloseTo(-16);
    expect(cornerSet(rings[1]!)).toEqual(['3,3', '3,7', '7,3', '7,7']);
  });

  it('gives each hole to the outer that holds it, whatever the member order', () => {
    const nodes: Nodes = {};
    const outerA = square(nodes, 0, 0, 0, 10, 10);
    const holeA = square(nodes, 10, 2, 2, 4, 4);
    const outerB = square(nodes, 20, 20, 0, 30, 10);
    const holeB = square(nodes, 30, 22, 2, 24, 4);
    const { geometry } = geometryOf([
      way(nodes, 4, 'inner', holeB),
      way(nodes, 1, 'outer', outerA),
      way(nodes, 3, 'outer', outerB),
      way(nodes, 2, 'inner', holeA),
    ]);
    expect(geometry.type).toBe('MultiPolygon');
    const polygons = geometry.coordinates as Position[][][];
    expect(polygons).toHaveLength(2);
    const byWest = [...polygons].sort((p, q) => Math.min(...p[0]!.map((c) => c[0])) - Math.min(...q[0]!.map((c) => c[0])));
    expect(byWest.map((p) => p.length)).toEqual([2, 2]);
    expect(cornerSet(byWest[0]![1]!)).toEqual(['2,2', '2,4', '4,2', '4,4']);
    expect(cornerSet(byWest[1]![1]!)).toEqual(['22,2', '22,4', '24,2', '24,4']);
    for (const p of polygons) {
      expect(signedArea(p[0]!)).toBeGreaterThan(0);
      expect(signedArea(p[1]!)).toBeLessThan(0);
    }
  });

  it('gives a hole to the smallest outer around it: an island with a pond inside a lake', () => {
    const nodes: Nodes = {};
    const land = square(nodes, 0, 0, 0, 100, 100);
    const lake = square(nodes, 10, 10, 10, 90, 90);
    const island = square(nodes, 20, 20, 20, 80, 80);
    const pond = square(nodes, 30, 40, 40, 60, 60);
    const { geometry } = geometryOf([
      way(nodes, 1, 'outer', land), way(nodes, 2, 'inner', lake), way(nodes, 3, 'outer', island), way(nodes, 4, 'inner', pond),
    ]);
    expect(geometry.type).toBe('MultiPolygon');
    const [big, small] = geometry.coordinates as Position[][][];
    expect(big!.map(cornerSet)).toEqual([cornerSet(nodesOf(nodes, land)), cornerSet(nodesOf(nodes, lake))]);
    expect(small!.map(cornerSet)).toEqual([cornerSet(nodesOf(nodes, island)), cornerSet(nodesOf(nodes, pond))]);
  });

  it('decides by containment when roles are missing or wrong, and counts the wrong ones', () => {
    const nodes: Nodes = {};
    const outer = square(nodes, 0, 0, 0, 10, 10);
    const inner = square(nodes, 10, 3, 3, 7, 7);
    for (const [outerRole, innerRole, fixes] of [['', '', 0], ['outer', 'outer', 1], ['inner', 'outer', 2], ['', 'inner', 0]] as const) {
      const { geometry, roleFixes } = geometryOf([way(nodes, 2, innerRole, inner), way(nodes, 1, outerRole, outer)]);
      expect(geometry.type).toBe('Polygon');
      const rings = geometry.coordinates as Position[][];
      expect(rings.map((r) => Math.round(signedArea(r)))).toEqual([100, -16]);
      expect(roleFixes).toBe(fixes);
    }
  });

  it('splits a chain that comes back to one of its own nodes: two triangles touching at a node', () => {
    const nodes: Nodes = { 1: [0, 0], 2: [-1, 1], 3: [-1, -1], 4: [1, 1], 5: [1, -1] };
    const { geometry } = geometryOf([
      way(nodes, 1, 'outer', [2, 1]), way(nodes, 2, 'outer', [1, 4]), way(nodes, 3, 'outer', [4, 5, 1]), way(nodes, 4, 'outer', [1, 3, 2]),
    ]);
    expect(geometry.type).toBe('MultiPolygon');
    const polygons = geometry.coordinates as Position[][][];
    expect(polygons.map((p) => p.length)).toEqual([1, 1]);
    expect(polygons.map((p) => cornerSet(p[0]!)).sort()).toEqual([['-1,-1', '-1,1', '0,0'], ['0,0', '1,-1', '1,1']]);
    for (const p of polygons) expect(signedArea(p[0]!)).toBeCloseTo(1);
  });

  it('reports a ring that does not close', () => {
    const nodes: Nodes = { 1: [0, 0], 2: [1, 0], 3: [1, 1], 4: [0, 1] };
    const result = assembleMultipolygon([way(nodes, 5, 'outer', [1, 2, 3]), way(nodes, 6, 'outer', [3, 4])]);
    expect(result).toEqual({ error: 'unclosed ring: ways 5, 6 end at node 4' });
  });

  it('matches ways on node ids, not on equal coordinates', () => {
    // node 9 lies exactly where node 1 is, but is another node: the ring does not close
    const nodes: Nodes = { 1: [0, 0], 2: [1, 0], 3: [1, 1], 9: [0, 0] };
    const result = assembleMultipolygon([way(nodes, 5, 'outer', [1, 2, 3]), way(nodes, 6, 'outer', [3, 9])]);
    expect(result).toEqual({ error: 'unclosed ring: ways 5, 6 end at node 9' });
  });

  it('reports missing ways and nodes instead of throwing', () => {
    const nodes: Nodes = {};
    const ring = square(nodes, 0, 0, 0, 1, 1);
    expect(assembleMultipolygon([way(nodes, 1, 'outer', ring), { id: 123, role: 'inner', refs: null, coords: [] }]))
      .toEqual({ error: 'missing way 123 (of 2 member ways)' });
    delete nodes[2];
    expect(assembleMultipolygon([way(nodes, 1, 'outer', ring)])).toEqual({ error: 'missing node 2 of way 1' });
    expect(assembleMultipolygon([])).toEqual({ error: 'no member ways' });
    const flat: Nodes = { 1: [0, 0], 2: [1, 1] };
    expect(assembleMultipolygon([way(flat, 8, 'outer', [1, 2, 1])])).toEqual({ error: 'degenerate ring (ways 8)' });
  });
});

function nodesOf(nodes: Nodes, refs: number[]): Position[] {
  return refs.map((r) => nodes[r]!);
}

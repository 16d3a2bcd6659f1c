/**
 * A TopoJSON topology (quantized, delta-encoded arcs; world-atlas's Natural Earth files) read as
 * GeoJSON: an object's polygons, and its mesh — the arcs two different geometries share, i.e.
 * their common borders — without a coastline.
 */

export interface Topology {
  type: 'Topology';
  transform?: { scale: [number, number]; translate: [number, number] };
  arcs: number[][][];
  objects: Record<string, TopoObject>;
}

export interface TopoObject {
  type: string;
  id?: string | number;
  properties?: Record<string, unknown>;
  arcs?: unknown;
  geometries?: TopoObject[];
}

export interface TopoPolygonFeature {
  id: string | undefined;
  properties: Record<string, unknown>;
  geometry: GeoJSON.MultiPolygon;
}

function decodeArcs(topology: Topology): GeoJSON.Position[][] {
  const t = topology.transform;
  return topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      if (!t) return [dx!, dy!];
      x += dx!;
      y += dy!;
      return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]];
    });
  });
}

/** A ring from arc indices (a negative index ~i is arc i reversed), shared end points once. */
function ring(arcs: GeoJSON.Position[][], indices: number[]): GeoJSON.Position[] {
  const points: GeoJSON.Position[] = [];
  for (const index of indices) {
    const arc = index < 0 ? [...arcs[~index]!].reverse() : arcs[index]!;
    points.push(...(points.length ? arc.slice(1) : arc));
  }
  return points;
}

function polygonsOf(geometry: TopoObject): number[][][] {
  if (geometry.type === 'Polygon') return [geometry.arcs as number[][]];
  if (geometry.type === 'MultiPolygon') return geometry.arcs as number[][][];
  return [];
}

function geometriesOf(object: TopoObject): TopoObject[] {
  return object.type === 'GeometryCollection' ? object.geometries ?? [] : [object];
}

function objectNamed(topology: Topology, name: string): TopoObject {
  const object = topology.objects[name];
  if (!object) throw new Error(`the topology has no object ${name} (it has ${Object.keys(topology.objects).join(', ')})`);
  return object;
}

/** Every polygon geometry of the object, as a MultiPolygon feature. */
export function topoPolygons(topology: Topology, name: string): TopoPolygonFeature[] {
  const arcs = decodeArcs(topology);
  return geometriesOf(objectNamed(topology, name))
    .filter((g) => g.type === 'Polygon' || g.type === 'MultiPolygon')
    .map((g) => ({
      id: g.id === undefined ? undefined : String(g.id),
      properties: g.properties ?? {},
      geometry: { type: 'MultiPolygon', coordinates: polygonsOf(g).map((rings) => rings.map((r) => ring(arcs, r))) },
    }));
}

/** The arcs shared by two different geometries of the object (borders), each with the ids of both sides. */
export function topoBorders(topology: Topology, name: string): { ids: [string, string]; line: GeoJSON.Position[] }[] {
  const arcs = decodeArcs(topology);
  const owners = new Map<number, Set<string>>();
  geometriesOf(objectNamed(topology, name)).forEach((g, i) => {
    const id = g.id === undefined ? `#${i}` : String(g.id);
    for (const rings of polygonsOf(g)) {
      for (const r of rings) {
        for (const index of r) {
          const arc = index < 0 ? ~index : index;
          if (!owners.has(arc)) owners.set(arc, new Set());
          owners.get(arc)!.add(id);
        }
      }
    }
  });
  const borders: { ids: [string, string]; line: GeoJSON.Position[] }[] = [];
  for (const [arc, ids] of owners) {
    if (ids.size === 2) borders.push({ ids: [...ids] as [string, string], line: arcs[arc]! });
  }
  return borders;
}

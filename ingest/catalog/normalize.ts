import { polygonContains } from '../../lib/geo/planar.ts';
import type { StoredProperties } from '../../engines/catalog/feature-store-format.ts';
import type { SourceLayerDefinition } from '../../schemas/catalog-definition.ts';
import type { SourceFeature } from './inputs.ts';
import { propertyValue } from './properties.ts';
import type { ProvinceLocator } from './provinces.ts';

type Position = number[];

function positionProblem(p: Position): string | null {
  if (!Array.isArray(p) || p.length < 2) return 'a position needs a longitude and a latitude';
  const [x, y] = p as [number, number];
  if (!Number.isFinite(x) || !Number.isFinite(y)) return 'a coordinate is not a finite number';
  if (x < -180 || x > 180 || y < -90 || y > 90) return `position ${x},${y} is outside longitude -180..180 / latitude -90..90`;
  return null;
}

function linesProblem(lines: Position[][], ring: boolean): string | null {
  for (const line of lines) {
    if (!Array.isArray(line)) return 'malformed coordinates';
    if (line.length < (ring ? 4 : 2)) return ring ? 'a polygon ring needs at least four positions' : 'a line needs at least two positions';
    for (const p of line) {
      const problem = positionProblem(p);
      if (problem) return problem;
    }
    const first = line[0]!, last = line[line.length - 1]!;
    if (ring && (first[0] !== last[0] || first[1] !== last[1])) return 'a polygon ring is not closed';
  }
  return null;
}

/** Why a geometry cannot be stored or tiled, or null when it is sound. */
export function geometryProblem(g: GeoJSON.Geometry | null): string | null {
  if (!g || typeof g !== 'object') return 'no geometry';
  const coords = (g as { coordinates?: unknown }).coordinates;
  if (!Array.isArray(coords)) return `geometry ${String(g.type)} has no coordinates`;
  switch (g.type) {
    case 'Point': return positionProblem(g.coordinates);
    case 'MultiPoint': return g.coordinates.length ? g.coordinates.map(positionProblem).find(Boolean) ?? null : 'empty MultiPoint';
    case 'LineString': return linesProblem([g.coordinates], false);
    case 'MultiLineString': return g.coordinates.length ? linesProblem(g.coordinates, false) : 'empty MultiLineString';
    case 'Polygon': return g.coordinates.length ? linesProblem(g.coordinates, true) : 'empty Polygon';
    case 'MultiPolygon': return g.coordinates.length ? g.coordinates.map((rings) => (rings.length ? linesProblem(rings, true) : 'empty polygon')).find(Boolean) ?? null : 'empty MultiPolygon';
    default: return `unsupported geometry type ${String(g.type)}`;
  }
}

/** A point that stands for the feature when finding its province: a polygon's bbox centre when inside it, else its first position. */
function anchor(g: GeoJSON.Geometry): Position {
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : null;
  if (polygons) {
    const outer = polygons[0]![0]!;
    const xs = outer.map((p) => p[0]!), ys = outer.map((p) => p[1]!);
    const centre = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2] as [number, number];
    const rings = polygons[0]!.map((ring) => Float64Array.from(ring.flatMap((p) => [p[0]!, p[1]!])));
    return polygonContains(rings, ...centre) ? centre : outer[0]!;
  }
  switch (g.type) {
    case 'Point': return g.coordinates;
    case 'MultiPoint': case 'LineString': return g.coordinates[0]!;
    case 'MultiLineString': return g.coordinates[0]![0]!;
    default: return [0, 0];
  }
}

export type NormalizedFeature = { properties: StoredProperties; geometry: GeoJSON.Geometry } | { skip: string };

/** The stored feature: `{id, name, province}` and the layer's own fields, by the source layer's definition. */
export function normalizeFeature(source: SourceFeature, def: SourceLayerDefinition, provinces: ProvinceLocator | null): NormalizedFeature {
  const problem = geometryProblem(source.geometry);
  if (problem) return { skip: problem };
  const geometry = source.geometry!;
  const rawId = def.id_from ? source.properties[def.id_from] : source.id;
  if (rawId === undefined || rawId === null || rawId === '') return { skip: def.id_from ? `no ${def.id_from} property for the id` : 'no id' };
  const [lng, lat] = anchor(geometry) as [number, number];
  const province = provinces?.codeAt(lng, lat) ?? '';
  const name = propertyValue(def.name ?? 'name', source.properties, province);
  const properties: StoredProperties = { id: String(rawId), name: name === undefined ? '' : String(name), province };
  for (const [field, from] of Object.entries(def.properties ?? {})) {
    const value = propertyValue(from, source.properties, province);
    if (value !== undefined) properties[field] = value;
  }
  return { properties, geometry };
}

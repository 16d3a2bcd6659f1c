/**
 * What a source layer asks of the tiler (tippecanoe-like controls) and the rules that read it:
 * the simplification tolerance of a zoom, which properties stay, and a property's field type.
 */

export const TILE_EXTENT = 4096;
/** Tile units of geometry kept beyond each edge, so lines and outlines meet across tiles. */
export const TILE_BUFFER = 64;
export const DEFAULT_SIMPLIFICATION = 3;

export interface LayerSpec {
  /** The source layer's name in the tiles. */
  id: string;
  minZoom: number;
  maxZoom: number;
  /** Only these properties are kept (every one when absent). */
  include?: readonly string[];
  /** These properties are dropped. */
  exclude?: readonly string[];
  /**
   * Douglas-Peucker tolerance in tile units (1/4096 of a tile's side), below the layer's max zoom:
   * one number for every zoom, or per zoom where a zoom takes the value of the nearest lower key
   * ({0: 8, 10: 2} is 8 for zooms 0-9 and 2 from 10). Default 3; 0 keeps every vertex and every
   * feature however small. Polygons smaller than the tolerance squared and lines shorter than it
   * vanish at that zoom. The max zoom always keeps every vertex: it is exact to one tile unit and
   * it is what clients overzoom.
   */
  simplification?: number | Readonly<Record<number, number>>;
}

/** A GeoJSON feature as the tiler takes it: tippecanoe's per-feature zoom band as a foreign member. */
export type TilerFeature = GeoJSON.Feature & { tippecanoe?: { minzoom?: number; maxzoom?: number } };

export type FieldType = 'String' | 'Number' | 'Boolean';

export function checkLayerSpec(spec: LayerSpec): void {
  const { id, minZoom, maxZoom } = spec;
  if (!id) throw new Error('a layer needs an id');
  if (!Number.isInteger(minZoom) || !Number.isInteger(maxZoom) || minZoom < 0 || maxZoom > 24 || minZoom > maxZoom) {
    throw new RangeError(`layer ${id}: zooms ${minZoom}-${maxZoom} are not a range within 0-24`);
  }
  const s = spec.simplification;
  const values = typeof s === 'object' ? Object.entries(s) : [['0', s ?? DEFAULT_SIMPLIFICATION] as const];
  for (const [zoom, tolerance] of values) {
    if (!Number.isInteger(Number(zoom)) || !(tolerance >= 0)) {
      throw new RangeError(`layer ${id}: simplification ${JSON.stringify(s)} needs zoom keys and tolerances ≥ 0`);
    }
  }
}

/** The tolerance (tile units) at zoom z: 0 at the layer's max zoom. */
export function toleranceAt(spec: LayerSpec, z: number): number {
  if (z >= spec.maxZoom) return 0;
  const s = spec.simplification ?? DEFAULT_SIMPLIFICATION;
  if (typeof s === 'number') return s;
  let best = -1;
  let tolerance = DEFAULT_SIMPLIFICATION;
  for (const [key, value] of Object.entries(s)) {
    const k = Number(key);
    if (k <= z && k > best) [best, tolerance] = [k, value];
  }
  return tolerance;
}

/** Whether any zoom of the layer simplifies (else vertex ranks are never read). */
export function simplifies(spec: LayerSpec): boolean {
  for (let z = spec.minZoom; z < spec.maxZoom; z += 1) if (toleranceAt(spec, z) > 0) return true;
  return false;
}

/** The kept properties as MVT can hold them (nested values as JSON text), with their field types recorded. */
export function keptProperties(spec: LayerSpec, properties: GeoJSON.GeoJsonProperties, fields: Record<string, FieldType>): Record<string, string | number | boolean> {
  const kept: Record<string, string | number | boolean> = {};
  if (!properties) return kept;
  for (const name in properties) {
    const value = properties[name];
    if (value === null || value === undefined) continue;
    if ((spec.include && !spec.include.includes(name)) || spec.exclude?.includes(name)) continue;
    const v = typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string' ? value : JSON.stringify(value);
    if (typeof v === 'number' && !Number.isFinite(v)) continue;
    kept[name] = v;
    fields[name] ??= typeof v === 'number' ? 'Number' : typeof v === 'boolean' ? 'Boolean' : 'String';
  }
  return kept;
}

import { parseBBox, parseLngLat, plainNumber } from '../../lib/geo/parse.ts';
import type { BBoxTuple } from '../../engines/catalog/catalog.ts';
import { BBOX_WORDING } from './bbox.ts';
import { accept, reject, type Checked } from '../../lib/checked.ts';

export const DEFAULT_IDENTIFY_LAYER = 'municipalities';
export const MAX_QUERY_LIMIT = 50;

const POINT_WORDING: Record<'format' | 'longitude' | 'latitude', string> = {
  format: 'at must be lng,lat: two decimal numbers separated by a comma, e.g. at=-123.12,49.28',
  longitude: 'longitude must be between -180 and 180 (at is lng,lat)',
  latitude: 'latitude must be between -90 and 90 (at is lng,lat)',
};

/** at=lng,lat, or lon and lat given separately (at wins when both are given). */
export function sanitizeIdentifyPoint(query: { at?: string; lon?: string; lat?: string }): Checked<{ lng: number; lat: number }> {
  if (query.at === undefined && query.lon === undefined && query.lat === undefined) return reject('at is required (lng,lat), or give lon and lat');
  if (query.at === undefined && (query.lon === undefined || query.lat === undefined)) return reject(`${query.lon === undefined ? 'lon' : 'lat'} is required with ${query.lon === undefined ? 'lat' : 'lon'} (or give at=lng,lat)`);
  const parsed = parseLngLat(query.at ?? `${query.lon},${query.lat}`);
  if (parsed.ok) return accept(parsed.value);
  if (query.at !== undefined) return reject(POINT_WORDING[parsed.problem]);
  return reject(parsed.problem === 'format' ? 'lon and lat must be decimal numbers' : parsed.problem === 'longitude' ? 'lon must be between -180 and 180' : 'lat must be between -90 and 90');
}

/** The comma list of layers (default municipalities), each one of `allowed`; duplicates dropped. */
export function sanitizeIdentifyLayers(raw: string | undefined, allowed: readonly string[], catalogued: (id: string) => boolean): Checked<string[]> {
  const ids = [...new Set((raw ?? DEFAULT_IDENTIFY_LAYER).split(',').map((s) => s.trim()).filter(Boolean))];
  if (ids.length === 0) return reject(`layers must name at least one identify-capable layer: ${allowed.join(', ')}`);
  for (const id of ids) {
    if (allowed.includes(id)) continue;
    const why = catalogued(id) ? `layer ${id} is not identify-capable` : `unknown layer ${JSON.stringify(id)}`;
    return reject(`${why}; identify-capable layers: ${allowed.join(', ')}`);
  }
  return accept(ids);
}

export function sanitizeQueryBbox(raw: string | undefined): Checked<BBoxTuple> {
  if (raw === undefined || raw === '') return reject('bbox is required (west,south,east,north)');
  const parsed = parseBBox(raw);
  if (!parsed.ok) return reject(BBOX_WORDING[parsed.problem]);
  const { minLon, minLat, maxLon, maxLat } = parsed.value;
  return accept([minLon, minLat, maxLon, maxLat]);
}

/** 1..50; absent or non-numeric gives 50 (volume 3), a number outside the range is a 400. */
export function sanitizeQueryLimit(raw: string | undefined): Checked<number> {
  const n = plainNumber(raw);
  if (n === null) return accept(MAX_QUERY_LIMIT);
  if (!Number.isInteger(n) || n < 1 || n > MAX_QUERY_LIMIT) return reject(`limit must be an integer between 1 and ${MAX_QUERY_LIMIT}`);
  return accept(n);
}

export const wantsGeometry = (raw: string | undefined): boolean => raw === 'true';

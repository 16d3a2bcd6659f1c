import { parseLngLat } from '../../../lib/geo/parse.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

const WORDING = {
  format: 'near must be lng,lat: two decimal numbers separated by a comma, e.g. near=-73.5673,45.5017',
  longitude: 'near longitude must be between -180 and 180 (near is lng,lat)',
  latitude: 'near latitude must be between -90 and 90 (near is lng,lat)',
} as const;

/** near=lng,lat: two plain decimal numbers (no exponent, hex, NaN or Infinity), WGS84 ranges. */
export function sanitizeNear(raw: unknown): Checked<{ lng: number; lat: number }> {
  if (typeof raw !== 'string' || raw.trim() === '') return reject('near is required as lng,lat');
  const parsed = parseLngLat(raw);
  return parsed.ok ? accept(parsed.value) : reject(WORDING[parsed.problem]);
}

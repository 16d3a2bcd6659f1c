import { accept, reject, type Sanitized } from '../sanitized.ts';

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** near=lng,lat: two plain decimal numbers (no exponent, hex, NaN or Infinity), WGS84 ranges. */
export function sanitizeNear(raw: unknown): Sanitized<{ lng: number; lat: number }> {
  if (typeof raw !== 'string' || raw.trim() === '') return reject('near is required as lng,lat');
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length !== 2 || !parts.every((p) => DECIMAL.test(p))) {
    return reject('near must be lng,lat: two decimal numbers separated by a comma, e.g. near=-73.5673,45.5017');
  }
  const [lng, lat] = parts.map(Number) as [number, number];
  if (lng < -180 || lng > 180) return reject('near longitude must be between -180 and 180 (near is lng,lat)');
  if (lat < -90 || lat > 90) return reject('near latitude must be between -90 and 90 (near is lng,lat)');
  return accept({ lng, lat });
}

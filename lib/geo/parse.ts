import type { BBox } from './bbox.ts';

/**
 * The parsing cores of `lng,lat` and `bbox` parameters. They tell what is wrong; each domain's
 * sanitizer words the 400 (the wordings differ by endpoint and are part of the contract).
 */

/** Plain decimal: no exponent, hex, NaN, Infinity or empty string (what Number() would also take). */
export const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The number a JSON number or a plain-decimal string (spaces trimmed) writes; null otherwise.
 * Hundreds of digits are still plain decimal: they read as ±Infinity, which any range refuses.
 */
function plainDecimal(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isNaN(raw) ? null : raw;
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  return PLAIN_DECIMAL.test(text) ? Number(text) : null;
}

/** A finite number from a JSON number or a plain-decimal string (spaces trimmed); null otherwise. */
export function plainNumber(raw: unknown): number | null {
  const value = plainDecimal(raw);
  return value !== null && Number.isFinite(value) ? value : null;
}

/** `count` plain decimals from `a,b,...` or from a JSON number array; null when malformed. */
export function plainNumbers(raw: unknown, count: number): number[] | null {
  let parts: unknown[];
  if (typeof raw === 'string') parts = raw.split(',');
  else if (Array.isArray(raw) && raw.every((p) => typeof p === 'number')) parts = raw;
  else return null;
  if (parts.length !== count) return null;
  const values = parts.map(plainDecimal);
  return values.every((v) => v !== null) ? (values as number[]) : null;
}

export const validLng = (lng: number): boolean => lng >= -180 && lng <= 180;
export const validLat = (lat: number): boolean => lat >= -90 && lat <= 90;

export type Parsed<T, P extends string> = { ok: true; value: T } | { ok: false; problem: P };

/** `lng,lat`: two plain numbers, then WGS84 ranges. */
export function parseLngLat(raw: unknown): Parsed<{ lng: number; lat: number }, 'format' | 'longitude' | 'latitude'> {
  const values = plainNumbers(raw, 2);
  if (!values) return { ok: false, problem: 'format' };
  const [lng, lat] = values as [number, number];
  if (!validLng(lng)) return { ok: false, problem: 'longitude' };
  if (!validLat(lat)) return { ok: false, problem: 'latitude' };
  return { ok: true, value: { lng, lat } };
}

/** `west,south,east,north` (minlon,minlat,maxlon,maxlat): four plain numbers, WGS84 ranges, min ≤ max. */
export function parseBBox(raw: unknown): Parsed<BBox, 'format' | 'range' | 'south-north' | 'west-east'> {
  const values = plainNumbers(raw, 4);
  if (!values) return { ok: false, problem: 'format' };
  const [minLon, minLat, maxLon, maxLat] = values as [number, number, number, number];
  if (![minLon, maxLon].every(validLng) || ![minLat, maxLat].every(validLat)) return { ok: false, problem: 'range' };
  if (minLat > maxLat) return { ok: false, problem: 'south-north' };
  if (minLon > maxLon) return { ok: false, problem: 'west-east' };
  return { ok: true, value: { minLon, minLat, maxLon, maxLat } };
}

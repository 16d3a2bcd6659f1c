import type { BBox } from '../../../engines/geocoding/types.ts';
import { accept, reject, type Sanitized } from '../sanitized.ts';
import { plainNumber } from './numbers.ts';

export const BBOX_MESSAGE = 'bbox must be minlon,minlat,maxlon,maxlat with 4 finite numbers';

/** The parts of `a,b,...` (a string) or of a JSON number array, as finite numbers; null when malformed. */
function numbers(raw: unknown, count: number): number[] | null {
  let parts: unknown[];
  if (typeof raw === 'string') parts = raw.split(',');
  else if (Array.isArray(raw)) parts = raw.every((p) => typeof p === 'number') ? raw : [];
  else return null;
  if (parts.length !== count) return null;
  const values = parts.map(plainNumber);
  return values.every((v) => v !== null) ? (values as number[]) : null;
}

const validLng = (lng: number) => lng >= -180 && lng <= 180;
const validLat = (lat: number) => lat >= -90 && lat <= 90;

/**
 * A `lng,lat` parameter (focus, near): two plain decimals in WGS84 ranges. The message is
 * `<name> must be lng,lat` (volume 2 words near's that way), with the ranges when only they fail.
 */
export function sanitizeLngLat(name: string, raw: unknown): Sanitized<{ lng: number; lat: number }> {
  const values = numbers(raw, 2);
  if (!values) return reject(`${name} must be lng,lat`);
  const [lng, lat] = values as [number, number];
  if (!validLng(lng) || !validLat(lat)) {
    return reject(`${name} must be lng,lat with longitude between -180 and 180 and latitude between -90 and 90`);
  }
  return accept({ lng, lat });
}

export interface SanitizedBox {
  box: BBox;
  /** No area (min = max on an axis): a hard filter nothing can pass. */
  empty: boolean;
}

/**
 * bbox=minlon,minlat,maxlon,maxlat: four plain decimals in WGS84 ranges with min ≤ max on both
 * axes; anything else is the one volume-2 message. A box with no area is valid and empty.
 */
export function sanitizeBbox(raw: unknown): Sanitized<SanitizedBox> {
  const values = numbers(raw, 4);
  if (!values) return reject(BBOX_MESSAGE);
  const [minLng, minLat, maxLng, maxLat] = values as [number, number, number, number];
  if (![minLng, maxLng].every(validLng) || ![minLat, maxLat].every(validLat)) return reject(BBOX_MESSAGE);
  if (minLng > maxLng || minLat > maxLat) return reject(BBOX_MESSAGE);
  return accept({ box: [minLng, minLat, maxLng, maxLat], empty: minLng === maxLng || minLat === maxLat });
}

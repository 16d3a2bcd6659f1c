import { bboxIsEmpty, type BBox } from '../../../lib/geo/bbox.ts';
import { parseBBox, parseLngLat } from '../../../lib/geo/parse.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

export const BBOX_MESSAGE = 'bbox must be minlon,minlat,maxlon,maxlat with 4 finite numbers';

/**
 * A `lng,lat` parameter (focus, near): two plain decimals in WGS84 ranges. The message is
 * `<name> must be lng,lat` (volume 2 words near's that way), with the ranges when only they fail.
 */
export function sanitizeLngLat(name: string, raw: unknown): Checked<{ lng: number; lat: number }> {
  const parsed = parseLngLat(raw);
  if (parsed.ok) return accept(parsed.value);
  if (parsed.problem === 'format') return reject(`${name} must be lng,lat`);
  return reject(`${name} must be lng,lat with longitude between -180 and 180 and latitude between -90 and 90`);
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
export function sanitizeBbox(raw: unknown): Checked<SanitizedBox> {
  const parsed = parseBBox(raw);
  if (!parsed.ok) return reject(BBOX_MESSAGE);
  return accept({ box: parsed.value, empty: bboxIsEmpty(parsed.value) });
}

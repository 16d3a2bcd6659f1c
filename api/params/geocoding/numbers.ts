import { DEFAULT_RADIUS_M, MAX_LIMIT, MAX_RADIUS_M, MIN_RADIUS_M } from '../../../schemas/geocoding-api.ts';
import { plainNumber } from '../../../lib/geo/parse.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';


const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * limit: truncated to an integer and clamped to 1..50; absent or non-numeric means the
 * endpoint's default (volume 2: "non-numeric falls back to default").
 */
export function sanitizeLimit(raw: unknown, fallback: number): number {
  const value = plainNumber(raw);
  return value === null ? fallback : clamp(Math.trunc(value), 1, MAX_LIMIT);
}

/** radius (metres): rounded and clamped to 50..50000; a value that is not a number is a 400. */
export function sanitizeRadius(raw: unknown): Checked<number | undefined> {
  if (raw === undefined) return accept(undefined);
  const value = plainNumber(raw);
  if (value === null) return reject(`radius must be a number of metres (${MIN_RADIUS_M} to ${MAX_RADIUS_M}, default ${DEFAULT_RADIUS_M})`);
  return accept(clampRadius(value));
}

export const clampRadius = (metres: number): number => clamp(Math.round(metres), MIN_RADIUS_M, MAX_RADIUS_M);

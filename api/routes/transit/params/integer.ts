import type { TInteger } from '@sinclair/typebox';
import { accept, reject, type Sanitized } from './sanitized.ts';

/**
 * An integer parameter its route schema already validated, checked once more against the same
 * schema's bounds: AJV's type coercion turns "1e999" into Infinity and then skips the integer and
 * range checks for non-finite numbers.
 */
export function sanitizeInteger(name: string, value: unknown, schema: Pick<TInteger, 'minimum' | 'maximum'>): Sanitized<number> {
  const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return reject(`${name} must be an integer between ${min} and ${max}`);
  }
  return accept(value);
}

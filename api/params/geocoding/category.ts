import { MAX_CATEGORY_TOKENS } from '../../../schemas/geocoding-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

export const CATEGORY_REQUIRED = 'category required';

/** category: 1 to 8 comma-separated tokens (empty items ignored); missing or blank → 400. */
export function sanitizeCategoryTokens(raw: unknown): Checked<string[]> {
  if (raw === undefined) return reject(CATEGORY_REQUIRED);
  if (typeof raw !== 'string') return reject(`category must be 1 to ${MAX_CATEGORY_TOKENS} comma-separated tokens`);
  const tokens = raw.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (tokens.length === 0) return reject(CATEGORY_REQUIRED);
  if (tokens.length > MAX_CATEGORY_TOKENS) return reject(`category takes at most ${MAX_CATEGORY_TOKENS} comma-separated tokens`);
  return accept(tokens);
}

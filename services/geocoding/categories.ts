import { MAX_CATEGORY_TOKENS } from '../../schemas/geocoding-api.ts';
import type { Geocoder } from '../../engines/geocoding/types.ts';
import { accept, reject, valueOrThrow, type Checked } from '../../lib/checked.ts';
import { errors } from '../../lib/errors.ts';

/** Tokens → taxonomy ids through the release's aliases; unknown token or more than 8 ids → 400. */
export function resolveCategoryTokens(geocoder: Geocoder, tokens: string[]): Checked<string[]> {
  const resolved = geocoder.resolveCategories(tokens);
  if (!resolved.ok) return reject(`unknown category ${JSON.stringify(resolved.unknownToken)}`);
  if (resolved.ids.length > MAX_CATEGORY_TOKENS) {
    return reject(`category resolves to ${resolved.ids.length} categories; at most ${MAX_CATEGORY_TOKENS} are allowed`);
  }
  return accept(resolved.ids);
}

/** The taxonomy ids of a category search: 503 when the corpus was built without categories, 400 for a token it does not know. */
export function categoriesOf(geocoder: Geocoder, tokens: string[]): string[] {
  if (!geocoder.hasCategories) throw errors.categoriesUnavailable();
  return valueOrThrow(resolveCategoryTokens(geocoder, tokens));
}

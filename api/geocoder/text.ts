import { fold, tokenize } from '../../ingest/geocoding/text/fold.ts';
import { canonicalTokens } from '../../ingest/geocoding/text/street-terms.ts';

/** Canonical tokens of a name: the one tokenization the index and the queries share. */
export function nameTokens(text: string): string[] {
  return canonicalTokens(tokenize(text));
}

/**
 * House numbers and units compare folded with spaces dropped ("12 A" = "12a" = "12-A"), except
 * between two digit runs, which keep a dash ("43 1/2" → "43-1-2", never "4312").
 */
export function compactKey(text: string): string {
  return fold(text).replace(/(\d) (?=\d)/g, '$1-').replace(/ /g, '');
}

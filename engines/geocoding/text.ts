import { tokenize } from './text/fold.ts';
import { canonicalTokens } from './text/street-terms.ts';

/** Canonical tokens of a name: the one tokenization the index and the queries share. */
export function nameTokens(text: string): string[] {
  return canonicalTokens(tokenize(text));
}

/** Autocomplete input parsing: complete words, the prefix being typed, a leading civic number. */
import { cleanDisplay, fold, tokenize } from './fold.ts';
import { CIVIC, EDGE_PUNCT, LEXEME_SPLIT, UNIT_CIVIC } from './query-lex.ts';
import { canonicalToken, canonicalTokens, isNumericOrdinal, isStreetTypeOrDirectional, prefixCanonicals } from './street-terms.ts';

export interface ParsedAutocomplete {
  /** Whole words before the prefix, folded and canonicalized, without the civic number. */
  complete: string[];
  /** Last word, folded, not canonicalized (match it raw and through prefixCanonicals); null when the input ends with a separator. */
  prefix: string | null;
  housenumber?: string;
  unit?: string;
}

const LAST_IS_WORD_CHAR = /[\p{L}\p{N}\p{M}'’ʼ`]$/u;

/**
 * Autocomplete input: hyphens split words, accents folded; the last word is the prefix unless
 * the input ends with a space or punctuation (then every word is complete and prefix is null).
 * A leading civic number ("43 han", "401-43 hann") is returned apart when more words follow.
 */
export function parseAutocomplete(raw: string): ParsedAutocomplete {
  const s = cleanDisplay(raw);
  if (fold(s) === '') return { complete: [], prefix: null };
  const endsWithSeparator = !LAST_IS_WORD_CHAR.test(raw.normalize('NFKC'));
  const lexemes = s.split(LEXEME_SPLIT).filter((x) => x !== '');
  const r: ParsedAutocomplete = { complete: [], prefix: null };
  const words: string[] = [];
  for (let i = 0; i < lexemes.length; i++) {
    const lexeme = lexemes[i]!;
    if (i === 0 && lexemes.length > 1) {
      const lower = lexeme.toLowerCase().replace(EDGE_PUNCT, '');
      const uc = UNIT_CIVIC.exec(lower);
      if (uc) { r.unit = uc[1]!; r.housenumber = uc[2]!; continue; }
      if (CIVIC.test(lower)) {
        const nextToks = tokenize(lexemes[1]!);
        const nextIsPrefix = lexemes.length === 2 && nextToks.length === 1 && !endsWithSeparator;
        const ordinalBeforeType = isNumericOrdinal(lower) && nextToks.length > 0 && (nextIsPrefix
          ? prefixCanonicals(nextToks[0]!).some(isStreetTypeOrDirectional)
          : isStreetTypeOrDirectional(canonicalToken(nextToks[0]!)));
        if (!ordinalBeforeType) { r.housenumber = lower; continue; }
      }
    }
    words.push(...tokenize(lexeme));
  }
  if (!endsWithSeparator && words.length > 0) r.prefix = words.pop()!;
  r.complete = canonicalTokens(words);
  return r;
}

/**
 * Text folding shared by the corpus build and the query engine: both sides must produce the
 * same tokens for the same text, so every comparison goes through fold()/tokenize().
 */

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_APOSTROPHES = /['`]/g;
const ASCII_NON_WORD = /[^a-z0-9]+/g;
const MARKS = /\p{M}+/gu;
const APOSTROPHES = /['`\u2019\u2018\u02bc\u02bb\u00b4\u2032]/g;
const NON_WORD = /[^\p{L}\p{N}]+/gu;
/** Letters NFD does not decompose into base + mark. */
const SPECIAL_LETTERS = /[œæßøłđðþı]/g;
const SPECIAL_MAP: Record<string, string> = {
  'œ': 'oe', 'æ': 'ae', 'ß': 'ss', 'ø': 'o', 'ł': 'l', 'đ': 'd', 'ð': 'd', 'þ': 'th', 'ı': 'i',
};
const WHITESPACE = /\s+/g;

function trimSpaces(s: string): string {
  // NON_WORD replacement leaves at most one space at each end.
  let start = 0;
  let end = s.length;
  if (end > 0 && s.charCodeAt(0) === 32) start = 1;
  if (end > start && s.charCodeAt(end - 1) === 32) end -= 1;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/**
 * NFKC, lower case, accents dropped, œ→oe æ→ae ß→ss, apostrophes removed without a space
 * (d'Youville → dyouville), every other non-letter/non-digit → one space, trimmed.
 */
export function fold(s: string): string {
  if (!NON_ASCII.test(s)) {
    return trimSpaces(s.toLowerCase().replace(ASCII_APOSTROPHES, '').replace(ASCII_NON_WORD, ' '));
  }
  // Apostrophes go before NFKC: NFKC turns ´ into space + combining accent.
  const t = s
    .replace(APOSTROPHES, '')
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(SPECIAL_LETTERS, (c) => SPECIAL_MAP[c] ?? c)
    .replace(APOSTROPHES, '')
    .replace(NON_WORD, ' ');
  return trimSpaces(t);
}

/** fold() then split on spaces; digit+letter runs stay one token ("43a", "4e", "1re"). */
export function tokenize(s: string): string[] {
  const f = fold(s);
  return f === '' ? [] : f.split(' ');
}

/** Display text: NFKC, whitespace collapsed, trimmed; case and accents kept. */
export function cleanDisplay(s: string): string {
  const t = NON_ASCII.test(s) ? s.normalize('NFKC') : s;
  return t.replace(WHITESPACE, ' ').trim();
}

const VULGAR_HALF = /\u00bd/g;
const FRACTION_SLASH = /\u2044/g;

/**
 * Comparison key of a civic number or unit: folded, spaces/dashes/# dropped, "/" kept so
 * "43 1/2" and "43½" (→ "431/2") stay apart from 4312; "43 A" = "43-A" = "43a".
 */
export function civicKey(s: string): string {
  const t = NON_ASCII.test(s) ? s.replace(VULGAR_HALF, ' 1/2').normalize('NFKC').replace(FRACTION_SLASH, '/') : s;
  if (!t.includes('/')) return fold(t).replace(/ /g, '');
  return t.split('/').map((part) => fold(part).replace(/ /g, '')).join('/');
}

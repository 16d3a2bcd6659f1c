/**
 * Canadian postal codes: A1A 1A1. No D F I O Q U anywhere; W and Z not as the first letter.
 */

const FIRST = 'ABCEGHJ-NPRSTVXY';
const OTHER = 'ABCEGHJ-NPRSTV-Z';
const CORE = `[${FIRST}]\\d[${OTHER}][ -]?\\d[${OTHER}]\\d`;

const WHOLE = new RegExp(`^\\s*([${FIRST}]\\d[${OTHER}])\\s*-?\\s*(\\d[${OTHER}]\\d)\\s*$`, 'i');

/**
 * Finds a postal code inside free text, with or without the space (or a hyphen), not glued to
 * other letters/digits. Global and case-insensitive: reset lastIndex or use String#matchAll.
 */
export const POSTCODE_IN_TEXT: RegExp = new RegExp(`(?<![\\p{L}\\p{N}])${CORE}(?![\\p{L}\\p{N}])`, 'giu');

const NON_ASCII = /[^\x00-\x7f]/;
const FSA = new RegExp(`^\\s*[${FIRST}]\\d[${OTHER}]\\s*$`, 'i');

/** Any spacing/case → `A1A 1A1`; null when not a valid Canadian postal code. */
export function parsePostcode(s: string): string | null {
  const m = WHOLE.exec(NON_ASCII.test(s) ? s.normalize('NFKC') : s);
  if (!m) return null;
  return `${m[1]!.toUpperCase()} ${m[2]!.toUpperCase()}`;
}

/** True for a forward sortation area alone ("K1A", "h3b"). */
export function isPostcodeFsa(s: string): boolean {
  return FSA.test(s);
}

/** Canonical form of a postcode found by POSTCODE_IN_TEXT. */
export function canonicalPostcodeMatch(match: string): string {
  const compact = match.replace(/[ -]/g, '').toUpperCase();
  return `${compact.slice(0, 3)} ${compact.slice(3)}`;
}

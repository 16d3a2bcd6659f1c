/**
 * Lexing for the query parsers: whitespace/comma-separated lexemes, each turned into typed
 * items, and the lookups the parsers make on those items.
 */
import { tokenize } from './fold.ts';
import { canonicalToken, isNumericOrdinal, isStreetTypeOrDirectional } from './street-terms.ts';

export type Item =
  | { kind: 'word'; tok: string; lex: number; /** the lexeme folded to this one token only */ alone: boolean }
  | { kind: 'hash'; value: string; lex: number }
  | { kind: 'unitcivic'; unit: string; civic: string; lex: number }
  | { kind: 'fraction'; value: string; lex: number };

export const LEXEME_SPLIT = /[\s,;]+/;
export const EDGE_PUNCT = /^[("'“«\[]+|[.:)"'”»\]]+$/g;
export const UNIT_CIVIC = /^#?(\d+[a-z]?|[a-z])-(\d+[a-z]?)$/;
const NUM_DASH_LETTER = /^(\d+)-([a-z])$/;
const HASH = /^#([a-z0-9]+(?:-[a-z0-9]+)?)$/;
const FRACTION = /^\d\/\d{1,2}$/;
export const CIVIC = /^\d{1,6}[a-z]?$/;
export const UNIT_VALUE = /^(?:\d+[a-z]?|[a-z]\d*|\d+-\d+|[a-z]-?\d+)$/;

export function lex(s: string): Item[] {
  const items: Item[] = [];
  const parts = s.split(LEXEME_SPLIT);
  let lexIndex = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (part === '') continue;
    const lower = part.toLowerCase().replace(EDGE_PUNCT, '');
    const lx = lexIndex++;
    if (lower === '#') {
      // "# 401" reads like "#401".
      const next = parts[p + 1]?.toLowerCase().replace(EDGE_PUNCT, '');
      if (next !== undefined && UNIT_VALUE.test(next)) {
        items.push({ kind: 'hash', value: next, lex: lx });
        p++;
        continue;
      }
    }
    let m = UNIT_CIVIC.exec(lower);
    if (m) { items.push({ kind: 'unitcivic', unit: m[1]!, civic: m[2]!, lex: lx }); continue; }
    m = NUM_DASH_LETTER.exec(lower);
    if (m) { items.push({ kind: 'word', tok: m[1]! + m[2]!, lex: lx, alone: true }); continue; }
    m = HASH.exec(lower);
    if (m) { items.push({ kind: 'hash', value: m[1]!, lex: lx }); continue; }
    if (FRACTION.test(lower)) { items.push({ kind: 'fraction', value: lower, lex: lx }); continue; }
    const toks = tokenize(part);
    for (const tok of toks) items.push({ kind: 'word', tok, lex: lx, alone: toks.length === 1 });
  }
  return items;
}

export function wordAt(items: Item[], i: number): string | undefined {
  const it = items[i];
  return it !== undefined && it.kind === 'word' ? it.tok : undefined;
}

export function matchPhrase(items: Item[], i: number, words: readonly string[]): boolean {
  for (let k = 0; k < words.length; k++) if (wordAt(items, i + k) !== words[k]) return false;
  return true;
}

/** A number-like argument at i ("123", "#2", "2a"); returns it or undefined. */
export function numberArg(items: Item[], i: number): string | undefined {
  const it = items[i];
  if (it === undefined) return undefined;
  if (it.kind === 'hash') return it.value;
  if (it.kind === 'word' && CIVIC.test(it.tok)) return it.tok;
  return undefined;
}

/**
 * Item i is a civic number: a lone number (optionally one letter: 43a) making up its whole
 * lexeme, not a French ordinal before a street type ("4e Avenue", "2e Rang").
 */
export function isLeadingCivic(items: Item[], i: number): boolean {
  const it = items[i];
  if (it === undefined || it.kind !== 'word' || !it.alone || !CIVIC.test(it.tok)) return false;
  if (isNumericOrdinal(it.tok)) {
    const next = items[i + 1];
    if (next !== undefined && next.kind === 'word' && isStreetTypeOrDirectional(canonicalToken(next.tok))) return false;
  }
  return true;
}

import type { CorpusPlace } from '../corpus.ts';
import { nameTokens } from '../text.ts';

/**
 * Every text of a place that search matches: default name and every language-keyed label.
 * None for an unnamed POI (its name is its category's): nearby and /places/nearby find it, name search never.
 */
export function placeTexts(p: CorpusPlace): string[] {
  if (p.named === false) return [];
  const out = p.name ? [p.name] : [];
  for (const v of Object.values(p.names)) if (v && !out.includes(v)) out.push(v);
  return out;
}

export interface Dictionary {
  /** Sorted unique tokens; token id = rank. */
  tokens: string[];
  idOf: Map<string, number>;
}

/** Tokens of every place text and of every display city, sorted (JS code-unit order). */
export function buildDictionary(places: readonly CorpusPlace[]): Dictionary {
  const seen = new Set<string>();
  for (const p of places) {
    for (const text of placeTexts(p)) for (const t of nameTokens(text)) seen.add(t);
    if (p.city) for (const t of nameTokens(p.city)) seen.add(t);
  }
  const tokens = [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const idOf = new Map<string, number>();
  for (let i = 0; i < tokens.length; i++) idOf.set(tokens[i]!, i);
  return { tokens, idOf };
}

/** Sorted unique token ids of a text (tokens missing from the dictionary are skipped). */
export function tokenIdsOf(text: string, dict: Dictionary): number[] {
  const ids: number[] = [];
  for (const t of nameTokens(text)) {
    const id = dict.idOf.get(t);
    if (id !== undefined) ids.push(id);
  }
  return sortUnique(ids);
}

export function sortUnique(ids: number[]): number[] {
  ids.sort((a, b) => a - b);
  let w = 0;
  for (let r = 0; r < ids.length; r++) if (r === 0 || ids[r] !== ids[r - 1]) ids[w++] = ids[r]!;
  ids.length = w;
  return ids;
}

/** FNV-1a over a sorted unique token-id list: identifies a name's token set. */
export function tokenSetHash(ids: ArrayLike<number>): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < ids.length; i++) {
    let v = ids[i]!;
    for (let b = 0; b < 4; b++) {
      h ^= v & 0xff;
      h = Math.imul(h, 0x01000193);
      v >>>= 8;
    }
  }
  return h >>> 0;
}

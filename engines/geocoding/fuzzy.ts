import { distance } from 'fastest-levenshtein';
import { canonicalToken } from './text/street-terms.ts';
import { indexOfSorted, prefixRange } from './index/strings.ts';

/**
 * Street types and directionals are indexed by their canonical abbreviation (street → st), so a
 * misspelt long form ("stret", "boulvard") is compared with these words instead.
 */
const STREET_WORDS = [
  'street', 'avenue', 'road', 'drive', 'boulevard', 'crescent', 'court', 'place', 'lane', 'terrace', 'highway',
  'parkway', 'circle', 'square', 'trail', 'chemin', 'route', 'montee', 'impasse', 'promenade', 'north', 'south',
  'east', 'west', 'nord', 'ouest', 'saint', 'sainte', 'mount', 'heights', 'point', 'centre', 'center',
];

const MAX_ALTERNATIVES = 8;
/** Bounded scan: dictionary entries sharing the first letter, length within the edit budget. */
const MAX_SCAN = 60_000;

/**
 * Typo alternatives of a token missing from the dictionary (search only): tokens within
 * Levenshtein 1 (2 from 8 characters; a swap of neighbouring letters counts as one edit),
 * closest first, then most used. Tokens shorter than 4
 * characters or holding digits get none.
 */
export function typoAlternatives(
  tokens: readonly string[],
  token: string,
  usage: (id: number) => number,
  /** The token's own id when the dictionary has it (never its own alternative). */
  self = -1,
): number[] {
  if (token.length < 4 || /\d/.test(token)) return [];
  const budget = token.length >= 8 ? 2 : 1;
  const [lo, hi] = prefixRange(tokens, token[0]!);
  const found: Array<{ id: number; d: number; use: number }> = [];
  const end = Math.min(hi, lo + MAX_SCAN);
  for (let id = lo; id < end; id++) {
    if (id === self) continue;
    const t = tokens[id]!;
    if (Math.abs(t.length - token.length) > budget) continue;
    const d = editDistance(token, t, budget);
    if (d > budget) continue;
    found.push({ id, d, use: usage(id) });
  }
  for (const word of STREET_WORDS) {
    if (Math.abs(word.length - token.length) > budget) continue;
    const d = editDistance(token, word, budget);
    if (d > budget) continue;
    const id = indexOfSorted(tokens, canonicalToken(word));
    if (id >= 0 && id !== self) found.push({ id, d, use: usage(id) });
  }
  if (!found.length) return [];
  const best = Math.min(...found.map((f) => f.d));
  return found
    .filter((f) => f.d === best)
    .sort((x, y) => y.use - x.use || x.id - y.id)
    .slice(0, MAX_ALTERNATIVES)
    .map((f) => f.id);
}

/** Levenshtein, except that a swap of two neighbouring letters costs one edit ("mian" → "main"). */
function editDistance(a: string, b: string, budget: number): number {
  const d = distance(a, b);
  return d === budget + 1 ? Math.min(d, transpositionDistance(a, b)) : d;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function transpositionDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m]!;
}

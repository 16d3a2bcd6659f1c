import { canonicalToken, isStreetTypeOrDirectional, prefixCanonicals } from './text/street-terms.ts';
import { typoAlternatives } from './fuzzy.ts';
import { LOCALITY_IMPORTANCE_FLOOR } from './index/importance.ts';
import { L_LOCALITY } from './index/sections.ts';
import { indexOfSorted, prefixRange } from './index/strings.ts';
import type { IndexView } from './index/view.ts';

/**
 * any: the row's own names or its context (locality, city, region); name: own names only;
 * city: context only (structured `city` against a street), or a locality row's own names.
 */
export type TermRole = 'any' | 'name' | 'city';

/** One query word and every dictionary token that satisfies it. */
export interface Term {
  text: string;
  /** Token ids matching as written (canonical form, prefix canonicals). */
  exact: number[];
  /** Token ids reached through typo tolerance only. */
  fuzzy: number[];
  /** Token id ranges (autocomplete prefix). */
  ranges: Array<readonly [number, number]>;
  /** Autocomplete prefix of 1..3 characters: candidates come from the short-prefix table. */
  shortPrefix: string | null;
  weight: number;
  /** Street type or directional: never enough on its own to select a row. */
  weak: boolean;
  /** Trailing country word ("canada"): ignored when nothing matches it. */
  optional: boolean;
  /** Province spelling at the tail of the query (two-letter code). */
  region: string | null;
  role: TermRole;
  /** Localities having this word in a name (most important first): a row near one is "in" it. */
  localities: number[];
  /** Token ids this word also matches in a street's own name ("rue" on "Granville Street"). */
  onStreets?: number[];
}

/** A French street type on an English-named street names the same street ("rue Granville"). */
const SAME_ON_STREETS: Record<string, string> = { rue: 'st' };

const COUNTRY_WORDS = new Set(['canada', 'ca', 'can']);
export const WEAK_WEIGHT = 0.4;
export const REGION_WEIGHT = 0.6;

export interface WordTermOptions {
  role: TermRole;
  typos: boolean;
  regions?: ReadonlyArray<{ code: string; start: number; end: number }>;
}

/** Whole-word terms (search, structured, autocomplete's completed words). */
export function wordTerms(view: IndexView, tokens: readonly string[], options: WordTermOptions): Term[] {
  const regionOf = new Array<string | null>(tokens.length).fill(null);
  const spanLength = new Array<number>(tokens.length).fill(1);
  for (const span of options.regions ?? []) {
    for (let i = span.start; i < span.end; i++) {
      regionOf[i] = span.code;
      spanLength[i] = span.end - span.start;
    }
  }
  const optional = new Array<boolean>(tokens.length).fill(false);
  for (let i = tokens.length - 1; i > 0; i--) {
    if (regionOf[i]) continue;
    if (!COUNTRY_WORDS.has(tokens[i]!)) break;
    optional[i] = true;
  }
  const terms: Term[] = tokens.map((text, i) => {
    const id = indexOfSorted(view.tokens, text);
    const exact = id >= 0 ? [id] : [];
    const fuzzy = options.typos ? typos(view, text, id) : [];
    const weak = isStreetTypeOrDirectional(text);
    const region = regionOf[i]!;
    const same = Object.hasOwn(SAME_ON_STREETS, text) ? indexOfSorted(view.tokens, SAME_ON_STREETS[text]!) : -1;
    return {
      text, exact, fuzzy, ranges: [], shortPrefix: null,
      weight: optional[i] ? 0 : region ? REGION_WEIGHT / spanLength[i]! : weak ? WEAK_WEIGHT : 1,
      weak, optional: optional[i]!, region, role: options.role, localities: [],
      ...(same >= 0 ? { onStreets: [same] } : {}),
    };
  });
  attachLocalities(view, terms);
  return terms;
}

const MAX_NAMED_LOCALITIES = 32;

/**
 * Sets each term's `localities`: localities having one of its words whose whole display name the
 * query spells out (every name word is one of the query's words or within its prefix range).
 */
export function attachLocalities(view: IndexView, terms: Term[]): void {
  const named = new Set<number>();
  for (const t of terms) for (const id of [...t.exact, ...t.fuzzy]) named.add(id);
  const isNamed = (id: number) => named.has(id) || terms.some((t) => t.ranges.some(([lo, hi]) => id >= lo && id < hi));
  for (const t of terms) {
    t.localities = t.ranges.length
      ? typedLocalities(view, t.ranges, isNamed)
      : namedLocalities(view, [...t.exact, ...t.fuzzy], isNamed);
  }
}

/**
 * Autocomplete: localities being typed — a name word within the prefix range, every word
 * before it already in the query ("north van" → North Vancouver, "chil" → Chilliwack Bay).
 */
function typedLocalities(view: IndexView, ranges: ReadonlyArray<readonly [number, number]>, isNamed: (id: number) => boolean): number[] {
  const out: number[] = [];
  const { offsets, ids } = localityWords(view);
  const localities = view.localityIds;
  const single = ranges.length === 1;
  const lo = single ? ranges[0]![0] : 0;
  const hi = single ? ranges[0]![1] : 0;
  for (let j = 0; j < localities.length; j++) {
    const from = offsets[j]!;
    const to = offsets[j + 1]!;
    for (let k = from; k < to; k++) {
      const id = ids[k]!;
      if (single ? id >= lo && id < hi : ranges.some(([l, h]) => id >= l && id < h)) {
        let typed = true;
        for (let p = from; p < k && typed; p++) typed = isNamed(ids[p]!);
        if (typed) out.push(localities[j]!);
        break;
      }
    }
    if (out.length >= MAX_NAMED_LOCALITIES) break;
  }
  return out;
}

const flatLocalityWords = new WeakMap<IndexView, { offsets: Uint32Array; ids: Int32Array }>();

/** Every locality's display-name token ids (view.localityNameIds) in one array, in localityIds order. */
function localityWords(view: IndexView): { offsets: Uint32Array; ids: Int32Array } {
  let flat = flatLocalityWords.get(view);
  if (!flat) {
    const offsets = new Uint32Array(view.localityIds.length + 1);
    const lists: Int32Array[] = [];
    for (let j = 0; j < view.localityIds.length; j++) {
      const words = view.localityNameIds(view.localityIds[j]!);
      lists.push(words);
      offsets[j + 1] = offsets[j]! + words.length;
    }
    const ids = new Int32Array(offsets[view.localityIds.length]!);
    for (let j = 0; j < lists.length; j++) ids.set(lists[j]!, offsets[j]!);
    flatLocalityWords.set(view, (flat = { offsets, ids }));
  }
  return flat;
}

function namedLocalities(view: IndexView, tokenIds: readonly number[], isNamed: (id: number) => boolean): number[] {
  const { plPostOffsets: off, plPostIds: ids, entLayer, entImportance } = view.a;
  const out: number[] = [];
  for (const t of tokenIds) {
    for (let k = off[t]!; k < off[t + 1]! && out.length < MAX_NAMED_LOCALITIES; k++) {
      const e = ids[k]!;
      // Postings run by importance; no locality ranks below the locality floor.
      if (entImportance[e]! < LOCALITY_IMPORTANCE_FLOOR) break;
      if (entLayer[e] !== L_LOCALITY || out.includes(e)) continue;
      if (view.localityNameIds(e).every(isNamed)) out.push(e);
    }
  }
  return out;
}

/** Autocomplete's last word: a token-id range plus canonical street terms it may abbreviate. */
export function prefixTerm(view: IndexView, prefix: string): Term {
  const exact: number[] = [];
  for (const c of [canonicalToken(prefix), ...prefixCanonicals(prefix)]) {
    const id = indexOfSorted(view.tokens, c);
    if (id >= 0 && !exact.includes(id)) exact.push(id);
  }
  const range = prefixRange(view.tokens, prefix);
  return {
    text: prefix, exact, fuzzy: [], ranges: range[1] > range[0] ? [range] : [],
    shortPrefix: prefix.length <= 3 ? prefix : null,
    weight: 1, weak: false, optional: false, region: null, role: 'any', localities: [],
  };
}

/** Below this many rows a dictionary word may itself be a typo in the data ("Vancovuer"). */
const RARE_WORD = 3;

function typos(view: IndexView, text: string, id: number): number[] {
  const usage = (t: number) => postingSize(view, t);
  if (id < 0) return typoAlternatives(view.tokens, text, usage);
  const own = usage(id);
  if (own > RARE_WORD) return [];
  // A rare word also reaches a much more common near-spelling.
  return typoAlternatives(view.tokens, text, usage, id).filter((t) => usage(t) >= 4 * Math.max(1, own));
}

function postingSize(view: IndexView, token: number): number {
  const { plPostOffsets: p, stPostOffsets: s } = view.a;
  return p[token + 1]! - p[token]! + s[token + 1]! - s[token]!;
}

export function hasTokens(term: Term): boolean {
  return term.exact.length > 0 || term.fuzzy.length > 0 || term.ranges.length > 0;
}

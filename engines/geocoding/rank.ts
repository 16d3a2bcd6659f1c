import { distance as greatCircleKm } from 'geokdbush';
import { sortUnique, tokenSetHash } from './index/dictionary.ts';
import { L_LOCALITY, L_POI, L_REGION, L_STREET } from './index/sections.ts';
import type { IndexView } from './index/view.ts';
import { distinctCount, type TermMatch } from './match.ts';

/**
 * Ranking: a sum of bounded signals, most important first —
 *   share of the query explained (own names or context)   0..4
 *   share of the row's name the query covers              0..1
 *   exact name (search only; an alternate counts)         0 or 1
 *   static prominence (population, address count, ...)    0..1
 *   layer weight                                          ~0..1.5
 *   city named in the query is the row's city (search)    0..1 (share of its name)
 *   focus (search): 1.5 at the point, 1.5·e^-1 at 25 km
 * minus penalties for typos, unmatched words, contradicted regions and address details that differ.
 * Scores compare rows of one query only.
 */
export const W = {
  terms: 4,
  coverage: 1,
  exactName: 1,
  importance: 1,
  city: 1,
  regionOk: 0.2,
  regionDiffers: 1,
  fuzzy: 0.4,
  /** Per query word nothing in the row or its context accounts for. */
  unmatched: 0.6,
  focus: 1.5,
  focusKm: 25,
  addressFound: 1.6,
  housenumberDiffers: 0.6,
  postcodeOk: 0.5,
  postcodeDiffers: 0.6,
  unitOk: 0.2,
  unitDiffers: 0.2,
} as const;

/** Layer weight when no civic number was asked. */
const LAYER_WEIGHT: Record<number, number> = { [L_REGION]: 0.3, [L_LOCALITY]: 0.5, [L_STREET]: 0.4, [L_POI]: 0.4 };
/** Layer weight of a row standing in for (or besides) an asked civic number. */
const LAYER_WEIGHT_WITH_NUMBER: Record<number, number> = { [L_REGION]: -0.4, [L_LOCALITY]: -0.3, [L_STREET]: 0.1, [L_POI]: 0.2 };
/** Autocomplete: per-layer weight (addresses rank above their street once a number is typed). */
const LAYER_WEIGHT_AUTOCOMPLETE: Record<number, number> = { [L_REGION]: 0.5, [L_LOCALITY]: 0.6, [L_STREET]: 0.4, [L_POI]: 0.3 };
export const AUTOCOMPLETE_ADDRESS_WEIGHT = 0.9;

export function nameCoverage(view: IndexView, e: number, m: TermMatch): number {
  const distinct = distinctCount(m.ownIds);
  const size = Math.max(view.a.entNameTokCount[e]!, distinct, 1);
  return distinct / size;
}

/** The own-name tokens the query matched are exactly one of the row's names. */
export function isExactName(view: IndexView, e: number, m: TermMatch): boolean {
  if (!m.ownIds.length) return false;
  const h = tokenSetHash(sortUnique([...m.ownIds]));
  const { entNameHashOffsets: off, entNameHashes: hashes } = view.a;
  for (let k = off[e]!; k < off[e + 1]!; k++) if (hashes[k] === h) return true;
  return false;
}

export interface SearchRankOptions {
  withNumber: boolean;
}

export function searchScore(view: IndexView, e: number, m: TermMatch, opts: SearchRankOptions): number {
  const layer = view.a.entLayer[e]!;
  let s = W.terms * m.fraction + W.coverage * nameCoverage(view, e, m) + W.importance * view.a.entImportance[e]!;
  if (m.unmatched === 0 && m.fuzzy === 0 && isExactName(view, e, m)) s += W.exactName;
  s += (opts.withNumber ? LAYER_WEIGHT_WITH_NUMBER : LAYER_WEIGHT)[layer] ?? 0;
  s += W.city * m.cityCoverage;
  if (m.region === 'ok') s += W.regionOk;
  if (m.region === 'differs') s -= W.regionDiffers;
  s -= W.fuzzy * m.fuzzy;
  s -= W.unmatched * m.unmatched;
  return s;
}

/** What bounds a search query's scores (bounded.ts boundQuery). */
export interface SearchBoundQuery {
  terms: number;
  /** tokenSetHash of the token sets the words can match exactly; null: any name may match. */
  exactHashes: readonly number[] | null;
  /** A word may match a row's locality or city (the city signal). */
  context: boolean;
  /** A word names a province (regionOk). */
  region: boolean;
}

/**
 * Highest searchScore (no civic number asked) a row can reach: every term matched, as many name
 * tokens covered as words match its own names, the exact-name bonus only when one of its names is
 * a token set the words can match, the city signal only when a word can give it (and then does not
 * match the row's own names), the region signal when a word names a province. Evaluated in
 * searchScore's order so rounding keeps it an upper bound.
 */
export function searchBound(view: IndexView, e: number, q: SearchBoundQuery): number {
  const a = view.a;
  const size = a.entNameTokCount[e]!;
  const importance = W.importance * a.entImportance[e]!;
  const exact = q.exactHashes === null || hasNameHash(view, e, q.exactHashes);
  const layer = LAYER_WEIGHT[a.entLayer[e]!] ?? 0;
  // Every word in the row's own names; a row matches at least one word in its own names, so with
  // one word there is no city signal. Else also: one word fewer in its own names, the city signal full.
  const all = boundOf(size, q.terms, importance, exact, layer, 0, q.region);
  return !q.context || q.terms < 2 ? all : Math.max(all, boundOf(size, q.terms - 1, importance, exact, layer, 1, q.region));
}

/** searchScore's sum with every term matched, `own` words in the row's own names (same order, same rounding). */
function boundOf(size: number, own: number, importance: number, exact: boolean, layer: number, city: number, region: boolean): number {
  let s = W.terms * 1 + W.coverage * (own / Math.max(size, own, 1)) + importance;
  if (exact) s += W.exactName;
  s += layer;
  s += W.city * city;
  if (region) s += W.regionOk;
  return s;
}

function hasNameHash(view: IndexView, e: number, hashes: readonly number[]): boolean {
  const { entNameHashOffsets: off, entNameHashes: names } = view.a;
  for (let k = off[e]!; k < off[e + 1]!; k++) if (hashes.includes(names[k]!)) return true;
  return false;
}

export function autocompleteScore(view: IndexView, e: number, m: TermMatch): number {
  const layer = view.a.entLayer[e]!;
  return W.terms * m.fraction + 0.5 * W.coverage * nameCoverage(view, e, m)
    + W.importance * view.a.entImportance[e]!
    + (LAYER_WEIGHT_AUTOCOMPLETE[layer] ?? 0);
}

/**
 * Highest autocompleteScore a row can reach with `termCount` query terms (every term matched, as
 * many distinct name tokens as terms): rows below the current limit-th score need no matching.
 * Evaluated in autocompleteScore's order so rounding keeps it an upper bound.
 */
export function autocompleteBound(view: IndexView, e: number, termCount: number): number {
  const layer = view.a.entLayer[e]!;
  const coverage = Math.min(1, termCount / Math.max(1, view.a.entNameTokCount[e]!));
  return W.terms * 1 + 0.5 * W.coverage * coverage
    + W.importance * view.a.entImportance[e]!
    + (LAYER_WEIGHT_AUTOCOMPLETE[layer] ?? 0);
}

export function focusBonus(focus: { lng: number; lat: number } | undefined, lng: number, lat: number): number {
  if (!focus) return 0;
  return W.focus * Math.exp(-greatCircleKm(focus.lng, focus.lat, lng, lat) / W.focusKm);
}

import { parseAutocomplete } from './text/autocomplete-parse.ts';
import type { EngineContext } from './context.ts';
import { pickAddress, prepareCivic } from './housenumber.ts';
import { L_STREET } from './index/sections.ts';
import { matchTerms } from './match.ts';
import { AUTOCOMPLETE_ADDRESS_WEIGHT, autocompleteBound, autocompleteScore } from './rank.ts';
import { toGeocodeResult, type Hit } from './results.ts';
import { attachLocalities, hasTokens, prefixTerm, wordTerms, type Term } from './terms.ts';
import { localityScope } from './scope.ts';
import type { GeocodeResult } from './types.ts';

const AUTOCOMPLETE_CAP = 4000;

/**
 * GET /geocode/autocomplete: the last word is a prefix, earlier words whole tokens, in any order,
 * all required (own names or the row's locality / city / province). Three characters or fewer
 * answer localities, provinces and POIs only. Ranking: term match, prominence, layer weight.
 */
export function autocomplete(ctx: EngineContext, q: string, controls: { lang: string; limit: number }): GeocodeResult[] {
  return autocompleteHits(ctx, q, controls.limit).map((hit) =>
    toGeocodeResult(ctx.view, hit, { lang: controls.lang, withScore: true, matchApplies: false }));
}

export function autocompleteHits(ctx: EngineContext, q: string, limit: number): Hit[] {
  const view = ctx.view;
  const short = [...q.trim()].length <= 3;
  const parsed = parseAutocomplete(q);
  const terms = wordTerms(view, parsed.complete, { role: 'any', typos: false });
  if (parsed.prefix) terms.push(prefixTerm(view, parsed.prefix));
  if (!terms.length || !terms.every(hasTokens)) return [];
  attachLocalities(view, terms);
  const scope = localityScope(view, terms);
  const strongTerms = terms.some((t) => !t.weak);

  const hits: Hit[] = [];
  // Scores of the best `limit` hits so far (descending): a row whose best reachable score is
  // below the last of them cannot enter the answer, so it is not matched at all.
  const best: number[] = [];
  const keep = (score: number) => {
    if (limit <= 0) return;
    let i = best.length;
    while (i > 0 && best[i - 1]! < score) i--;
    if (i >= limit) return;
    best.splice(i, 0, score);
    if (best.length > limit) best.pop();
  };
  const hopeless = (e: number, extra: number) =>
    best.length >= limit && autocompleteBound(view, e, terms.length) + extra < best[best.length - 1]!;
  // Every term must match: the term that last rejected a row is tried alone first (a term is
  // matched or not independently of the others), which rejects most candidates cheaply.
  const hard: Term[] = [];
  const consider = (e: number) => {
    if (hard.length && matchTerms(view, hard, e).unmatched > 0) return null;
    const m = matchTerms(view, terms, e);
    if (m.unmatched > 0) {
      hard[0] = terms[m.firstUnmatched]!;
      return null;
    }
    if (strongTerms ? m.strongOwn === 0 : m.ownCount === 0) return null;
    return autocompleteScore(view, e, m);
  };
  for (const e of ctx.collector.collect(terms, 'places', AUTOCOMPLETE_CAP, scope)) {
    if (hopeless(e, 0)) continue;
    const score = consider(e);
    if (score === null) continue;
    hits.push({ entity: e, address: -1, score, reasons: [], fallback: false });
    keep(score);
  }
  if (!short) {
    const civic = parsed.housenumber !== undefined ? prepareCivic(view, parsed.housenumber, parsed.unit, undefined) : null;
    if (civic) civic.near.clear();
    const extra = civic ? AUTOCOMPLETE_ADDRESS_WEIGHT : 0;
    for (const e of ctx.collector.collect(terms, 'streets', AUTOCOMPLETE_CAP, scope)) {
      if (view.a.entLayer[e] !== L_STREET || hopeless(e, extra)) continue;
      const score = consider(e);
      if (score === null) continue;
      const pick = civic ? pickAddress(view, e, civic) : null;
      const hit: Hit = pick
        ? { entity: e, address: pick.address, score: score + AUTOCOMPLETE_ADDRESS_WEIGHT, reasons: [], fallback: false }
        : { entity: e, address: -1, score, reasons: [], fallback: false };
      hits.push(hit);
      keep(hit.score);
    }
  }
  hits.sort((x, y) => y.score - x.score || x.entity - y.entity || x.address - y.address);
  return hits.slice(0, limit);
}


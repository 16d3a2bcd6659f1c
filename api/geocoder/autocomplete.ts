import { parseAutocomplete } from '../../ingest/geocoding/text/query-parse.ts';
import type { EngineContext } from './context.ts';
import { pickAddress, prepareCivic } from './housenumber.ts';
import { L_STREET } from './index/sections.ts';
import { matchTerms } from './match.ts';
import { AUTOCOMPLETE_ADDRESS_WEIGHT, autocompleteScore } from './rank.ts';
import { toGeocodeResult, type Hit } from './results.ts';
import { attachLocalities, hasTokens, prefixTerm, wordTerms } from './terms.ts';
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
  const consider = (e: number) => {
    const m = matchTerms(view, terms, e);
    if (m.unmatched > 0 || (strongTerms ? m.strongOwn === 0 : m.ownCount === 0)) return null;
    return autocompleteScore(view, e, m);
  };
  for (const e of ctx.collector.collect(terms, 'places', AUTOCOMPLETE_CAP, scope)) {
    const score = consider(e);
    if (score !== null) hits.push({ entity: e, address: -1, score, reasons: [], fallback: false });
  }
  if (!short) {
    const civic = parsed.housenumber !== undefined ? prepareCivic(view, parsed.housenumber, parsed.unit, undefined) : null;
    if (civic) civic.near.clear();
    for (const e of ctx.collector.collect(terms, 'streets', AUTOCOMPLETE_CAP, scope)) {
      if (view.a.entLayer[e] !== L_STREET) continue;
      const score = consider(e);
      if (score === null) continue;
      const pick = civic ? pickAddress(view, e, civic) : null;
      if (pick) hits.push({ entity: e, address: pick.address, score: score + AUTOCOMPLETE_ADDRESS_WEIGHT, reasons: [], fallback: false });
      else hits.push({ entity: e, address: -1, score, reasons: [], fallback: false });
    }
  }
  hits.sort((x, y) => y.score - x.score || x.entity - y.entity || x.address - y.address);
  return hits.slice(0, limit);
}

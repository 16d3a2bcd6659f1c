import { bboxContains } from '../../lib/geo/bbox.ts';
import { resolveRegion } from './text/provinces.ts';
import { parseQuery } from './text/query-parse.ts';
import type { EngineContext } from './context.ts';
import { runCore } from './core.ts';
import { postcodeSearch, wordsDescribePostcodeArea } from './postcode-search.ts';
import { toGeocodeResult, type Hit } from './results.ts';
import { wordTerms } from './terms.ts';
import { GeocodeQueryError, RESULT_LAYERS, type GeocodeResult, type SearchControls } from './types.ts';

export const DELIVERY_ONLY_MESSAGE = 'query has only postal delivery terms; add a community';

/** GET /geocode/search (and each batch entry). */
export function search(ctx: EngineContext, q: string, controls: SearchControls): GeocodeResult[] {
  return searchHits(ctx, q, controls).map((hit) =>
    toGeocodeResult(ctx.view, hit, { lang: controls.lang, withScore: true, matchApplies: true }));
}

export function searchHits(ctx: EngineContext, q: string, controls: SearchControls): Hit[] {
  const view = ctx.view;
  const parsed = parseQuery(q);
  const terms = wordTerms(view, parsed.tokens, { role: 'any', typos: true, regions: parsed.regions });
  const community = terms.filter((t) => !t.optional && t.region === null);
  if (parsed.delivery && community.length === 0) throw new GeocodeQueryError(DELIVERY_ONLY_MESSAGE);

  const layers = new Set(controls.layers ?? RESULT_LAYERS);
  const postcodeOnly = parsed.postcode !== undefined && (
    !terms.some((t) => !t.optional) || (parsed.housenumber === undefined && wordsDescribePostcodeArea(view, terms, parsed.postcode)));
  if (postcodeOnly) {
    return postcodeSearch(view, {
      postcode: parsed.postcode!,
      ...(parsed.housenumber !== undefined ? { housenumber: parsed.housenumber } : {}),
      layers, limit: controls.limit,
      ...(controls.bbox ? { bbox: controls.bbox } : {}),
      ...(controls.region ? { region: controls.region } : {}),
    });
  }
  if (!terms.some((t) => !t.optional)) return [];

  if (parsed.delivery) {
    // Rural route / general delivery: the community is the most precise place there is.
    for (const l of RESULT_LAYERS) if (l !== 'locality') layers.delete(l);
  }
  const hits = runCore(view, ctx.collector, {
    terms,
    ...(parsed.housenumber !== undefined && !parsed.delivery ? { housenumber: parsed.housenumber } : {}),
    ...(parsed.unit !== undefined && !parsed.delivery ? { unit: parsed.unit } : {}),
    ...(parsed.postcode !== undefined ? { postcode: parsed.postcode } : {}),
    layers,
    ...(controls.bbox ? { bbox: controls.bbox } : {}),
    ...(controls.region ? { region: controls.region } : {}),
    ...(controls.focus ? { focus: controls.focus } : {}),
    limit: controls.limit,
    allFallback: parsed.delivery,
  });
  const wholeRegion = parsed.housenumber === undefined ? resolveRegion(q) : null;
  return wholeRegion ? regionFirst(ctx, hits, wholeRegion, layers, controls) : hits;
}

/**
 * A query that is exactly a province spelling ("Nfld.", "T.N.-O.", "Province of Quebec") names
 * the province: it comes first even when its words match other rows better ("Québec" the city).
 */
function regionFirst(ctx: EngineContext, hits: Hit[], code: string, layers: ReadonlySet<string>, controls: SearchControls): Hit[] {
  const view = ctx.view;
  const e = view.meta.regionEntity[code];
  if (e === undefined || !layers.has('region')) return hits;
  if (controls.region !== undefined && controls.region !== code) return hits;
  const lng = view.a.entLng[e]!;
  const lat = view.a.entLat[e]!;
  const b = controls.bbox;
  if (b && !bboxContains(b, lng, lat)) return hits;
  const rest = hits.filter((h) => h.entity !== e);
  const top = rest.length ? rest[0]!.score : 0;
  const own = hits.find((h) => h.entity === e)?.score ?? 0;
  const first: Hit = { entity: e, address: -1, score: Math.max(own, top + 0.1), reasons: [], fallback: false };
  return [first, ...rest].slice(0, controls.limit);
}

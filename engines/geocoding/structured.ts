import { tokenize } from './text/fold.ts';
import { parsePostcode } from './text/postcode.ts';
import { regionTokenSpans } from './text/provinces.ts';
import { parseStreetLine } from './text/query-parse.ts';
import { canonicalTokens } from './text/street-terms.ts';
import type { EngineContext } from './context.ts';
import { runCore } from './core.ts';
import { postcodeSearch } from './postcode-search.ts';
import { toGeocodeResult, type Hit } from './results.ts';
import { wordTerms, type Term } from './terms.ts';
import { RESULT_LAYERS, type GeocodeResult, type ResultLayer, type SearchControls, type StructuredInput } from './types.ts';

/**
 * GET /geocode/structured. `address` (street line) and `city` retrieve and rank; `region` and
 * `postalcode` narrow: a row contradicting them is dropped, a row silent about them is kept
 * with region_not_verified / postalcode_not_verified.
 */
export function structured(ctx: EngineContext, input: StructuredInput, controls: SearchControls): GeocodeResult[] {
  return structuredHits(ctx, input, controls).map((hit) =>
    toGeocodeResult(ctx.view, hit, { lang: controls.lang, withScore: true, matchApplies: true }));
}

export function structuredHits(ctx: EngineContext, input: StructuredInput, controls: SearchControls): Hit[] {
  const view = ctx.view;
  const line = input.address ? parseStreetLine(input.address) : undefined;
  const postcode = input.postalcode ? parsePostcode(input.postalcode) ?? undefined : undefined;
  const cityTerms = input.city ? cityWordTerms(ctx, input.city) : [];
  const allowed = new Set(controls.layers ?? RESULT_LAYERS);
  const common = {
    ...(controls.bbox ? { bbox: controls.bbox } : {}),
    ...(controls.region ? { region: controls.region } : {}),
    ...(controls.focus ? { focus: controls.focus } : {}),
    limit: controls.limit,
  };

  if (line && line.tokens.length) {
    const streetTerms = wordTerms(view, line.tokens, { role: 'name', typos: true });
    return runCore(view, ctx.collector, {
      terms: [...streetTerms, ...cityTerms.map((t) => ({ ...t, role: 'city' as const }))],
      placeTerms: cityTerms,
      housenumber: line.housenumber,
      unit: line.unit,
      postcode,
      layers: only(allowed, ['address', 'street', 'locality']),
      addressAsked: true,
      postcodeExcludes: true,
      ...common,
    });
  }
  if (cityTerms.length) {
    return runCore(view, ctx.collector, {
      terms: cityTerms,
      postcode,
      layers: only(allowed, ['locality']),
      postcodeExcludes: true,
      ...common,
    });
  }
  if (postcode) return postcodeSearch(view, { postcode, layers: allowed, ...common });
  return [];
}

function cityWordTerms(ctx: EngineContext, city: string): Term[] {
  const raw = tokenize(city);
  return wordTerms(ctx.view, canonicalTokens(raw), { role: 'any', typos: true, regions: regionTokenSpans(raw) });
}

function only(allowed: ReadonlySet<ResultLayer>, layers: ResultLayer[]): Set<ResultLayer> {
  return new Set(layers.filter((l) => allowed.has(l)));
}

import { parseQuery } from './text/query-parse.ts';
import type { EngineContext } from './context.ts';
import { runCore } from './core.ts';
import { L_POI } from './index/sections.ts';
import type { IndexView } from './index/view.ts';
import { nearbyHits } from './nearby.ts';
import { entityCity, entityName, type Hit } from './results.ts';
import { civicKey } from './text/fold.ts';
import { wordTerms } from './terms.ts';
import type { NearbyInput, PlaceRecord } from './types.ts';
import type { BBox } from '../../lib/geo/bbox.ts';

export interface PlacesSearchControls {
  lang: string;
  limit: number;
  bbox?: BBox;
  focus?: { lng: number; lat: number };
  categories?: string[];
}

/** GET /places/search: points of interest by name (never cities or streets). */
export function placesSearch(ctx: EngineContext, q: string, controls: PlacesSearchControls): PlaceRecord[] {
  const view = ctx.view;
  const parsed = parseQuery(q);
  // A leading number is part of a name here ("7-Eleven", "1 Oak Café"), not a civic number.
  const tokens = parsed.housenumber !== undefined ? [civicKey(parsed.housenumber), ...parsed.tokens] : parsed.tokens;
  const regions = parsed.housenumber !== undefined
    ? parsed.regions.map((r) => ({ ...r, start: r.start + 1, end: r.end + 1 }))
    : parsed.regions;
  const terms = wordTerms(view, tokens, { role: 'any', typos: true, regions });
  if (!terms.some((t) => !t.optional)) return [];
  let categories: Set<number> | undefined;
  if (controls.categories) {
    categories = new Set();
    for (const id of controls.categories) {
      const c = view.categoryIndex.get(id);
      if (c !== undefined) categories.add(c);
    }
    if (!categories.size) return [];
  }
  const hits = runCore(view, ctx.collector, {
    terms,
    layers: new Set(['poi']),
    ...(controls.bbox ? { bbox: controls.bbox } : {}),
    ...(controls.focus ? { focus: controls.focus } : {}),
    ...(categories ? { categories } : {}),
    limit: controls.limit,
  });
  return hits.map((hit) => placeRecord(view, hit, controls.lang));
}

/** GET /places/nearby: as /geocode/nearby, as place records with distance. */
export function placesNearby(ctx: EngineContext, input: NearbyInput): PlaceRecord[] {
  return nearbyHits(ctx, input).map((hit) => placeRecord(ctx.view, hit, input.lang));
}

/** GET /places/{id}: a POI by its held id; undefined for anything else. */
export function placeById(ctx: EngineContext, id: string, lang: string): PlaceRecord | undefined {
  const view = ctx.view;
  const order = view.a.poiByIdOrder;
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (view.str(view.a.entId[order[mid]!]!) < id) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= order.length) return undefined;
  const e = order[lo]!;
  if (view.str(view.a.entId[e]!) !== id || view.a.entLayer[e] !== L_POI) return undefined;
  return placeRecord(view, { entity: e, address: -1, score: 0, reasons: [], fallback: false }, lang);
}

export function placeRecord(view: IndexView, hit: Hit, lang: string): PlaceRecord {
  const a = view.a;
  const e = hit.entity;
  const category = view.category(e) ?? '';
  const address: NonNullable<PlaceRecord['address']> = {};
  const hn = view.str(a.entHousenumber[e]!);
  const street = view.str(a.entStreet[e]!);
  const city = entityCity(view, e, lang);
  const region = view.regionCode(e);
  if (hn) address.housenumber = hn;
  if (street) address.street = street;
  if (city) address.city = city;
  if (region) address.region = region;
  return {
    id: view.str(a.entId[e]!),
    source_id: view.str(a.entSourceId[e]!),
    name: entityName(view, e, lang),
    names: view.entityNames(e) ?? {},
    category,
    category_group: view.taxonomyById.get(category)?.group ?? category.slice(0, Math.max(0, category.indexOf('.'))),
    coordinates: [a.entLng[e]!, a.entLat[e]!],
    ...(Object.keys(address).length ? { address } : {}),
    ...(hit.distance !== undefined ? { distance: hit.distance } : {}),
    source: view.meta.sources[a.entSource[e]!]!,
  };
}

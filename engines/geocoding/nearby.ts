import { around } from 'geokdbush';
import type { EngineContext } from './context.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { toGeocodeResult, type Hit } from './results.ts';
import type { GeocodeResult, NearbyInput } from './types.ts';

/** POI entity ids of the given categories within the radius, nearest first, with distances. */
export function nearbyHits(ctx: EngineContext, input: NearbyInput): Hit[] {
  const view = ctx.view;
  const wanted = new Set<number>();
  for (const id of input.categories) {
    const c = view.categoryIndex.get(id);
    if (c !== undefined) wanted.add(c);
  }
  if (!wanted.size) return [];
  const { entCategory, poiEntity, entLng, entLat } = view.a;
  const items = around(view.kdPoi, input.lng, input.lat, input.limit, input.radius / 1000,
    (i) => wanted.has(entCategory[poiEntity[i]!]!));
  return items.map((i) => {
    const e = poiEntity[i]!;
    return { entity: e, address: -1, score: 0, reasons: [], fallback: false, distance: Math.round(haversineMetres(input.lng, input.lat, entLng[e]!, entLat[e]!)) };
  });
}

/** GET /geocode/nearby. */
export function nearby(ctx: EngineContext, input: NearbyInput): GeocodeResult[] {
  return nearbyHits(ctx, input).map((hit) =>
    toGeocodeResult(ctx.view, hit, { lang: input.lang, withScore: false, matchApplies: false, withCategory: true }));
}

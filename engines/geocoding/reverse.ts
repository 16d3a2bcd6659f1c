import { around } from 'geokdbush';
import type { EngineContext } from './context.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { hitPoint, toGeocodeResult, type Hit } from './results.ts';
import type { GeocodeResult, ReverseInput } from './types.ts';

/** GET /geocode/reverse: nearest address points, POIs and localities, with distance, nearest first. */
export function reverse(ctx: EngineContext, input: ReverseInput): GeocodeResult[] {
  const view = ctx.view;
  const m = view.addressCount;
  const hits: Hit[] = around(view.kdReverse, input.lng, input.lat, input.limit).map((item) => {
    const hit: Hit = item < m
      ? { entity: view.a.adStreet[item]!, address: item, score: 0, reasons: [], fallback: false }
      : { entity: view.a.revEntity[item - m]!, address: -1, score: 0, reasons: [], fallback: false };
    const [lng, lat] = hitPoint(view, hit);
    hit.distance = Math.round(haversineMetres(input.lng, input.lat, lng, lat));
    return hit;
  });
  // Rounding can tie; keep the order stable and ascending.
  hits.sort((x, y) => x.distance! - y.distance!);
  return hits.map((hit) => toGeocodeResult(view, hit, { lang: input.lang, withScore: false, matchApplies: false }));
}

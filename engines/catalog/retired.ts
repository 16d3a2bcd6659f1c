/**
 * Overlay layers the catalog no longer serves (volume 1 "Retired overlays"): GET /layers/{id}
 * answers 410 naming the replacement, and a style naming them in overlays drops them.
 */
export const RETIRED_LAYERS: ReadonlyMap<string, string> = new Map([
  ['water', 'the basemap (source layer water)'],
  ['rail', 'the basemap (source layer roads, kind rail)'],
  ['remote.roads', 'the basemap (source layer roads)'],
]);

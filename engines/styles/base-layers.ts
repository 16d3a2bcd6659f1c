/**
 * protomaps' layers for a palette, mode and language, built once and then shared: the layer
 * objects are returned as they are cached, so callers must treat them as read-only.
 */
import type { LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { layers, type Flavor } from '@protomaps/basemaps';
import { paletteFlavor } from './palettes.ts';
import type { StyleMode, PaletteName } from './style-names.ts';

export const BASEMAP_SOURCE = 'svc';

const cache = new Map<string, readonly LayerSpecification[]>();

export function paletteLayers(palette: PaletteName, mode: StyleMode, lang: string): readonly LayerSpecification[] {
  const key = `${palette}-${mode}-${lang}`;
  let built = cache.get(key);
  if (!built) {
    built = layers(BASEMAP_SOURCE, paletteFlavor(palette, mode), { lang });
    cache.set(key, built);
  }
  return built;
}

/** A theme's own flavor is built per request: themes vary too freely to cache. */
export function flavorLayers(flavor: Flavor, lang: string): LayerSpecification[] {
  return layers(BASEMAP_SOURCE, flavor, { lang });
}

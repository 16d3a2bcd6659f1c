/** Layers we add beside protomaps': 3D buildings (themes only) and outdoor terrain. */
import type { LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import type { Flavor } from '@protomaps/basemaps';
import { mix } from './colour.ts';
import { BUILDINGS_3D_ID } from './layer-groups.ts';
import type { StyleMode } from './style-names.ts';

export const DEM_SOURCE = 'svc_dem';
export const CONTOURS_SOURCE = 'svc_contours';
/** The contour archive's vector layer and its elevation attribute (metres). */
export const CONTOURS_SOURCE_LAYER = 'contours';
export const CONTOURS_ELEVATION = 'ele';

export function buildings3dLayer(source: string, flavor: Flavor): LayerSpecification {
  return {
    id: BUILDINGS_3D_ID,
    type: 'fill-extrusion',
    source,
    'source-layer': 'buildings',
    minzoom: 13,
    paint: {
      'fill-extrusion-color': flavor.buildings,
      'fill-extrusion-height': ['coalesce', ['get', 'height'], 10],
      'fill-extrusion-base': ['coalesce', ['get', 'min_height'], 0],
      'fill-extrusion-opacity': 0.8,
    },
  };
}

export function hillshadeLayer(mode: StyleMode): LayerSpecification {
  return {
    id: 'terrain_hillshade',
    type: 'hillshade',
    source: DEM_SOURCE,
    paint: {
      'hillshade-exaggeration': mode === 'light' ? 0.35 : 0.25,
      'hillshade-shadow-color': mode === 'light' ? '#5a5a5a' : '#000000',
      'hillshade-highlight-color': mode === 'light' ? '#ffffff' : '#4a4a4a',
    },
  };
}

/** Contour lines: every line thin, each 100 m index line heavier. */
export function contourLayers(flavor: Flavor): LayerSpecification[] {
  const colour = mix(flavor.earth, '#8a5a2b', 0.45);
  const index: ['==', ['%', ['get', string], number], number] = ['==', ['%', ['get', CONTOURS_ELEVATION], 100], 0];
  return [
    {
      id: 'terrain_contours',
      type: 'line',
      source: CONTOURS_SOURCE,
      'source-layer': CONTOURS_SOURCE_LAYER,
      filter: ['!', index],
      paint: { 'line-color': colour, 'line-width': 0.6, 'line-opacity': 0.6 },
    },
    {
      id: 'terrain_contours_index',
      type: 'line',
      source: CONTOURS_SOURCE,
      'source-layer': CONTOURS_SOURCE_LAYER,
      filter: index,
      paint: { 'line-color': colour, 'line-width': 1.2, 'line-opacity': 0.8 },
    },
  ];
}

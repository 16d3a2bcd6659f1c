/**
 * The seven layer groups a theme may hide or reorder, and which group each style layer belongs to.
 * Without an explicit order the layers keep protomaps' own interleaving (tunnels under buildings,
 * bridges over boundaries); an order regroups them, bottom to top.
 */
import type { LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { LAYER_GROUPS, type LayerGroup } from './theme-schema.ts';

export const BUILDINGS_3D_ID = 'buildings_3d';

export function groupOf(layer: LayerSpecification): LayerGroup {
  if (layer.type === 'symbol') return 'labels';
  if (layer.id === BUILDINGS_3D_ID) return 'buildings3d';
  const sourceLayer = 'source-layer' in layer ? layer['source-layer'] : undefined;
  switch (sourceLayer) {
    case 'water': return 'water';
    case 'buildings': return 'buildings';
    case 'boundaries': return 'boundaries';
    case 'roads': return layer.id === 'roads_runway' || layer.id === 'roads_taxiway' ? 'land' : 'roads';
    default: return 'land';
  }
}

/** The full bottom-to-top group order: the listed groups, then the rest in default order. */
export function fullOrder(order: readonly LayerGroup[]): LayerGroup[] {
  return [...order, ...LAYER_GROUPS.filter((group) => !order.includes(group))];
}

export function arrangeLayers(
  layers: readonly LayerSpecification[],
  order: readonly LayerGroup[] | undefined,
  hidden: ReadonlySet<LayerGroup>,
): LayerSpecification[] {
  const shown = layers.filter((layer) => !hidden.has(groupOf(layer)));
  if (!order) return shown;
  const rank = new Map(fullOrder(order).map((group, i) => [group, i]));
  // background stays at the bottom whatever the order: nothing may be drawn under it.
  const keyOf = (layer: LayerSpecification) => (layer.type === 'background' ? -1 : rank.get(groupOf(layer)) ?? 0);
  return shown.map((layer, i) => ({ layer, i })).sort((a, b) => keyOf(a.layer) - keyOf(b.layer) || a.i - b.i).map(({ layer }) => layer);
}

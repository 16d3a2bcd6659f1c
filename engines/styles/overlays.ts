/**
 * The overlays and profile parameters (volume 3 "Style parameters"): which catalog layers and
 * uploaded overlays a style draws on top of the basemap, as sources and layers of their own.
 */
import type { ExpressionFilterSpecification as ExpressionFilter, LayerSpecification, SourceSpecification } from '@maplibre/maplibre-gl-style-spec';
import { RETIRED_LAYERS } from '../catalog/retired.ts';
import { tileUrlTemplate } from '../tiles/tile-url.ts';
import { UnknownOverlayError } from './style-errors.ts';

export type OverlayRef = { kind: 'catalog'; id: string } | { kind: 'byod'; id: string };

/** What the caller knows of an overlay: its vector layer names and zoom band. */
export interface OverlayInfo {
  sourceLayers: readonly string[];
  minzoom?: number;
  maxzoom?: number;
}

/** The caller's lookup over the enabled catalog and the key's own uploads; undefined = unknown. */
export type OverlayResolver = (ref: OverlayRef) => OverlayInfo | undefined;

/** Composition presets; ids the caller's catalog does not hold are skipped, not refused. */
export const PROFILES: ReadonlyMap<string, readonly string[]> = new Map([
  ['energy', ['energy.wells', 'energy.mineral-tenure', 'survey.dls']],
  ['agriculture', ['survey.parcels', 'survey.dls', 'municipalities']],
  ['remote', ['remote.airports', 'aboriginal-lands', 'parks']],
  ['mining', ['energy.mineral-tenure', 'survey.nts', 'aboriginal-lands']],
]);

const OVERLAY_COLOURS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#46a6a6', '#c71585', '#808000'];

// geometry-type reports Multi* kinds separately, so each filter names both forms.
const POLYGONS: ExpressionFilter = ['match', ['geometry-type'], ['Polygon', 'MultiPolygon'], true, false];
const POINTS: ExpressionFilter = ['match', ['geometry-type'], ['Point', 'MultiPoint'], true, false];

export interface ResolvedOverlay { ref: OverlayRef; info: OverlayInfo }

function parseRef(token: string): OverlayRef {
  return token.startsWith('byod:') ? { kind: 'byod', id: token.slice(5) } : { kind: 'catalog', id: token };
}

/** overlays wins over profile; unknown entries throw, retired catalog ids are dropped. */
export function resolveOverlays(overlays: string | undefined, profile: string | undefined, resolve: OverlayResolver): ResolvedOverlay[] {
  if (overlays !== undefined && overlays.trim() !== '') {
    const tokens = [...new Set(overlays.split(',').map((t) => t.trim()).filter((t) => t !== ''))];
    return tokens.filter((t) => !RETIRED_LAYERS.has(t)).map((token) => {
      const ref = parseRef(token);
      const info = ref.id === '' ? undefined : resolve(ref);
      if (!info) throw new UnknownOverlayError(`unknown overlay: ${token}`);
      return { ref, info };
    });
  }
  if (profile === undefined || profile === '') return [];
  const preset = PROFILES.get(profile);
  if (!preset) throw new UnknownOverlayError(`unknown profile: ${profile} (known: ${[...PROFILES.keys()].join(', ')})`);
  return preset.flatMap((id) => {
    const ref: OverlayRef = { kind: 'catalog', id };
    const info = resolve(ref);
    return info ? [{ ref, info }] : [];
  });
}

export function overlaySourceId(ref: OverlayRef): string {
  return ref.kind === 'byod' ? `byod_${ref.id}` : `layer_${ref.id}`;
}

export function overlaySource({ ref, info }: ResolvedOverlay, base: string, key: string): SourceSpecification {
  const path = ref.kind === 'byod' ? 'byod' : 'layers';
  return {
    type: 'vector',
    tiles: [tileUrlTemplate(base, `${path}/${encodeURIComponent(ref.id)}`, key)],
    ...(info.minzoom !== undefined ? { minzoom: info.minzoom } : {}),
    ...(info.maxzoom !== undefined ? { maxzoom: info.maxzoom } : {}),
  };
}

/** A fill, an outline and a circle per vector layer, each filtered to its geometry type. */
export function overlayLayers(overlay: ResolvedOverlay, index: number): LayerSpecification[] {
  const source = overlaySourceId(overlay.ref);
  const colour = OVERLAY_COLOURS[index % OVERLAY_COLOURS.length] ?? '#e6194b';
  return overlay.info.sourceLayers.flatMap((sourceLayer): LayerSpecification[] => {
    const id = `${source}_${sourceLayer}`;
    const common = { source, 'source-layer': sourceLayer };
    return [
      { id: `${id}_fill`, type: 'fill', ...common, filter: POLYGONS, paint: { 'fill-color': colour, 'fill-opacity': 0.2 } },
      { id: `${id}_line`, type: 'line', ...common, filter: ['!', POINTS], paint: { 'line-color': colour, 'line-width': 1.5 } },
      {
        id: `${id}_point`, type: 'circle', ...common, filter: POINTS,
        paint: { 'circle-color': colour, 'circle-radius': 4, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1 },
      },
    ];
  });
}

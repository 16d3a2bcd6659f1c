/**
 * The style document of GET /styles/{style}.json (volume 3 "Style document"): MapLibre style
 * version 8 over the gateway's own tiles, glyphs, sprites and, for outdoor, terrain.
 */
import type { LayerSpecification, SourceSpecification, StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { BASEMAP_SOURCE, flavorLayers, paletteLayers } from './base-layers.ts';
import { buildings3dLayer, contourLayers, CONTOURS_SOURCE, DEM_SOURCE, hillshadeLayer } from './extra-layers.ts';
import { resolveLanguage } from './language.ts';
import { arrangeLayers } from './layer-groups.ts';
import { overlayLayers, overlaySource, overlaySourceId, resolveOverlays, type OverlayResolver } from './overlays.ts';
import { paletteFlavor, spriteSheet } from './palettes.ts';
import { UnknownStyleError } from './style-errors.ts';
import { tileUrlTemplate } from '../tiles/tile-url.ts';
import {
  ALL_STYLE_NAMES, CANADA_VIEW, CITY_VIEWS, DEFAULT_STYLE, isCity, parseModeParam, parsePaletteStyle, type StyleChoice,
} from './style-names.ts';
import { decodeThemeCode } from './theme-code.ts';
import { themedFlavor } from './theme-colours.ts';
import { themeMetadata } from './theme-metadata.ts';
import type { LayerGroup, ThemeSpec } from './theme-schema.ts';

/** Version segments of the asset paths styles emit (volume 1 "Versioning"). */
export const ASSET_VERSIONS = { terrain: 4, contours: 4, glyphs: 2, sprite: 2 } as const;

export interface StyleRequest {
  /** The path's style name without `.json`. */
  style: string;
  /** The gateway's public origin, no trailing slash, e.g. `https://api.example.ca`. */
  baseUrl: string;
  /** The caller's API key, embedded in every tile, glyph and sprite URL. */
  key: string;
  mode?: string;
  lang?: string;
  acceptLanguage?: string;
  theme?: string;
  overlays?: string;
  profile?: string;
  /** Read only for the city styles: a style name giving the city map's palette and mode. */
  flavor?: string;
  /** Which terrain archives are enabled; terrain appears only on outdoor styles. */
  archives?: { terrain?: boolean; contours?: boolean };
  /** Looks up overlays ids; without it every overlays entry is unknown and profiles add nothing. */
  resolveOverlay?: OverlayResolver;
}

function pathChoice(style: string, flavor: string | undefined): { choice: StyleChoice; view: { center: [number, number]; zoom: number } } {
  if (isCity(style)) {
    return { choice: (flavor !== undefined ? parsePaletteStyle(flavor) : undefined) ?? DEFAULT_STYLE, view: CITY_VIEWS[style] };
  }
  const choice = style === '' ? DEFAULT_STYLE : parsePaletteStyle(style);
  if (!choice) throw new UnknownStyleError(style, ALL_STYLE_NAMES);
  return { choice, view: CANADA_VIEW };
}

function insertBelowLabels(layers: LayerSpecification[], extra: readonly LayerSpecification[]): LayerSpecification[] {
  const at = layers.findIndex((layer) => layer.type === 'symbol');
  return at < 0 ? [...layers, ...extra] : [...layers.slice(0, at), ...extra, ...layers.slice(at)];
}

/** Throws UnknownStyleError (404), InvalidThemeError and UnknownOverlayError (400). */
export function buildStyle(request: StyleRequest): StyleSpecification {
  const { baseUrl: base } = request;
  const key = encodeURIComponent(request.key);
  const { choice: fromPath, view } = pathChoice(request.style, request.flavor);
  const theme: ThemeSpec | undefined = request.theme !== undefined && request.theme !== '' ? decodeThemeCode(request.theme) : undefined;
  const fromTheme = theme?.style !== undefined ? parsePaletteStyle(theme.style) : undefined;
  const palette = (fromTheme ?? fromPath).palette;
  const mode = parseModeParam(request.mode) ?? (fromTheme ?? fromPath).mode;
  const lang = resolveLanguage(request.lang, request.acceptLanguage);
  const overlays = resolveOverlays(request.overlays, request.profile, request.resolveOverlay ?? (() => undefined));

  const flavor = themedFlavor(paletteFlavor(palette, mode), theme?.colors);
  let layers: LayerSpecification[] = theme?.colors ? flavorLayers(flavor, lang) : [...paletteLayers(palette, mode, lang)];
  const sources: Record<string, SourceSpecification> = {
    [BASEMAP_SOURCE]: { type: 'vector', tiles: [tileUrlTemplate(base, 'tiles', request.key)], maxzoom: 14 },
  };

  if (palette === 'outdoor') {
    const terrain: LayerSpecification[] = [];
    if (request.archives?.terrain) {
      sources[DEM_SOURCE] = {
        type: 'raster-dem', encoding: 'terrarium', maxzoom: 12, tileSize: 256,
        tiles: [`${base}/terrain/${ASSET_VERSIONS.terrain}/{z}/{x}/{y}.png?key=${key}`],
      };
      terrain.push(hillshadeLayer(mode));
    }
    if (request.archives?.contours) {
      sources[CONTOURS_SOURCE] = {
        type: 'vector', minzoom: 9, maxzoom: 14,
        tiles: [`${base}/contours/${ASSET_VERSIONS.contours}/{z}/{x}/{y}?key=${key}`],
      };
      terrain.push(...contourLayers(flavor));
    }
    const water = layers.findIndex((layer) => layer.id === 'water');
    layers.splice(water < 0 ? 1 : water, 0, ...terrain);
  }

  const hidden = new Set<LayerGroup>(theme?.hidden ?? []);
  if (theme?.buildings3d && !hidden.has('buildings3d')) layers = insertBelowLabels(layers, [buildings3dLayer(BASEMAP_SOURCE, flavor)]);
  layers = arrangeLayers(layers, theme?.order, hidden);

  for (const overlay of overlays) sources[overlaySourceId(overlay.ref)] = overlaySource(overlay, base, request.key);
  layers = insertBelowLabels(layers, overlays.flatMap((overlay, i) => overlayLayers(overlay, i)));

  return {
    version: 8,
    name: `canmap ${palette}-${mode}`,
    ...(theme ? { metadata: { 'svc:theme': themeMetadata(theme, flavor, mode) } } : {}),
    center: view.center,
    zoom: view.zoom,
    sources,
    glyphs: `${base}/glyphs/${ASSET_VERSIONS.glyphs}/{fontstack}/{range}.pbf?key=${key}`,
    sprite: `${base}/sprite/${ASSET_VERSIONS.sprite}/${spriteSheet(palette, mode)}?key=${key}`,
    layers,
  };
}

import { describe, expect, it } from 'vitest';
import { resolveLanguage, SUPPORTED_LANGUAGES } from '../../engines/styles/language.ts';
import { UnknownOverlayError } from '../../engines/styles/style-errors.ts';
import { BASE, KEY, style, validationErrors } from './helpers.ts';

const textField = (doc: ReturnType<typeof style>, id: string) => {
  const layer = doc.layers.find((l) => l.id === id);
  return JSON.stringify(layer && 'layout' in layer ? layer.layout?.['text-field' as never] : undefined);
};

describe('lang', () => {
  it('primary subtag, Accept-Language fallback, unsupported gives en', () => {
    expect(SUPPORTED_LANGUAGES.has('fr')).toBe(true);
    expect(resolveLanguage('fr-CA', undefined)).toBe('fr');
    expect(resolveLanguage('xx', 'fr')).toBe('en');
    expect(resolveLanguage(undefined, 'iu;q=0.9, de-CH;q=0.8, fr;q=0.5')).toBe('de');
    expect(resolveLanguage(undefined, 'zz')).toBe('en');
    expect(resolveLanguage('', undefined)).toBe('en');
  });

  it('fr labels read name:fr', () => {
    const fr = style({ style: 'base', lang: 'fr-CA' });
    expect(textField(fr, 'places_locality')).toContain('"name:fr"');
    expect(textField(fr, 'roads_labels_major')).toContain('"name:fr"');
    expect(textField(style({ style: 'base', acceptLanguage: 'fr-CA,fr;q=0.9' }), 'places_country')).toContain('"name:fr"');
    expect(textField(style({ style: 'base' }), 'places_locality')).not.toContain('"name:fr"');
  });
});

describe('sources and asset URLs', () => {
  it('svc, glyphs, sprite and view', () => {
    const doc = style({ style: 'muted-dark' });
    expect(doc.sources).toEqual({ svc: { type: 'vector', tiles: [`${BASE}/tiles/{z}/{x}/{y}?key=${KEY}`], maxzoom: 14 } });
    expect(doc.glyphs).toBe(`${BASE}/glyphs/2/{fontstack}/{range}.pbf?key=${KEY}`);
    expect(doc.sprite).toBe(`${BASE}/sprite/2/muted-dark?key=${KEY}`);
    expect(style({ style: 'lagoon-dark' }).sprite).toBe(`${BASE}/sprite/2/dark?key=${KEY}`);
    expect(doc.center).toHaveLength(2);
    expect(typeof doc.zoom).toBe('number');
  });

  it('terrain sources only for outdoor and only when configured', () => {
    const outdoor = style({ style: 'outdoor', archives: { terrain: true, contours: true } });
    expect(outdoor.sources['svc_dem']).toEqual({
      type: 'raster-dem', encoding: 'terrarium', maxzoom: 12, tileSize: 256, tiles: [`${BASE}/terrain/4/{z}/{x}/{y}.png?key=${KEY}`],
    });
    expect(outdoor.sources['svc_contours']).toEqual({ type: 'vector', minzoom: 9, maxzoom: 14, tiles: [`${BASE}/contours/4/{z}/{x}/{y}?key=${KEY}`] });
    expect(outdoor.layers.map((l) => l.type)).toContain('hillshade');
    expect(outdoor.layers.filter((l) => 'source' in l && l.source === 'svc_contours')).toHaveLength(2);
    expect(Object.keys(style({ style: 'outdoor' }).sources)).toEqual(['svc']);
    expect(Object.keys(style({ style: 'outdoor', archives: { contours: true } }).sources)).toEqual(['svc', 'svc_contours']);
    expect(Object.keys(style({ style: 'canopy', archives: { terrain: true, contours: true } }).sources)).toEqual(['svc']);
  });
});

describe('overlays and profiles', () => {
  it('catalog ids and byod uploads become sources and layers below the labels', () => {
    const doc = style({ style: 'base', overlays: 'energy.wells, byod:abc123' });
    expect(validationErrors(doc)).toEqual([]);
    expect(doc.sources['layer_energy.wells']).toEqual({ type: 'vector', tiles: [`${BASE}/layers/energy.wells/{z}/{x}/{y}?key=${KEY}`], minzoom: 4, maxzoom: 14 });
    expect(doc.sources['byod_abc123']).toEqual({ type: 'vector', tiles: [`${BASE}/byod/abc123/{z}/{x}/{y}?key=${KEY}`], maxzoom: 12 });
    const overlayLayers = doc.layers.filter((l) => 'source' in l && l.source !== 'svc');
    expect(overlayLayers.map((l) => ('source-layer' in l ? l['source-layer'] : ''))).toEqual(['wells', 'wells', 'wells', 'upload', 'upload', 'upload']);
    const lastOverlay = doc.layers.indexOf(overlayLayers.at(-1)!);
    expect(doc.layers.slice(lastOverlay + 1).every((l) => l.type === 'symbol')).toBe(true);
  });

  it('retired ids are dropped; unknown ids are refused by name', () => {
    const doc = style({ style: 'base', overlays: 'water,rail,remote.roads,parks' });
    expect(Object.keys(doc.sources)).toEqual(['svc', 'layer_parks']);
    expect(() => style({ style: 'base', overlays: 'parks,nope' })).toThrow(new UnknownOverlayError('unknown overlay: nope'));
    expect(() => style({ style: 'base', overlays: 'byod:gone' })).toThrow(new UnknownOverlayError('unknown overlay: byod:gone'));
  });

  it('profile presets, overridden by overlays; unknown profile refused', () => {
    const energy = style({ style: 'base', profile: 'energy' });
    expect(validationErrors(energy)).toEqual([]);
    expect(Object.keys(energy.sources)).toEqual(['svc', 'layer_energy.wells', 'layer_energy.mineral-tenure', 'layer_survey.dls']);
    expect(energy.layers.filter((l) => 'source' in l && l.source === 'layer_survey.dls')).toHaveLength(6);
    expect(Object.keys(style({ style: 'base', profile: 'energy', overlays: 'parks' }).sources)).toEqual(['svc', 'layer_parks']);
    for (const profile of ['agriculture', 'remote', 'mining']) expect(validationErrors(style({ style: 'base', profile }))).toEqual([]);
    expect(() => style({ style: 'base', profile: 'fishing' })).toThrow(UnknownOverlayError);
  });
});

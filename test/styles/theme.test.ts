import { deflateRawSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { InvalidThemeError } from '../../engines/styles/style-errors.ts';
import { BAD_DEFLATE, BAD_PREFIX, decodeThemeCode, encodeThemeCode } from '../../engines/styles/theme-code.ts';
import { THEME_PRESETS } from '../../engines/styles/theme-presets.ts';
import { groupOf } from '../../engines/styles/layer-groups.ts';
import { style, validationErrors } from './helpers.ts';

function detailOf(code: string): readonly string[] {
  try {
    decodeThemeCode(code);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidThemeError);
    expect((error as InvalidThemeError).code).toBe('invalid_theme');
    return (error as InvalidThemeError).detail;
  }
  throw new Error(`${code} decoded`);
}

const rawJson = (text: string) => `ut1.${deflateRawSync(Buffer.from(text)).toString('base64url')}`;
const paint = (layer: LayerSpecification | undefined, prop: string) => (layer && 'paint' in layer ? (layer.paint as Record<string, unknown>)[prop] : undefined);

describe('invalid theme codes carry a detail array', () => {
  it('the verbatim prefix and deflate strings', () => {
    expect(detailOf('abc')).toEqual([BAD_PREFIX]);
    expect(BAD_PREFIX).toBe('code must start with "ut1." or be a short preset');
    expect(detailOf('u99')).toEqual([BAD_PREFIX, 'unknown short preset "u99" (known: u1, u2, u3, u4)']);
    expect(detailOf('ut2.AAAA')).toContain(BAD_PREFIX);
    expect(BAD_DEFLATE).toBe('code is not valid base64url deflate data');
    expect(detailOf('ut1.not*base64')).toEqual([BAD_DEFLATE]);
    expect(detailOf('ut1.AAAA')).toEqual([BAD_DEFLATE]);
    // zlib-wrapped deflate is not the documented raw form.
    expect(detailOf(`ut1.${deflateSync(Buffer.from('{}')).toString('base64url')}`)).toEqual([BAD_DEFLATE]);
  });

  it('JSON and schema problems, each named precisely', () => {
    expect(detailOf(rawJson('{"colors":'))[0]).toMatch(/^theme is not valid JSON: /);
    expect(detailOf(rawJson('[1]'))).toEqual(['theme must be a JSON object']);
    expect(detailOf(rawJson(JSON.stringify({
      colours: {}, style: 'pixel', colors: { water: 'blue', sky: '#fff' }, order: ['land', 'land', 'sky'],
      hidden: 'labels', buildings3d: 'yes', marker: { scale: 9 }, route: { opacity: -1, dash: 2 },
    })))).toEqual([
      'theme has unknown key "colours" (allowed: style, colors, order, hidden, buildings3d, marker, route)',
      'style must be a style name such as "base-dark"',
      'colors.water must be a hex colour like "#1a2b3c"',
      'colors has unknown key "sky" (allowed: background, land, water, park, buildings, roads, roadCasing, railway, boundaries, labels, labelHalo)',
      'order[1] repeats "land"',
      'order[2] must be one of land, water, buildings, roads, boundaries, buildings3d, labels',
      'hidden must be an array of layer groups',
      'buildings3d must be true or false',
      'marker.scale must be a number from 0.25 to 4',
      'route.opacity must be a number from 0 to 1',
      'route has unknown key "dash" (allowed: color, width, opacity, casingColor, casingWidth, casingOpacity)',
    ]);
  });

  it('through buildStyle', () => {
    expect(() => style({ style: 'base', theme: 'zz' })).toThrow(InvalidThemeError);
  });
});

describe('themed styles', () => {
  const theme = {
    colors: { water: '#123456', land: '#fafafa', roads: '#ff0000' },
    marker: { color: '#00ff00', scale: 1.5 },
    route: { color: '#0000ff', width: 7 },
  };

  it('round trip: JSON → code → style with those colours and svc:theme metadata', () => {
    const code = encodeThemeCode(theme);
    expect(code.startsWith('ut1.')).toBe(true);
    expect(decodeThemeCode(code)).toEqual(theme);
    const doc = style({ style: 'sunset-dark', theme: code });
    expect(validationErrors(doc)).toEqual([]);
    expect(paint(doc.layers.find((l) => l.id === 'water'), 'fill-color')).toBe('#123456');
    expect(paint(doc.layers.find((l) => l.id === 'earth'), 'fill-color')).toBe('#fafafa');
    expect(doc.layers.find((l) => l.id === 'landcover')).toBeUndefined();
    expect(JSON.stringify(doc.layers.find((l) => l.id === 'roads_highway'))).toContain('#ff0000');
    expect(doc.metadata).toEqual({
      'svc:theme': {
        marker: { color: '#00ff00', scale: 1.5 },
        route: { color: '#0000ff', width: 7, opacity: 0.9, casingColor: expect.stringMatching(/^#/), casingWidth: 2, casingOpacity: 0.9 },
      },
    });
  });

  it('plain styles carry no metadata', () => {
    expect(style({ style: 'base' }).metadata).toBeUndefined();
  });

  it('every short preset gives a valid style', () => {
    for (const code of THEME_PRESETS.keys()) {
      const doc = style({ style: 'blush-dark', theme: code, archives: { terrain: true, contours: true } });
      expect(validationErrors(doc)).toEqual([]);
      expect(doc.metadata).toHaveProperty('svc:theme');
    }
    expect(style({ style: 'blush', theme: 'u2' }).name).toBe('canmap base-dark');
  });

  it('3D buildings: off by default, on when asked, off again when hidden', () => {
    const has3d = (code?: string) => style({ style: 'base', ...(code ? { theme: code } : {}) }).layers.some((l) => l.type === 'fill-extrusion');
    expect(has3d()).toBe(false);
    expect(has3d(encodeThemeCode({ colors: { water: '#000' } }))).toBe(false);
    expect(has3d(encodeThemeCode({ buildings3d: true }))).toBe(true);
    expect(has3d(encodeThemeCode({ buildings3d: true, hidden: ['buildings3d'] }))).toBe(false);
  });

  it('hides and reorders layer groups', () => {
    const doc = style({ style: 'base', theme: encodeThemeCode({ hidden: ['labels', 'buildings'], order: ['land', 'roads', 'water'], buildings3d: true }) });
    expect(validationErrors(doc)).toEqual([]);
    const groups = doc.layers.map(groupOf);
    expect(groups).not.toContain('labels');
    expect(groups).not.toContain('buildings');
    expect(doc.layers[0]?.type).toBe('background');
    const firstIndex = (g: string) => groups.indexOf(g as never);
    const lastIndex = (g: string) => groups.lastIndexOf(g as never);
    expect(lastIndex('land')).toBeLessThan(firstIndex('roads'));
    expect(lastIndex('roads')).toBeLessThan(firstIndex('water'));
    expect(lastIndex('water')).toBeLessThan(firstIndex('boundaries'));
    expect(lastIndex('boundaries')).toBeLessThan(firstIndex('buildings3d'));
  });
});

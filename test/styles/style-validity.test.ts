import { describe, expect, it } from 'vitest';
import { ALL_STYLE_NAMES, CITIES, LEGACY_STYLES, STYLE_MODES, PALETTES } from '../../engines/styles/style-names.ts';
import { UnknownStyleError } from '../../engines/styles/style-errors.ts';
import { style, validationErrors } from './helpers.ts';

describe('style documents validate against the MapLibre style spec', () => {
  for (const palette of PALETTES) {
    for (const mode of STYLE_MODES) {
      it(`${palette}-${mode}`, () => {
        const doc = style({ style: `${palette}-${mode}`, archives: { terrain: true, contours: true } });
        expect(validationErrors(doc)).toEqual([]);
        expect(doc.version).toBe(8);
        expect(doc.name).toBe(`canmap ${palette}-${mode}`);
      });
    }
  }

  it('legacy names, city styles and the bare default', () => {
    for (const name of [...LEGACY_STYLES.keys(), ...CITIES, '']) expect(validationErrors(style({ style: name }))).toEqual([]);
  });

  it('all 24 palette × mode styles differ in their colours', () => {
    const docs = PALETTES.flatMap((palette) => STYLE_MODES.map((mode) => JSON.stringify(style({ style: `${palette}-${mode}` }).layers)));
    expect(new Set(docs).size).toBe(24);
  });
});

describe('style names', () => {
  it('bare means light; legacy names map to their palette', () => {
    expect(style({ style: 'canopy' }).name).toBe('canmap canopy-light');
    expect(style({ style: '' }).name).toBe('canmap base-light');
    expect(style({ style: 'white' }).name).toBe('canmap base-light');
    expect(style({ style: 'black' }).name).toBe('canmap base-dark');
    expect(style({ style: 'relief' }).name).toBe('canmap outdoor-light');
    expect(style({ style: 'grayscale' }).name).toBe('canmap muted-light');
  });

  it('unknown names, the retired pixel-art style included, list every valid name', () => {
    for (const name of ['pixel', 'pixel-art', 'base-dim', 'Base', 'calgary-dark']) {
      try {
        style({ style: name });
        expect.unreachable(name);
      } catch (error) {
        expect(error).toBeInstanceOf(UnknownStyleError);
        expect((error as UnknownStyleError).styles).toEqual(ALL_STYLE_NAMES);
      }
    }
    expect(ALL_STYLE_NAMES).toContain('lagoon-dark');
    expect(ALL_STYLE_NAMES).toContain('montreal');
  });

  it('city styles set the starting view and read flavor; other styles ignore flavor', () => {
    const iqaluit = style({ style: 'iqaluit', flavor: 'lagoon-dark' });
    expect(iqaluit.center).toEqual([-68.517, 63.7467]);
    expect(iqaluit.zoom).toBe(12);
    expect(iqaluit.name).toBe('canmap lagoon-dark');
    expect(style({ style: 'montreal', flavor: 'no-such' }).name).toBe('canmap base-light');
    expect(style({ style: 'calgary', flavor: 'dark' }).name).toBe('canmap base-dark');
    expect(style({ style: 'sunset', flavor: 'base-dark' }).name).toBe('canmap sunset-light');
  });

  it('mode overrides the path; unrecognised values are ignored', () => {
    expect(style({ style: 'orchid-light', mode: 'dark' }).name).toBe('canmap orchid-dark');
    expect(style({ style: 'orchid-dark', mode: 'dusk' }).name).toBe('canmap orchid-dark');
  });
});

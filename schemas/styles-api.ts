import { Type } from '@sinclair/typebox';

/** GET /styles/{style}.json (volume 3 "Style document", "Style parameters"). */

export const StyleParams = Type.Object({ file: Type.String({ description: '<style>.json, e.g. base-dark.json or calgary.json' }) });

const text = (description: string, maxLength = 200) => Type.Optional(Type.String({ description, maxLength }));

export const StyleQuery = Type.Object({
  mode: text('light or dark; overrides the path (an unrecognised value is ignored)'),
  lang: text('BCP 47 tag; its primary subtag picks the label language (default en, then Accept-Language)'),
  theme: text('a short preset (u1…) or ut1. + base64url of raw-deflated theme JSON', 4096),
  overlays: text('comma-separated catalog layer ids or byod:<id>; overrides profile; retired ids are dropped', 2000),
  profile: text('energy, agriculture, remote or mining: a preset of overlays'),
  flavor: text('city styles only (calgary, montreal, iqaluit): the style name giving palette and mode'),
});

/** A MapLibre style document, version 8 (sources, layers, glyphs, sprite, center, zoom, metadata). */
export const StyleDocument = Type.Object({ version: Type.Literal(8) }, { additionalProperties: true });

export const StyleNotFoundBody = Type.Object({
  error: Type.String({ description: '`unknown style`, or which uploaded overlay is gone' }),
  styles: Type.Optional(Type.Array(Type.String(), { description: 'unknown style: every style name the endpoint answers' })),
}, { description: 'unknown style name, or a deleted (or another account\'s) uploaded overlay named in overlays' });

export const InvalidThemeBody = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String({ description: 'invalid_theme for a theme code that does not decode or validate' })),
  detail: Type.Optional(Type.Array(Type.String())),
}, { description: 'invalid theme (code invalid_theme, detail), unknown overlay or profile' });

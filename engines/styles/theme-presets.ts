/** Short theme codes (`u` + a number): named themes a client can pass without encoding JSON. */
import type { ThemeSpec } from './theme-schema.ts';

export const THEME_PRESETS: ReadonlyMap<string, ThemeSpec> = new Map<string, ThemeSpec>([
  /** Navigation: the default map with 3D buildings and a strong blue route. */
  ['u1', { buildings3d: true, route: { color: '#1d4ed8', width: 6, casingColor: '#ffffff', casingWidth: 2 } }],
  /** Night drive: dark base, orange route, no buildings. */
  ['u2', { style: 'base-dark', hidden: ['buildings'], route: { color: '#f97316', width: 6, casingColor: '#1c1917' }, marker: { color: '#f97316' } }],
  /** Data canvas: muted map without labels or buildings, for thematic overlays. */
  ['u3', { style: 'muted-light', hidden: ['buildings', 'labels'], marker: { color: '#111827', scale: 0.8 } }],
  /** Field: outdoor palette, boundaries above roads, a red marker. */
  ['u4', { style: 'outdoor-light', order: ['land', 'water', 'buildings', 'roads', 'boundaries'], marker: { color: '#dc2626', scale: 1.2 } }],
]);

/** `metadata['svc:theme']` of a themed style: marker and route, the theme's values over defaults. */
import type { Flavor } from '@protomaps/basemaps';
import type { MarkerTheme, RouteTheme, ThemeSpec } from './theme-schema.ts';
import type { StyleMode } from './style-names.ts';

export interface ThemeMetadata { marker: MarkerTheme; route: RouteTheme }

export function themeMetadata(theme: ThemeSpec, flavor: Flavor, mode: StyleMode): ThemeMetadata {
  const marker: MarkerTheme = { color: '#e11d48', scale: 1, ...theme.marker };
  const route: RouteTheme = {
    color: mode === 'light' ? '#2563eb' : '#60a5fa',
    width: 5,
    opacity: 0.9,
    casingColor: flavor.background,
    casingWidth: 2,
    casingOpacity: 0.9,
    ...theme.route,
  };
  return { marker, route };
}

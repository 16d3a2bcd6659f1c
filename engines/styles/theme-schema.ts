/**
 * The theme JSON a `ut1.` code carries (and each short preset expands to), checked by hand so every
 * problem gets its own precise `detail` line. Every key is optional; unknown keys are refused.
 *
 * {
 *   "style":   "<palette>[-light|-dark]",  palette and mode to start from (wins over the path)
 *   "colors":  { background, land, water, park, buildings, roads, roadCasing, railway,
 *                boundaries, labels, labelHalo }: "#rgb" or "#rrggbb"
 *   "order":   [group, ...]   bottom to top; unlisted groups follow in their default order
 *   "hidden":  [group, ...]
 *   "buildings3d": boolean   (default false) adds a fill-extrusion layer unless hidden
 *   "marker":  { color, scale (0.25..4) }
 *   "route":   { color, width (0.5..30), opacity (0..1), casingColor, casingWidth (0..30), casingOpacity (0..1) }
 * }
 * groups: land, water, buildings, roads, boundaries, buildings3d, labels.
 */
import { isHexColour } from './colour.ts';
import { parsePaletteStyle } from './style-names.ts';

export const LAYER_GROUPS = ['land', 'water', 'buildings', 'roads', 'boundaries', 'buildings3d', 'labels'] as const;
export type LayerGroup = (typeof LAYER_GROUPS)[number];

export const THEME_COLOUR_KEYS = [
  'background', 'land', 'water', 'park', 'buildings', 'roads', 'roadCasing', 'railway', 'boundaries', 'labels', 'labelHalo',
] as const;
export type ThemeColourKey = (typeof THEME_COLOUR_KEYS)[number];

export interface MarkerTheme { color: string; scale: number }
export interface RouteTheme {
  color: string; width: number; opacity: number; casingColor: string; casingWidth: number; casingOpacity: number;
}

export interface ThemeSpec {
  style?: string;
  colors?: Partial<Record<ThemeColourKey, string>>;
  order?: LayerGroup[];
  hidden?: LayerGroup[];
  buildings3d?: boolean;
  marker?: Partial<MarkerTheme>;
  route?: Partial<RouteTheme>;
}

type Field = { kind: 'colour' } | { kind: 'number'; min: number; max: number };
const MARKER_FIELDS: Record<keyof MarkerTheme, Field> = { color: { kind: 'colour' }, scale: { kind: 'number', min: 0.25, max: 4 } };
const ROUTE_FIELDS: Record<keyof RouteTheme, Field> = {
  color: { kind: 'colour' },
  width: { kind: 'number', min: 0.5, max: 30 },
  opacity: { kind: 'number', min: 0, max: 1 },
  casingColor: { kind: 'colour' },
  casingWidth: { kind: 'number', min: 0, max: 30 },
  casingOpacity: { kind: 'number', min: 0, max: 1 },
};
const TOP_KEYS = ['style', 'colors', 'order', 'hidden', 'buildings3d', 'marker', 'route'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkField(path: string, value: unknown, field: Field, problems: string[]): void {
  if (field.kind === 'colour') {
    if (typeof value !== 'string' || !isHexColour(value)) problems.push(`${path} must be a hex colour like "#1a2b3c"`);
  } else if (typeof value !== 'number' || !Number.isFinite(value) || value < field.min || value > field.max) {
    problems.push(`${path} must be a number from ${field.min} to ${field.max}`);
  }
}

function checkObject(path: string, value: unknown, fields: Record<string, Field>, problems: string[]): void {
  if (!isObject(value)) {
    problems.push(`${path} must be an object`);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const field = fields[key];
    if (field) checkField(`${path}.${key}`, item, field, problems);
    else problems.push(`${path} has unknown key "${key}" (allowed: ${Object.keys(fields).join(', ')})`);
  }
}

function checkGroups(path: string, value: unknown, problems: string[]): void {
  if (!Array.isArray(value)) {
    problems.push(`${path} must be an array of layer groups`);
    return;
  }
  value.forEach((item, i) => {
    if (typeof item !== 'string' || !(LAYER_GROUPS as readonly string[]).includes(item)) {
      problems.push(`${path}[${i}] must be one of ${LAYER_GROUPS.join(', ')}`);
    } else if (value.indexOf(item) !== i) problems.push(`${path}[${i}] repeats "${item}"`);
  });
}

/** The problems of a parsed theme, empty when it is a valid ThemeSpec. */
export function themeProblems(theme: unknown): string[] {
  if (!isObject(theme)) return ['theme must be a JSON object'];
  const problems: string[] = [];
  for (const key of Object.keys(theme)) {
    if (!TOP_KEYS.includes(key)) problems.push(`theme has unknown key "${key}" (allowed: ${TOP_KEYS.join(', ')})`);
  }
  if (theme.style !== undefined && (typeof theme.style !== 'string' || !parsePaletteStyle(theme.style))) {
    problems.push('style must be a style name such as "base-dark"');
  }
  if (theme.colors !== undefined) {
    const colourFields = Object.fromEntries(THEME_COLOUR_KEYS.map((k) => [k, { kind: 'colour' } as Field]));
    checkObject('colors', theme.colors, colourFields, problems);
  }
  if (theme.order !== undefined) checkGroups('order', theme.order, problems);
  if (theme.hidden !== undefined) checkGroups('hidden', theme.hidden, problems);
  if (theme.buildings3d !== undefined && typeof theme.buildings3d !== 'boolean') problems.push('buildings3d must be true or false');
  if (theme.marker !== undefined) checkObject('marker', theme.marker, MARKER_FIELDS, problems);
  if (theme.route !== undefined) checkObject('route', theme.route, ROUTE_FIELDS, problems);
  return problems;
}

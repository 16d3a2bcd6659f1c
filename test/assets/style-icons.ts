import { createPropertyExpression, featureFilter, latest, type FilterSpecification, type StylePropertySpecification } from '@maplibre/maplibre-gl-style-spec';
import { buildStyle } from '../../engines/styles/build-style.ts';
import { ALL_STYLE_NAMES, STYLE_MODES } from '../../engines/styles/style-names.ts';

const ZOOMS = [0, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22];
const SHIELD_TEXTS = ['1', '12', '123', '1234', '12345', '123456'];

function literals(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) value.forEach((v) => literals(v, out));
  return out;
}

function* product(options: Record<string, readonly (string | number | undefined)[]>): Generator<Record<string, string | number>> {
  const keys = Object.keys(options);
  const pick = (i: number, acc: Record<string, string | number>): Record<string, string | number>[] => {
    if (i === keys.length) return [{ ...acc }];
    return options[keys[i]!]!.flatMap((v) => pick(i + 1, v === undefined ? acc : { ...acc, [keys[i]!]: v }));
  };
  yield* pick(0, {});
}

/**
 * Every image name the generated styles can ask for: each symbol layer's icon-image expression
 * evaluated (with MapLibre's own evaluator) over features its filter admits, built from the
 * string literals of the filter and expression, at zooms 0–22.
 */
export function styleIconNames(): Set<string> {
  const layouts = new Map<string, { filter: unknown; iconImage: unknown }>();
  for (const style of ALL_STYLE_NAMES) {
    for (const mode of STYLE_MODES) {
      for (const layer of buildStyle({ style, mode, baseUrl: 'http://x', key: 'k' }).layers) {
        const iconImage = (layer as { layout?: Record<string, unknown> }).layout?.['icon-image'];
        if (iconImage === undefined) continue;
        const filter = (layer as { filter?: unknown }).filter;
        layouts.set(JSON.stringify([filter, iconImage]), { filter, iconImage });
      }
    }
  }
  const spec = latest.layout_symbol['icon-image'] as unknown as StylePropertySpecification;
  const names = new Set<string>();
  for (const { filter, iconImage } of layouts.values()) {
    const parsed = createPropertyExpression(iconImage, 'layers[0].layout.icon-image', spec);
    if (parsed.result !== 'success') throw new Error(`icon-image does not parse: ${JSON.stringify(iconImage)}`);
    const admit = featureFilter(filter as FilterSpecification, 'layers[0].filter');
    const words = [...literals([filter, iconImage], new Set())];
    const candidates = product({
      kind: words, network: [...words, 'CA:ON:primary'], capital: ['yes', undefined],
      shield_text: SHIELD_TEXTS, oneway: ['yes'], min_zoom: [0],
    });
    for (const properties of candidates) {
      const feature = { type: 1 as const, properties, geometry: [] };
      for (const zoom of ZOOMS) {
        if (!admit.filter({ zoom }, feature as never)) continue;
        const image = parsed.value.evaluate({ zoom }, feature as never) as unknown;
        const name = typeof image === 'string' ? image : (image as { name?: string } | null)?.name;
        if (name) names.add(name);
      }
    }
  }
  return names;
}

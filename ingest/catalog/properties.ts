import type { PropertySource } from '../../schemas/catalog-definition.ts';

type Scalar = string | number | boolean;

const present = (v: unknown): v is Scalar => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number' || typeof v === 'boolean';

/** One output property of a feature, by its definition (undefined: the feature has no value for it). */
export function propertyValue(source: PropertySource, input: Readonly<Record<string, unknown>>, province: string): Scalar | undefined {
  if (typeof source === 'string') return present(input[source]) ? input[source] : undefined;
  if ('first' in source) return source.first.map((name) => input[name]).find(present);
  if ('value' in source) return source.value;
  if ('province_or' in source) return province || source.province_or;
  const raw = input[source.from];
  const mapped = present(raw) ? source.map[String(raw)] : undefined;
  return mapped ?? source.default;
}

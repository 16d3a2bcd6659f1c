import { Type, type TSchema } from '@sinclair/typebox';
import { DEFAULT_RADIUS_M, MAX_LIMIT, MAX_RADIUS_M, MIN_RADIUS_M } from '../../schemas/geocoding-api.ts';

type JsonSchema = Record<string, unknown>;
type ParamDoc = { schema?: TSchema; required?: boolean };

const longitude = Type.Number({ minimum: -180, maximum: 180 });
const latitude = Type.Number({ minimum: -90, maximum: 90 });
const geocodeLimit = (fallback: number) => ({ schema: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: fallback }) });
const geocodeRadius = { schema: Type.Integer({ minimum: MIN_RADIUS_M, maximum: MAX_RADIUS_M, default: DEFAULT_RADIUS_M }) };
const required = { required: true };
const flag = { schema: Type.Boolean() };

/**
 * What a client sends, where the validating query schema says less. Those parameters are read as
 * strings on purpose (a clamped limit or a non-numeric one meaning the default, a 400 worded by the
 * endpoint's own sanitizer, "q required"), so their schemas cannot carry the number type or the
 * `required` the endpoint enforces; the document states both here, per route URL as registered.
 */
export const DOCUMENTED_QUERY: Readonly<Record<string, Readonly<Record<string, ParamDoc>>>> = {
  '/geocode/search': { q: required, limit: geocodeLimit(10) },
  '/geocode/structured': { limit: geocodeLimit(10) },
  '/geocode/autocomplete': { q: required, limit: geocodeLimit(8) },
  '/geocode/nearby': { category: required, radius: geocodeRadius, limit: geocodeLimit(10) },
  '/geocode/reverse': { limit: geocodeLimit(5) },
  '/places/search': { q: required, limit: geocodeLimit(10) },
  '/places/nearby': { category: required, near: required, radius: geocodeRadius, limit: geocodeLimit(10) },
  '/identify': { lon: { schema: longitude }, lat: { schema: latitude }, geometry: flag },
  '/data/query': { layer: required, bbox: required, limit: { schema: Type.Integer({ minimum: 1, maximum: 50, default: 50 }) }, geometry: flag },
  '/elevation': { lon: { schema: longitude }, lat: { schema: latitude }, samples: { schema: Type.Integer({ minimum: 2, maximum: 500 }) } },
  '/route': { from: required, to: required },
  '/isochrone': { lon: { schema: longitude, required: true }, lat: { schema: latitude, required: true }, minutes: required },
};

/**
 * The querystring schema as documented: overridden members take the documented type (keeping the
 * description), `required` lists what the endpoint requires, and a member with a default is never
 * required (the validator fills it in).
 */
export function documentedQuerystring(url: string, querystring: JsonSchema | undefined): JsonSchema | undefined {
  const properties = querystring?.properties as Record<string, JsonSchema> | undefined;
  if (!querystring || !properties) return querystring;
  const overrides = DOCUMENTED_QUERY[url] ?? {};
  const wanted = new Set((querystring.required as string[] | undefined) ?? []);
  const documented: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const override = overrides[name];
    documented[name] = override?.schema ? { ...override.schema, ...(schema.description ? { description: schema.description } : {}) } : schema;
    if (override?.required !== undefined) {
      if (override.required) wanted.add(name);
      else wanted.delete(name);
    }
    if (documented[name]!.default !== undefined) wanted.delete(name);
  }
  return { ...querystring, properties: documented, required: [...wanted] };
}

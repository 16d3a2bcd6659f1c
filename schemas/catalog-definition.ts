import { Type, type Static } from '@sinclair/typebox';
import { LAYER_ADDONS } from './catalog-api.ts';

/**
 * A catalog definition file (`canmap ingest catalog --definition FILE`): every layer with the row
 * fields of volume 3, what the API may do with it, and the inputs of its vector layers. Paths are
 * relative to the definition file.
 */

/** How one output property is filled from an input feature's properties (OSM tags for osm inputs). */
export const PropertySource = Type.Union([
  Type.String({ description: 'the input property (tag) of that name' }),
  Type.Object({ first: Type.Array(Type.String(), { minItems: 1 }) }, { additionalProperties: false, description: 'the first non-empty of these' }),
  Type.Object({ value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) }, { additionalProperties: false, description: 'a constant' }),
  Type.Object(
    { from: Type.String(), map: Type.Record(Type.String(), Type.String()), default: Type.Optional(Type.String()) },
    { additionalProperties: false, description: 'an input value translated through a table (default when absent from it)' },
  ),
  Type.Object({ province_or: Type.String() }, { additionalProperties: false, description: 'the province code, or this value outside every province' }),
]);
export type PropertySource = Static<typeof PropertySource>;

/** Tag filter of an osm input: every key must match (true: any value; a list: one of them). */
const TagFilter = Type.Record(Type.String(), Type.Union([Type.Literal(true), Type.String(), Type.Array(Type.String())]));

export const NTS_LEVELS = ['series', 'map_area', 'sheet', 'block'] as const;

export const DLS_LEVELS = ['township', 'section', 'quarter', 'lsd'] as const;

const InputBbox = Type.Tuple([Type.Number(), Type.Number(), Type.Number(), Type.Number()], { description: 'only the cells meeting west,south,east,north' });

export const LayerInput = Type.Union([
  Type.Object({ kind: Type.Literal('osm'), path: Type.String(), where: Type.Array(TagFilter, { minItems: 1, description: 'a feature passes when it matches any filter' }) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('ndjson'), path: Type.String() }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('geojson'), path: Type.String() }, { additionalProperties: false }),
  Type.Object(
    {
      kind: Type.Literal('nts'),
      level: Type.Union(NTS_LEVELS.map((l) => Type.Literal(l))),
      bbox: Type.Optional(InputBbox),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('dls'),
      level: Type.Union(DLS_LEVELS.map((l) => Type.Literal(l))),
      bbox: Type.Optional(InputBbox),
      labels: Type.Optional(Type.Boolean({ description: 'true: one point per cell (its centre) for labels, instead of the cell polygons' })),
    },
    { additionalProperties: false, description: 'Dominion Land Survey cells computed by the survey model (engines/survey/dls.ts)' },
  ),
]);
export type LayerInput = Static<typeof LayerInput>;

export const SourceLayerDefinition = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9_.-]+$' }),
    minzoom: Type.Integer({ minimum: 0, maximum: 15 }),
    maxzoom: Type.Integer({ minimum: 0, maximum: 15 }),
    simplification: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Record(Type.String({ pattern: '^\\d+$' }), Type.Number({ minimum: 0 }))])),
    input: LayerInput,
    /** Output properties besides id and name (the result fields of the layer). */
    properties: Type.Optional(Type.Record(Type.String(), PropertySource)),
    /** Where the feature's id and name come from (default: the input's id; name). */
    id_from: Type.Optional(Type.String()),
    name: Type.Optional(PropertySource),
  },
  { additionalProperties: false },
);
export type SourceLayerDefinition = Static<typeof SourceLayerDefinition>;

const text = (description?: string) => Type.String(description ? { description } : {});

export const LayerDefinition = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9.-]*$' }),
    display_name: Type.Object({ en: Type.String({ minLength: 1 }), fr: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    namespace: text(),
    source: text(),
    source_url: text(),
    licence: text(),
    attribution: text(),
    coverage: text(),
    resolution: text(),
    source_updated_at: text(),
    freshness_policy: text(),
    known_gaps: text(),
    schema_version: text(),
    addon: Type.Union(LAYER_ADDONS.map((a) => Type.Literal(a))),
    identify: Type.Boolean({ description: 'served by /identify (polygons)' }),
    query: Type.Boolean({ description: 'served by /data/query' }),
    /** The vector layers of the layer's one archive; none: catalogued, no archive yet (tiles 404). */
    source_layers: Type.Array(SourceLayerDefinition),
  },
  { additionalProperties: false },
);
export type LayerDefinition = Static<typeof LayerDefinition>;

export const CatalogDefinition = Type.Object(
  {
    /** Province polygons (GeoJSON with `name` properties) for each feature's province. */
    provinces: Type.Optional(Type.String()),
    layers: Type.Array(LayerDefinition, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type CatalogDefinition = Static<typeof CatalogDefinition>;

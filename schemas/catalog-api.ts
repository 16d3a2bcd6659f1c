import { Type, type Static } from '@sinclair/typebox';
import './formats.ts';
import { ADDONS } from './plans.ts';

/** Volume 3 "Layer catalog row", "Identify and query result" and the /layers, /identify and /data/query requests. */

export const LAYER_ADDONS = ['core', ...ADDONS] as const;
export type LayerAddon = (typeof LAYER_ADDONS)[number];

const ZoomBand = {
  minzoom: Type.Integer({ minimum: 0, maximum: 15 }),
  maxzoom: Type.Integer({ minimum: 0, maximum: 15 }),
};

export const CatalogRow = Type.Object({
  id: Type.String({ description: 'Namespaced layer id, e.g. energy.wells' }),
  display_name: Type.Object({ en: Type.String(), fr: Type.String() }),
  namespace: Type.String(),
  source: Type.String(),
  source_url: Type.String(),
  licence: Type.String(),
  attribution: Type.String(),
  coverage: Type.String(),
  resolution: Type.String(),
  source_updated_at: Type.String(),
  freshness_policy: Type.String(),
  known_gaps: Type.String({ description: 'What the layer does not cover (several layers cover one province only)' }),
  updated_at: Type.String({ format: 'date', description: 'When this release was built' }),
  ingestion_version: Type.String(),
  schema_version: Type.String(),
  // A plain string schema with an enum keyword: JSON Schema and OpenAPI see the values, and TypeBox's Value.Check reads the release file.
  addon: Type.String({ enum: [...LAYER_ADDONS], description: 'Add-on gating the layer (core: every plan)' }),
  archives: Type.Array(Type.Object({ id: Type.String(), ...ZoomBand })),
  source_layer: Type.String({ description: 'Name of the vector layer (the first one when the archive holds several)' }),
  source_layers: Type.Optional(Type.Array(Type.Object({ id: Type.String(), ...ZoomBand }), { description: 'Only when the archive holds several vector layers' })),
});
export type CatalogRow = Static<typeof CatalogRow>;

export const CatalogRows = Type.Array(CatalogRow);

export const CATALOG_ERRORS: Readonly<Record<number, string>> = {
  400: 'a parameter is malformed, missing or names an unknown layer; error names it (tile routes: plain text `invalid tile coordinates`)',
  403: 'addon_required (or dev_only, usage_limit_reached): the layer needs an add-on (body adds capability, addon, message)',
  404: 'unknown layer, or a catalogued layer whose archive is not built (tile routes: plain text)',
  410: 'a retired layer; error names the replacement',
  501: 'the layer is served as tiles only; error lists the queryable layers',
  503: 'the catalog data is not available (retryable)',
};

export const LayerParams = Type.Object({ id: Type.String() });

/** Plain strings: the route answers malformed coordinates with its own plain-text 400. */
export const LayerTileParams = Type.Object({ id: Type.String(), z: Type.String(), x: Type.String(), y: Type.String() });

/** `{layer, id, name, province}` plus the layer's fields; geometry with geometry=true. */
export const LayerFeature = Type.Object(
  {
    layer: Type.String(),
    id: Type.String(),
    name: Type.String(),
    province: Type.String({ description: 'Two-letter province or territory code; empty when outside every province' }),
    geometry: Type.Optional(Type.Unknown({ description: 'GeoJSON geometry (geometry=true)' })),
  },
  { additionalProperties: true },
);

const GeometryFlag = Type.Optional(Type.String({ description: 'true adds each feature\'s GeoJSON geometry' }));

export const IdentifyQuery = Type.Object({
  at: Type.Optional(Type.String({ description: 'lng,lat (required unless lon and lat are given)', maxLength: 100 })),
  lon: Type.Optional(Type.String({ maxLength: 50 })),
  lat: Type.Optional(Type.String({ maxLength: 50 })),
  layers: Type.Optional(Type.String({ description: 'Comma-separated identify-capable layer ids (default municipalities)', maxLength: 1000 })),
  geometry: GeometryFlag,
});
export type IdentifyQuery = Static<typeof IdentifyQuery>;

export const IdentifyResponse = Type.Object({
  at: Type.Tuple([Type.Number(), Type.Number()]),
  results: Type.Array(LayerFeature),
});

export const DataQueryQuery = Type.Object({
  layer: Type.Optional(Type.String({ description: 'One queryable layer id (required)', maxLength: 200 })),
  bbox: Type.Optional(Type.String({ description: 'west,south,east,north (required; a hard filter)', maxLength: 200 })),
  limit: Type.Optional(Type.String({ description: '1 to 50, default 50; a non-numeric value gives the default', maxLength: 50 })),
  geometry: GeometryFlag,
});
export type DataQueryQuery = Static<typeof DataQueryQuery>;

export const DataQueryResponse = Type.Object({
  layer: Type.String(),
  bbox: Type.Tuple([Type.Number(), Type.Number(), Type.Number(), Type.Number()]),
  results: Type.Array(LayerFeature),
});

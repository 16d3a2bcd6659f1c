import { Type, type Static } from '@sinclair/typebox';

/** Volume 3 "Maps", GET /tiles/{z}/{x}/{y}: what each error status means. */
export const TILES_ERRORS: Readonly<Record<number, string>> = {
  400: 'plain text `invalid tile coordinates`: z, x or y is not a whole number, or x or y is outside zoom z',
  503: 'no basemap release is being served (retryable)',
};

/** z/x/y as the path gives them (y may end in .pbf or .mvt); checked by api/params/tiles.ts. */
export const BasemapTileParams = Type.Object({ z: Type.String(), x: Type.String(), y: Type.String() });

/** A vector layer of a TileJSON: its attributes (name → type) and the zooms it has data at. */
export const TileJsonVectorLayer = Type.Object({
  id: Type.String({ description: 'The layer name in the tiles (a style\'s source-layer)' }),
  fields: Type.Record(Type.String(), Type.String(), { description: 'Attribute name → its type (String, Number, Boolean) or description' }),
  description: Type.Optional(Type.String()),
  minzoom: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 })),
  maxzoom: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 })),
});
export type TileJsonVectorLayer = Static<typeof TileJsonVectorLayer>;

/**
 * TileJSON 3.0.0 (GET /tiles.json, /layers/{id}/tiles.json, /byod/{id}/tiles.json): a tile source
 * as map clients read it, its tile URLs at this gateway with the caller's key embedded.
 */
export const TileJson = Type.Object({
  tilejson: Type.Literal('3.0.0'),
  tiles: Type.Array(Type.String(), { minItems: 1, description: 'Tile URL templates ({z}/{x}/{y}) with the key as the key query parameter' }),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  version: Type.Optional(Type.String({ description: 'Semver of the tileset, when its archive states one' })),
  attribution: Type.Optional(Type.String()),
  scheme: Type.Literal('xyz'),
  minzoom: Type.Integer({ minimum: 0, maximum: 30 }),
  maxzoom: Type.Integer({ minimum: 0, maximum: 30 }),
  bounds: Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: 'west, south, east, north (WGS 84 degrees)' }),
  center: Type.Array(Type.Number(), { minItems: 3, maxItems: 3, description: 'longitude, latitude, zoom of a default view' }),
  vector_layers: Type.Optional(Type.Array(TileJsonVectorLayer, { description: 'Vector tiles only (absent for raster tiles)' })),
});
export type TileJson = Static<typeof TileJson>;

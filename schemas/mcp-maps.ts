import { Type, type Static } from '@sinclair/typebox';

/** The MCP tool map_style_url and the resource canmap://maps/styles: where a map client loads a style, with the key embedded. */

const url = (description: string) => Type.String({ description });

export const MapStyleUrls = Type.Object({
  style: Type.String({ description: 'The style name (the file without .json; empty for the default style)' }),
  style_url: url('GET /styles/{style}.json with the key and the given options: the MapLibre style document (version 8) to load'),
  tilejson_url: url('GET /tiles.json with the key: the basemap as a TileJSON 3.0.0 source'),
  tiles_url: url('The basemap tile URL template ({z}/{x}/{y}, gzip Mapbox Vector Tiles) with the key, as the style and the TileJSON write it'),
  map_url: url('The map page (/map/) showing the style with the key; it carries the style name, theme and overlays only'),
}, { additionalProperties: false });
export type MapStyleUrls = Static<typeof MapStyleUrls>;

export const MapStyleList = Type.Object({
  styles: Type.Array(Type.Object({ name: Type.String(), style_url: url('GET /styles/{name}.json with the key') }), {
    description: 'Every style name GET /styles/{style}.json answers: palettes (light and dark), legacy aliases, city styles',
  }),
  tilejson_url: url('GET /tiles.json with the key: the basemap as a TileJSON 3.0.0 source'),
  tiles_url: url('The basemap tile URL template with the key'),
}, { additionalProperties: false });
export type MapStyleList = Static<typeof MapStyleList>;

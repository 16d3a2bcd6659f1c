import { Type, type Static } from '@sinclair/typebox';
import { ElevationQuery, ElevationResponse, MAX_PATH_POINTS, MAX_PROFILE_SAMPLES } from '../../../schemas/elevation-api.ts';
import { MapStyleUrls } from '../../../schemas/mcp-maps.ts';
import { StyleParams, StyleQuery } from '../../../schemas/styles-api.ts';
import { mapStyleUrls } from '../../../services/maps/style-urls.ts';
import { presentedKey } from '../../access/credentials.ts';
import { elevationAt } from '../../routes/elevation/index.ts';
import { checkedStyle } from '../../routes/styles/style-file.ts';
import { endpointTool } from '../endpoint-tool.ts';
import { checkToolInput, splitArgs } from '../tool-input.ts';
import { READ_ONLY, type McpTool } from '../tool.ts';

const elevationTool = endpointTool({
  name: 'elevation',
  title: 'Height of a point or a profile along a path',
  description: 'Ground height in metres above the EGM96 geoid (SRTM DEM), bilinear between the DEM posts, to the centimetre. ' +
    'One point: at "lng,lat" (longitude first, WGS84), or lon and lat. A profile: path "lng,lat;lng,lat;..." ' +
    `(2 to ${MAX_PATH_POINTS} points) answers each point's height and cumulative great-circle distance in metres, the length, min, ` +
    `max, total ascent and descent; with samples N (2 to ${MAX_PROFILE_SAMPLES}) the heights are at N points evenly spaced along the ` +
    'path. Outside the DEM\'s coverage a height is null, not an error; 404 when no terrain is configured. ' +
    'Example: {"at": "-124.4,48.45"} or {"path": "-124.4,48.45;-124.3,48.5", "samples": "10"}. One call of GET /elevation.',
  method: 'GET',
  route: '/elevation',
  query: ElevationQuery,
  response: ElevationResponse,
  answer: async (input, { app }) => ({ value: await elevationAt(app.services, input.query as ElevationQuery) }),
});

const StyleArgs = Type.Object({ ...StyleParams.properties, ...StyleQuery.properties }, { required: ['file'], additionalProperties: false });

/**
 * Not an endpoint call: the URLs are made here and nothing is fetched, so it takes a rate-limit
 * slot and is not metered; fetching the style is the metered call of GET /styles.
 */
const mapStyleUrlTool: McpTool = {
  name: 'map_style_url',
  title: 'URL of a map style',
  description: 'The URLs a MapLibre map needs for a named style, with the caller\'s API key embedded: style_url (the style ' +
    'document, GET /styles/{style}.json), tilejson_url and tiles_url (the basemap), map_url (the map page showing the style). ' +
    'file is "<style>.json": base, muted, outdoor, blueprint, blush, orchid, canopy, lagoon, tropic, sunset, bold, pastel, each ' +
    'also -light or -dark; legacy light, street, white, dark, black, relief, grayscale; city styles calgary, montreal, iqaluit ' +
    '(flavor names their palette). Options as GET /styles takes them: mode (light or dark), lang (e.g. fr), theme (a preset u1... ' +
    'or ut1. code), overlays (comma list of catalog layer ids from list_layers, or byod:<id>), profile (energy, agriculture, ' +
    'remote, mining). An unknown style is a 404 listing the names, a bad theme a 400; overlays are checked when the style is ' +
    'fetched. The map page carries the style, theme and overlays only. Example: {"file": "outdoor-dark.json", "lang": "fr"}. ' +
    'Makes URLs only: no endpoint call, not metered (fetching the style is one call of GET /styles/{style}.json).',
  inputSchema: StyleArgs,
  outputSchema: MapStyleUrls,
  annotations: READ_ONLY,
  async run(args, { app, request, gate }) {
    await gate.slot();
    const [paramArgs, queryArgs] = splitArgs(args, StyleParams);
    const { file } = checkToolInput<Static<typeof StyleParams>>(request, StyleParams, 'params', paramArgs);
    const options = checkToolInput<Static<typeof StyleQuery>>(request, StyleQuery, 'querystring', queryArgs);
    const style = checkedStyle(file, options.theme);
    const value = mapStyleUrls({ baseUrl: app.config.baseUrl, key: presentedKey(request) ?? '' }, style, options);
    return { text: JSON.stringify(value), structured: value };
  },
};

export const mapsTools: McpTool[] = [
  elevationTool,
  mapStyleUrlTool,
];

import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { refusalJson, refusalOf } from '../tool-errors.ts';
import { checkToolInput } from '../tool-input.ts';
import { READ_ONLY, type McpTool, type ToolContext } from '../tool.ts';
import { catalogTools } from './catalog.ts';
import { geocodingTools } from './geocoding.ts';
import { mapsTools } from './maps.ts';
import { toolNamed } from './named.ts';
import { roadEventsTools } from './road-events.ts';
import { transitTools } from './transit.ts';

const PARTS = {
  place: toolNamed(geocodingTools, 'reverse_geocode'),
  areas: toolNamed(catalogTools, 'identify'),
  stops: toolNamed(transitTools, 'transit_stops_nearby'),
  departures: toolNamed(transitTools, 'transit_departures'),
  road_events: toolNamed(roadEventsTools, 'road_incidents'),
  elevation: toolNamed(mapsTools, 'elevation'),
};

const AroundPointInput = Type.Object({
  lon: Type.Number({ minimum: -180, maximum: 180, description: 'longitude, WGS84 degrees' }),
  lat: Type.Number({ minimum: -90, maximum: 90, description: 'latitude, WGS84 degrees' }),
  stops_radius: Type.Integer({ minimum: 50, maximum: 2000, default: 500, description: 'metres around the point for transit stops' }),
  stops: Type.Integer({ minimum: 0, maximum: 5, default: 3, description: 'nearest stops to list with their next departures (0: none)' }),
  departures_window: Type.Integer({ minimum: 1, maximum: 240, default: 60, description: 'minutes of departures from now (or from `at`)' }),
  at: Type.Optional(Type.String({ description: 'ISO 8601 instant with Z or an offset the departures start at (default now)' })),
  road_events_radius: Type.Integer({ minimum: 1, maximum: 100_000, default: 25_000, description: 'metres around the point for road events' }),
}, { additionalProperties: false });
type AroundPointArgs = Static<typeof AroundPointInput>;

/** A part that could not answer: the refusal its HTTP endpoint would give. */
const PartRefusal = Type.Object({ http_status: Type.Integer(), error: Type.String(), code: Type.Optional(Type.String()) });
const part = (tool: McpTool): TSchema => Type.Union([tool.outputSchema, Type.Object({ refused: PartRefusal })]);

const AroundPointOutput = Type.Object({
  place: part(PARTS.place),
  areas: part(PARTS.areas),
  transit: Type.Union([
    Type.Object({
      stops: Type.Array(Type.Object({ stop: Type.Unknown(), departures: part(PARTS.departures) })),
      meta: Type.Unknown(),
    }),
    Type.Object({ refused: PartRefusal }),
  ]),
  road_events: part(PARTS.road_events),
  elevation: part(PARTS.elevation),
});

type Part = Record<string, unknown>;

/** One part: its tool's answer (one call of its endpoint), or the refusal it met; the others go on. */
async function runPart(tool: McpTool, args: Record<string, unknown>, context: ToolContext): Promise<Part> {
  try {
    return (await tool.run(args, context)).structured;
  } catch (err) {
    return { refused: refusalJson(refusalOf(err, context.request.log)) };
  }
}

async function transitAround(args: AroundPointArgs, near: string, context: ToolContext): Promise<Part> {
  const found = await runPart(PARTS.stops, { near, radius: args.stops_radius, limit: args.stops }, context);
  if ('refused' in found) return found;
  const stops = (found.data ?? []) as { id: string }[];
  const departures = await Promise.all(stops.map((stop) =>
    runPart(PARTS.departures, { id: stop.id, window: args.departures_window, ...(args.at === undefined ? {} : { at: args.at }) }, context)));
  return { stops: stops.map((stop, i) => ({ stop, departures: departures[i] })), meta: found.meta };
}


/**
 * "What is around this point": the place it is in (reverse geocoding and the areas that contain
 * it), the nearest transit stops with their next departures, active road events nearby and the
 * elevation. Each part is one call of its endpoint (metered, rate-limited and refused as that
 * call); a part refused (an add-on, no release) is reported in place and the rest still answers.
 */
export const aroundPointTool: McpTool = {
  name: 'around_point',
  title: 'What is around this point',
  description: 'Everything canmap knows around one point in Canada, in one call: the address or place there (reverse ' +
    'geocoding) and the areas containing it (municipality and other identify layers), the nearest transit stops (within ' +
    'stops_radius metres, default 500) with their scheduled departures in the next departures_window minutes (default 60), ' +
    'road incidents and closures within road_events_radius metres (default 25 km), and the ground elevation in metres. ' +
    'lon/lat are WGS84 degrees. Each part is one call of its own endpoint (GET /geocode/reverse, /identify, /transit/stops, ' +
    '/transit/stops/{id}/departures per stop, /incidents, /elevation), metered as such; a part that cannot answer carries ' +
    '{refused: {http_status, error, code}} and the others still answer. Example: {"lon": -123.1207, "lat": 49.2827}.',
  inputSchema: AroundPointInput,
  outputSchema: AroundPointOutput,
  annotations: READ_ONLY,
  async run(rawArgs, context) {
    // The composite's own arguments, checked as the parts' are (defaults filled, 400 naming the argument).
    const args = checkToolInput<AroundPointArgs>(context.request, AroundPointInput, 'body', { ...rawArgs });
    const point = `${args.lon},${args.lat}`;
    const [place, areas, transit, roadEvents, elevation] = await Promise.all([
      runPart(PARTS.place, { lon: args.lon, lat: args.lat, limit: '1' }, context),
      runPart(PARTS.areas, { at: point }, context),
      args.stops === 0 ? Promise.resolve({ stops: [], meta: null }) : transitAround(args, point, context),
      runPart(PARTS.road_events, { near: point, radius: args.road_events_radius }, context),
      runPart(PARTS.elevation, { at: point }, context),
    ]);
    const structured = { place, areas, transit, road_events: roadEvents, elevation };
    return { text: JSON.stringify(structured), structured };
  },
};

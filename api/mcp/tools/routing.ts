import { errors } from '../../../lib/errors.ts';
import { IsochroneQuery, IsochroneResponse, MatrixBody, MatrixResponse, MAX_ISOCHRONE_BANDS, MAX_ISOCHRONE_MINUTES, MAX_MATRIX_LOCATIONS, RouteQuery } from '../../../schemas/routing-api.ts';
import { MatchBody, MatchResponse, MAX_MATCH_POINTS, MAX_MATCH_TRACE_METRES } from '../../../schemas/routing-match-api.ts';
import { MAX_OPTIMIZED_STOPS, OptimizedRouteBody, OptimizedRouteResponse } from '../../../schemas/routing-optimized-api.ts';
import type { RoutingCall } from '../../../services/routing/index.ts';
import { withRoutingCall } from '../../replies/routing-call.ts';
import { isochroneAnswer } from '../../routes/routing/isochrone.ts';
import { matchAnswer } from '../../routes/routing/match.ts';
import { matrixAnswer } from '../../routes/routing/matrix.ts';
import { optimizedRouteAnswer } from '../../routes/routing/optimized-route.ts';
import { RouteAnswerSchema, routeJsonOf } from '../../routes/routing/route.ts';
import { endpointTool } from '../endpoint-tool.ts';
import type { McpTool, ToolContext } from '../tool.ts';

/**
 * Runs a routing answer as the route does (withRoutingCall: the routing pool's time budget, off the
 * event loop, cancelled if the /mcp client goes away), logged under the endpoint the tool stands for.
 * JSON bytes the route sends as they are become the same text.
 */
async function routing(context: ToolContext, endpoint: string, work: (call: RoutingCall) => Promise<unknown>) {
  const value = await withRoutingCall(context.request, context.reply, work, endpoint);
  return { value: Buffer.isBuffer(value) ? value.toString('utf8') : value };
}

const ROAD_OPTIONS = 'the preferences avoid (comma list of tolls, highways, ferries), use_highways and use_hills (0 to 1), and for mode=truck '
  + 'the hard limits height, width, length (metres), weight, axle_load (tonnes), axle_count and hazmat (true/false)';

export const routingTools: McpTool[] = [
  endpointTool({
    name: 'route',
    title: 'Route between two points',
    description: 'The least-cost route from one point to another in Canada. from and to are "lon,lat" (WGS84). mode: auto (car, the default), '
      + `truck, bicycle, pedestrian, or transit. Road modes take ${ROAD_OPTIONS}; they answer distanceMeters (metres), durationSeconds `
      + '(seconds), the GeoJSON LineString (six decimals), warnings (ENDPOINT_RELOCATED when an end is more than 50 m from a usable road; '
      + 'CLOSURE_IN_FORCE_NEAR_ROUTE / CLOSURE_SCHEDULED_NEAR_ROUTE for provincial road closures within 250 m) and, for trucks, truck '
      + 'compliance. mode=transit needs depart_at (ISO 8601) and answers scheduled journeys with legs, transfers and alternatives. '
      + 'Example: {"from": "-123.1115,49.2856", "to": "-123.1390,49.2750", "mode": "car"}. One call of GET /route.',
    method: 'GET',
    route: '/route',
    query: RouteQuery,
    response: RouteAnswerSchema,
    answer: (input, context) => routing(context, '/route', (call) => routeJsonOf(context.app, input.query as RouteQuery, call)),
  }),
  endpointTool({
    name: 'isochrone',
    title: 'Area reachable within a travel time',
    description: `The area reachable from a point (lon, lat in WGS84) within up to ${MAX_ISOCHRONE_BANDS} travel times: minutes is a comma list `
      + `of at most ${MAX_ISOCHRONE_MINUTES} minutes each. mode auto (car, the default), truck, bicycle or pedestrian, with ${ROAD_OPTIONS}. `
      + 'Answers a GeoJSON FeatureCollection, one Polygon or MultiPolygon per band, largest first; properties.contour is the band\'s minutes. '
      + 'Example: {"lon": -123.1207, "lat": 49.2827, "minutes": "5,10", "mode": "pedestrian"}. One call of GET /isochrone.',
    method: 'GET',
    route: '/isochrone',
    query: IsochroneQuery,
    response: IsochroneResponse,
    answer: (input, context) => routing(context, '/isochrone', (call) => isochroneAnswer(context.app.services, input.query as IsochroneQuery, call)),
  }),
  endpointTool({
    name: 'matrix',
    title: 'Travel times and distances between points',
    description: `Durations (seconds) and distances (metres) by road from each of 1 to ${MAX_MATRIX_LOCATIONS} origins to each of 1 to `
      + `${MAX_MATRIX_LOCATIONS} destinations, each a [lon, lat] pair. Row-major: durations[i][j] is origins[i] to destinations[j]; 0 on a `
      + 'shared point. mode auto (car, the default), truck, bicycle or pedestrian; avoid is an array; use_highways, use_hills and the truck '
      + 'limits as for route. Refused (422) when a pair is unreachable. '
      + 'Example: {"origins": [[-123.1115, 49.2856]], "destinations": [[-123.1207, 49.2827], [-123.1100, 49.2700]]}. One call of POST /matrix.',
    method: 'POST',
    route: '/matrix',
    body: MatrixBody,
    response: MatrixResponse,
    answer: (input, context) => {
      // The route is registered only when MATRIX_ENABLED is on; otherwise the path is the 404 of any path we do not serve.
      if (!context.app.config.matrixEnabled) throw errors.notFound();
      return routing(context, '/matrix', (call) => matrixAnswer(context.app.services, input.body as MatrixBody, call));
    },
  }),
  endpointTool({
    name: 'map_match',
    title: 'Match a GPS trace to roads',
    description: `Snaps a GPS trace to the road network: points (2 to ${MAX_MATCH_POINTS}, each [lon, lat] or {lng, lat, time?, accuracy?}, `
      + 'time in unix seconds or ISO 8601, non-decreasing), mode (car, the default, truck, bicycle, pedestrian), search_radius, gps_accuracy and '
      + 'breakage_distance in metres. Answers the matched line (a MultiLineString when the match breaks), its distanceMeters and '
      + `durationSeconds, each point's matched location and road edge, the segments and breaks. At most ${MAX_MATCH_TRACE_METRES / 1000} km of trace. `
      + 'Example: {"points": [[-123.1115, 49.2856], [-123.1150, 49.2840], [-123.1200, 49.2815]]}. One call of POST /match.',
    method: 'POST',
    route: '/match',
    body: MatchBody,
    response: MatchResponse,
    answer: (input, context) => routing(context, '/match', (call) => matchAnswer(context.app.services, input.body as MatchBody, call)),
  }),
  endpointTool({
    name: 'optimized_route',
    title: 'Best order to visit stops, and its route',
    description: `The least-duration order to visit 2 to ${MAX_OPTIMIZED_STOPS} stops with one vehicle, and its road route. stops are [lon, lat] `
      + 'pairs or {"lng", "lat"} objects; start: first (stops[0], the default) or any; end: last (the last stop, the default), first (a round '
      + 'trip; needs start first) or any; mode, avoid, use_highways, use_hills and truck limits as for matrix. Answers order (indices into '
      + 'stops), distanceMeters, durationSeconds, the whole line and one leg per consecutive pair. '
      + 'Example: {"stops": [[-123.1115, 49.2856], [-123.1390, 49.2750], [-123.1207, 49.2827]], "end": "first"}. One call of POST /optimized-route.',
    method: 'POST',
    route: '/optimized-route',
    body: OptimizedRouteBody,
    response: OptimizedRouteResponse,
    answer: (input, context) => routing(context, '/optimized-route', (call) => optimizedRouteAnswer(context.app.services, input.body as OptimizedRouteBody, call)),
  }),
];

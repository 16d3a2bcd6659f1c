import { EVENT_LISTS, type EventList } from '../../../engines/road-events/select.ts';
import {
  ROAD_EVENTS_DEFAULT_RADIUS_M, ROAD_EVENTS_MAX_LIMIT, ROAD_EVENTS_MAX_RADIUS_M, RoadEventsQuery, RoadEventsResponse,
  type RoadEventsQuery as EventsQuery,
} from '../../../schemas/road-events-api.ts';
import { listRoadEvents } from '../../routes/road-events/list.ts';
import { endpointTool } from '../endpoint-tool.ts';
import type { McpTool } from '../tool.ts';

const FILTERS = 'Road events cover British Columbia (DriveBC, polled every minute). Filters: near "lng,lat" (longitude first, ' +
  `WGS84) with radius in metres (1-${ROAD_EVENTS_MAX_RADIUS_M}, default ${ROAD_EVENTS_DEFAULT_RADIUS_M}; a line matches by its ` +
  'nearest point), bbox "west,south,east,north", type (closure, incident, construction, weather, restriction, ferry, hazard, ' +
  'special_event, unknown), severity (minor, major, unknown), status (active, planned, archived), updated_since (ISO 8601 ' +
  `with Z or an offset), jurisdiction (CA-BC); lists comma-separated. limit 1-${ROAD_EVENTS_MAX_LIMIT} (default 100), not paged. ` +
  'Order: most severe first, then most recently updated. Each event has its roads (name, direction, closed, from, to), ' +
  'GeoJSON geometry, schedule (starts_at, ends_at) and status; meta.status is current, stale or partial (meta.unavailable ' +
  'then says which feed could not be read: an empty list is no proof of open roads).';

function roadEventsTool(name: string, title: string, what: string, route: string, list: EventList): McpTool {
  return endpointTool({
    name,
    title,
    description: `${what} ${FILTERS} Example: {"near": "-117.52,51.30", "radius": 100000}. One call of GET ${route}.`,
    method: 'GET',
    route,
    query: RoadEventsQuery,
    response: RoadEventsResponse,
    answer: async (input, { app }) => ({ value: (await listRoadEvents(app.services, list, input.query as EventsQuery)).toString('utf8') }),
  });
}

export const roadEventsTools: McpTool[] = [
  roadEventsTool('road_incidents', 'Road events (incidents, construction, closures)',
    'Every current road event the publisher lists: incidents, construction, closures, weather, ferries; active (in force ' +
    'now), planned (a window starts later) and archived.', '/incidents', EVENT_LISTS.all),
  roadEventsTool('road_closures', 'Road closures',
    'Roads actually shut: events with at least one road whose publisher state is CLOSED, in force now unless status asks ' +
    'for others (status=planned: scheduled closures).', '/closures', EVENT_LISTS.closures),
  roadEventsTool('road_conditions', 'Road surface conditions',
    'Events carrying a road surface condition (ice, snow, mud, loose gravel, water, ...).', '/road-conditions', EVENT_LISTS.surface),
];

import {
  AgenciesResponse, CoverageResponse, DeparturesQuery, DeparturesResponse, NearbyStopsQuery, NearbyStopsResponse, StopResponse, TransitIdParams,
} from '../../../schemas/transit-api.ts';
import { transitDepartures, type DeparturesSearch } from '../../routes/transit/departures.ts';
import { transitStopsNearby, type NearbyStopsSearch } from '../../routes/transit/stops-nearby.ts';
import { endpointTool } from '../endpoint-tool.ts';
import type { McpTool } from '../tool.ts';

const META = 'Each answer is {data, meta}: meta names the feeds (source, licence attribution, versions) the records came from.';

export const transitTools: McpTool[] = [
  endpointTool({
    name: 'transit_agencies',
    title: 'List transit agencies',
    description: 'Every public transit agency of the enabled static (GTFS) transit release: id (svc:transit:agency:...), feed, ' +
      `name, website, time zone, language, phone. ${META} No arguments. Example: {}. One call of GET /transit/agencies.`,
    method: 'GET',
    route: '/transit/agencies',
    response: AgenciesResponse,
    answer: async (_input, { app }) => ({ value: await app.services.transit.agencies() }),
  }),
  endpointTool({
    name: 'transit_stops_nearby',
    title: 'Find transit stops near a point',
    description: 'Transit stops and stations within `radius` metres of a point, nearest first, each with its great-circle ' +
      'distance in metres, coordinates, the routes calling there and its service id (svc:transit:stop:...) for transit_stop ' +
      'and transit_departures. near is "lng,lat" (longitude first, WGS84). radius 50-10000 m (default 1000); limit 1-100 ' +
      `(default 20). ${META} Example: {"near": "-123.1175,49.2820", "radius": 500}. One call of GET /transit/stops.`,
    method: 'GET',
    route: '/transit/stops',
    query: NearbyStopsQuery,
    response: NearbyStopsResponse,
    answer: async (input, { app }) => ({ value: await transitStopsNearby(app.services, input.query as NearbyStopsSearch) }),
  }),
  endpointTool({
    name: 'transit_stop',
    title: 'Look up a transit stop',
    description: 'One transit stop or station by its service id (svc:transit:stop:<feed>:<stop id>, as transit_stops_nearby ' +
      'answers it): name, code, coordinates (lon, lat), type, parent station and children (platforms), wheelchair boarding, ' +
      `routes calling there. An unknown id is a 404. ${META} Example: {"id": "svc:transit:stop:vancouver-bus:GRAN_GEORGIA"}. ` +
      'One call of GET /transit/stops/{id}.',
    method: 'GET',
    route: '/transit/stops/:id',
    params: TransitIdParams,
    response: StopResponse,
    answer: async (input, { app }) => ({ value: await app.services.transit.stop(String(input.params.id)) }),
  }),
  endpointTool({
    name: 'transit_departures',
    title: 'Scheduled departures at a transit stop',
    description: 'Scheduled (timetable, not real-time) departures at a stop in [at, at + window), in departure order; a ' +
      'station answers its platforms\' departures. Each has route, trip, headsign, arrival and departure as ISO 8601 UTC ' +
      'instants. id: the stop\'s service id (svc:transit:stop:...). at: ISO 8601 instant with Z or an offset (default now; a ' +
      'local time without offset is refused). window 1-240 minutes (default 60); limit 1-200 (default 50). An unknown id is ' +
      `a 404. ${META} Example: {"id": "svc:transit:stop:vancouver-bus:GRAN_GEORGIA", "at": "2026-03-09T08:00:00-08:00", ` +
      '"window": 120}. One call of GET /transit/stops/{id}/departures.',
    method: 'GET',
    route: '/transit/stops/:id/departures',
    params: TransitIdParams,
    query: DeparturesQuery,
    response: DeparturesResponse,
    answer: async (input, { app }) => ({
      value: await transitDepartures(app.services, String(input.params.id), input.query as DeparturesSearch),
    }),
  }),
  endpointTool({
    name: 'transit_coverage',
    title: 'Transit feed coverage',
    description: 'Which transit (GTFS) feeds the enabled release assessed: each feed included or refused, with its source, ' +
      'licence, attribution, the reason for a refusal, counts (stops, trips, routes) and its service dates. Use it to tell ' +
      'whether a city\'s transit is covered before asking for stops or departures. No arguments. Example: {}. ' +
      'One call of GET /coverage.json.',
    method: 'GET',
    route: '/coverage.json',
    response: CoverageResponse,
    answer: async (_input, { app }) => ({ value: await app.services.transit.coverage() }),
  }),
];

import type { McpCase } from './case.ts';

const GRAN_GEORGIA = 'svc:transit:stop:vancouver-bus:GRAN_GEORGIA';
const UNION = 'svc:transit:stop:toronto-rail:UNION';
const path = (id: string) => encodeURIComponent(id);

export const transitCases: McpCase[] = [
  {
    name: 'transit_agencies: every agency of the release',
    tool: 'transit_agencies',
    args: {},
    http: { method: 'GET', url: '/transit/agencies' },
  },
  {
    name: 'transit_stops_nearby: stops near downtown Vancouver',
    tool: 'transit_stops_nearby',
    args: { near: '-123.1175,49.2820', radius: 500 },
    http: { method: 'GET', url: '/transit/stops?near=-123.1175,49.2820&radius=500' },
  },
  {
    name: 'transit_stops_nearby: defaults (1000 m, 20 stops)',
    tool: 'transit_stops_nearby',
    args: { near: '-79.3806,43.6453' },
    http: { method: 'GET', url: '/transit/stops?near=-79.3806,43.6453' },
  },
  {
    name: 'transit_stops_nearby: a longitude out of range is the same 400',
    tool: 'transit_stops_nearby',
    args: { near: '200,49' },
    http: { method: 'GET', url: '/transit/stops?near=200,49' },
    refused: 400,
  },
  {
    name: 'transit_stops_nearby: a radius below 50 m is the same 400',
    tool: 'transit_stops_nearby',
    args: { near: '-123.1175,49.2820', radius: 10 },
    http: { method: 'GET', url: '/transit/stops?near=-123.1175,49.2820&radius=10' },
    refused: 400,
  },
  {
    name: 'transit_stop: a station with its platforms',
    tool: 'transit_stop',
    args: { id: UNION },
    http: { method: 'GET', url: `/transit/stops/${path(UNION)}` },
  },
  {
    name: 'transit_stop: an unknown id is the same 404',
    tool: 'transit_stop',
    args: { id: 'svc:transit:stop:nope' },
    http: { method: 'GET', url: `/transit/stops/${path('svc:transit:stop:nope')}` },
    refused: 404,
  },
  // Departures depend on the time: both calls name the same `at`.
  {
    name: 'transit_departures: a bus stop over two hours',
    tool: 'transit_departures',
    args: { id: GRAN_GEORGIA, at: '2026-03-09T08:00:00-08:00', window: 120, limit: 5 },
    http: { method: 'GET', url: `/transit/stops/${path(GRAN_GEORGIA)}/departures?at=2026-03-09T08:00:00-08:00&window=120&limit=5` },
  },
  {
    name: 'transit_departures: a station answers its platforms',
    tool: 'transit_departures',
    args: { id: UNION, at: '2026-03-09T13:00:00Z' },
    http: { method: 'GET', url: `/transit/stops/${path(UNION)}/departures?at=2026-03-09T13:00:00Z` },
  },
  {
    name: 'transit_departures: a local time without offset is the same 400',
    tool: 'transit_departures',
    args: { id: UNION, at: '2026-03-09T08:00:00' },
    http: { method: 'GET', url: `/transit/stops/${path(UNION)}/departures?at=2026-03-09T08:00:00` },
    refused: 400,
  },
  {
    name: 'transit_departures: a window over 240 minutes is the same 400',
    tool: 'transit_departures',
    args: { id: UNION, at: '2026-03-09T13:00:00Z', window: 500 },
    http: { method: 'GET', url: `/transit/stops/${path(UNION)}/departures?at=2026-03-09T13:00:00Z&window=500` },
    refused: 400,
  },
  {
    name: 'transit_departures: an unknown stop is the same 404',
    tool: 'transit_departures',
    args: { id: 'svc:transit:stop:nope', at: '2026-03-09T13:00:00Z' },
    http: { method: 'GET', url: `/transit/stops/${path('svc:transit:stop:nope')}/departures?at=2026-03-09T13:00:00Z` },
    refused: 404,
  },
  {
    name: 'transit_coverage: the feeds assessed',
    tool: 'transit_coverage',
    args: {},
    http: { method: 'GET', url: '/coverage.json' },
  },
];

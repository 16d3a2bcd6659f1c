import type { McpCase } from './case.ts';

/** Downtown Vancouver on the demo's sample roads: Canada Place to the West End (bin/demo/examples.ts). */
const FROM = '-123.1115,49.2856';
const TO = '-123.1390,49.2750';
const STOPS = [[-123.1115, 49.2856], [-123.1390, 49.2750], [-123.1207, 49.2827]];
const TRACE = [[-123.1115, 49.2856], [-123.1150, 49.2840], [-123.1207, 49.2827]];

export const routingCases: McpCase[] = [
  {
    name: 'route: a car route downtown',
    tool: 'route',
    args: { from: FROM, to: TO },
    http: { method: 'GET', url: `/route?from=${FROM}&to=${TO}` },
  },
  {
    name: 'route: a truck with height and hazmat limits',
    tool: 'route',
    args: { from: FROM, to: TO, mode: 'truck', height: 4.5, hazmat: true },
    http: { method: 'GET', url: `/route?from=${FROM}&to=${TO}&mode=truck&height=4.5&hazmat=true` },
  },
  {
    // The demo routes transit over its first feed by id: the Halifax harbour ferries (Halifax terminal to Alderney).
    name: 'route: a transit journey across Halifax harbour departing at a given time',
    tool: 'route',
    args: { from: '-63.5698,44.6463', to: '-63.5678,44.6652', mode: 'transit', depart_at: '2026-06-15T12:00:00-03:00' },
    http: { method: 'GET', url: '/route?from=-63.5698,44.6463&to=-63.5678,44.6652&mode=transit&depart_at=2026-06-15T12:00:00-03:00' },
  },
  {
    name: 'route: an unknown mode is the same 400',
    tool: 'route',
    args: { from: FROM, to: TO, mode: 'boat' },
    http: { method: 'GET', url: `/route?from=${FROM}&to=${TO}&mode=boat` },
    refused: 400,
  },
  {
    name: 'route: depart_at on a road mode is the same 400',
    tool: 'route',
    args: { from: FROM, to: TO, depart_at: '2026-06-15T08:00:00Z' },
    http: { method: 'GET', url: `/route?from=${FROM}&to=${TO}&depart_at=2026-06-15T08:00:00Z` },
    refused: 400,
  },
  {
    name: 'isochrone: walking bands around downtown',
    tool: 'isochrone',
    args: { lon: -123.1207, lat: 49.2827, minutes: '5,10', mode: 'pedestrian' },
    http: { method: 'GET', url: '/isochrone?lon=-123.1207&lat=49.2827&minutes=5,10&mode=pedestrian' },
  },
  {
    name: 'isochrone: more than four bands is the same 400',
    tool: 'isochrone',
    args: { lon: -123.1207, lat: 49.2827, minutes: '5,10,15,20,25' },
    http: { method: 'GET', url: '/isochrone?lon=-123.1207&lat=49.2827&minutes=5,10,15,20,25' },
    refused: 400,
  },
  {
    name: 'matrix: two origins by two destinations',
    tool: 'matrix',
    args: { origins: [[-123.1115, 49.2856], [-123.1390, 49.2750]], destinations: [[-123.1207, 49.2827], [-123.1100, 49.2700]] },
    http: { method: 'POST', url: '/matrix', body: { origins: [[-123.1115, 49.2856], [-123.1390, 49.2750]], destinations: [[-123.1207, 49.2827], [-123.1100, 49.2700]] } },
  },
  {
    name: 'matrix: a latitude out of range is the same 400',
    tool: 'matrix',
    args: { origins: [[-123.1115, 149.2856]], destinations: [[-123.1207, 49.2827]] },
    http: { method: 'POST', url: '/matrix', body: { origins: [[-123.1115, 149.2856]], destinations: [[-123.1207, 49.2827]] } },
    refused: 400,
  },
  {
    name: 'map_match: a short trace downtown',
    tool: 'map_match',
    args: { points: TRACE },
    http: { method: 'POST', url: '/match', body: { points: TRACE } },
  },
  {
    name: 'map_match: one point is the same 400',
    tool: 'map_match',
    args: { points: [TRACE[0]] },
    http: { method: 'POST', url: '/match', body: { points: [TRACE[0]] } },
    refused: 400,
  },
  {
    name: 'optimized_route: three stops as a round trip',
    tool: 'optimized_route',
    args: { stops: STOPS, end: 'first' },
    http: { method: 'POST', url: '/optimized-route', body: { stops: STOPS, end: 'first' } },
  },
  {
    name: 'optimized_route: a round trip that may start anywhere is the same 400',
    tool: 'optimized_route',
    args: { stops: STOPS, start: 'any', end: 'first' },
    http: { method: 'POST', url: '/optimized-route', body: { stops: STOPS, start: 'any', end: 'first' } },
    refused: 400,
  },
];

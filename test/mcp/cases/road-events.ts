import type { McpCase } from './case.ts';

/**
 * meta.fetched_at is the last successful poll: the demo's worker polls every minute, so a poll
 * landing between the tool call and the HTTP call moves it. Everything else is the same snapshot.
 */
function withoutFetchedAt(answer: unknown): unknown {
  const { meta, ...rest } = answer as { meta: Record<string, unknown> };
  const { fetched_at: _polled, ...stable } = meta;
  return { ...rest, meta: stable };
}

export const roadEventsCases: McpCase[] = [
  {
    name: 'road_incidents: events within 100 km of Rogers Pass',
    tool: 'road_incidents',
    args: { near: '-117.52,51.30', radius: 100000 },
    http: { method: 'GET', url: '/incidents?near=-117.52,51.30&radius=100000' },
    normalize: withoutFetchedAt,
  },
  {
    name: 'road_incidents: radius without near is the same 400',
    tool: 'road_incidents',
    args: { radius: 100 },
    http: { method: 'GET', url: '/incidents?radius=100' },
    refused: 400,
  },
  {
    name: 'road_closures: roads shut now',
    tool: 'road_closures',
    args: {},
    http: { method: 'GET', url: '/closures' },
    normalize: withoutFetchedAt,
  },
  {
    name: 'road_closures: planned closures',
    tool: 'road_closures',
    args: { status: 'planned' },
    http: { method: 'GET', url: '/closures?status=planned' },
    normalize: withoutFetchedAt,
  },
  {
    name: 'road_closures: an unknown type is the same 400',
    tool: 'road_closures',
    args: { type: 'flood' },
    http: { method: 'GET', url: '/closures?type=flood' },
    refused: 400,
  },
  {
    name: 'road_conditions: surface conditions in a box around Manning Park',
    tool: 'road_conditions',
    args: { bbox: '-121.5,48.9,-120.3,49.5' },
    http: { method: 'GET', url: '/road-conditions?bbox=-121.5,48.9,-120.3,49.5' },
    normalize: withoutFetchedAt,
  },
  {
    name: 'road_conditions: a bad bbox is the same 400',
    tool: 'road_conditions',
    args: { bbox: '1,2,3' },
    http: { method: 'GET', url: '/road-conditions?bbox=1,2,3' },
    refused: 400,
  },
  {
    name: 'road_conditions: a limit over 500 is the same 400',
    tool: 'road_conditions',
    args: { limit: 501 },
    http: { method: 'GET', url: '/road-conditions?limit=501' },
    refused: 400,
  },
];

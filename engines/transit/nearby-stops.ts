import type { NearbyStop } from '../../schemas/transit-api.ts';
import type { TransitData } from './data.ts';

export interface NearbyStopsRequest {
  lng: number;
  lat: number;
  radius: number;
  limit: number;
}

/**
 * Stops and stations within radius metres (exact great-circle distance), nearest first, distance
 * rounded to whole metres. Entrances, generic nodes and boarding areas are not listed.
 */
export function findNearbyStops(data: TransitData, request: NearbyStopsRequest): { stops: NearbyStop[]; feeds: number[] } {
  const hits = data.grid.within(request.lng, request.lat, request.radius, request.limit);
  return {
    stops: hits.map(({ item, distance }) => ({ ...data.stops[item]!, distance: Math.round(distance) })),
    feeds: hits.map(({ item }) => data.stopFeed[item]!),
  };
}

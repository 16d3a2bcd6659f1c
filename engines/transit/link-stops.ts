import type { TransitData } from './data.ts';
import { StopGrid } from './stop-grid.ts';

type Loaded = Omit<TransitData, 'stopIndex' | 'stopFeed' | 'stopMembers' | 'routeIndex' | 'routeFeed' | 'grid'>;

/**
 * Ties the loaded tables together: id → index maps, each station's child platforms (whose
 * departures and routes it answers with), the routes calling at every stop, and the nearby grid.
 */
export function linkStops(loaded: Loaded): TransitData {
  const { stops, routes, feeds, trips, stopTimes } = loaded;
  const stopIndex = new Map(stops.map((s, i) => [s.id, i]));
  const routeIndex = new Map(routes.map((r, i) => [r.id, i]));
  const feedIndex = new Map(feeds.map((f, i) => [f.feedId, i]));
  const stopFeed = Int32Array.from(stops, (s) => feedIndex.get(s.feed_id) ?? 0);
  const routeFeed = Int32Array.from(routes, (r) => feedIndex.get(r.feed_id) ?? 0);

  const children: number[][] = stops.map(() => []);
  stops.forEach((stop, i) => {
    const parent = stop.parent_id === null ? undefined : stopIndex.get(stop.parent_id);
    if (parent !== undefined && parent !== i) children[parent]!.push(i);
  });

  const routesAt: Set<number>[] = stops.map((_, stop) => {
    const set = new Set<number>();
    for (let row = stopTimes.stopStart[stop]!; row < stopTimes.stopStart[stop + 1]!; row++) {
      const route = trips.route[stopTimes.trip[row]!]!;
      if (route >= 0) set.add(route);
    }
    return set;
  });

  const stopMembers = stops.map((_, i) => Int32Array.from([i, ...children[i]!]));
  stops.forEach((stop, i) => {
    const members = stopMembers[i]!;
    const routeSet = new Set<number>();
    for (const member of members) for (const route of routesAt[member]!) routeSet.add(route);
    stop.routes = [...routeSet].map((r) => routes[r]!.id).sort();
    stop.children = children[i]!.map((c) => stops[c]!.id).sort();
  });

  const searchable = [];
  for (let i = 0; i < stops.length; i++) {
    const stop = stops[i]!;
    if ((stop.location_type === 'stop' || stop.location_type === 'station') && isCoordinate(stop.lon, stop.lat)) {
      searchable.push({ item: i, lng: stop.lon!, lat: stop.lat! });
    }
  }

  return {
    ...loaded,
    stopIndex,
    stopFeed,
    stopMembers,
    routeIndex,
    routeFeed,
    grid: StopGrid.build(searchable, stops.length),
  };
}

const isCoordinate = (lon: number | null, lat: number | null) =>
  lon !== null && lat !== null && Number.isFinite(lon) && Number.isFinite(lat) &&
  Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

import type { ServiceDeps } from '../deps.ts';
import { errors } from '../../lib/errors.ts';
import { TRANSIT_KIND } from '../../schemas/transit-release.ts';
import type { Agency, CoverageResponse, Departure, NearbyStop, TransitRoute, Stop, TransitMeta } from '../../schemas/transit-api.ts';
import type { TransitData } from '../../engines/transit/data.ts';
import { coverageOf } from '../../engines/transit/coverage.ts';
import { findDepartures } from '../../engines/transit/departures.ts';
import { allFeeds, transitMeta } from '../../engines/transit/meta.ts';
import { findNearbyStops, type NearbyStopsRequest } from '../../engines/transit/nearby-stops.ts';

/** A transit answer: records and the meta of the feeds they came from. */
export interface TransitAnswer<T> {
  data: T;
  meta: TransitMeta;
}

/** Departures at a stop (a station: its platforms') in [at, at + windowMinutes). */
export interface StopDeparturesRequest {
  stopId: string;
  /** Epoch seconds (api/params/transit/at.ts). */
  at: number;
  windowMinutes: number;
  limit: number;
}

export interface TransitService {
  agencies(): Promise<TransitAnswer<Agency[]>>;
  coverage(): Promise<CoverageResponse>;
  stop(id: string): Promise<TransitAnswer<Stop>>;
  route(id: string): Promise<TransitAnswer<TransitRoute>>;
  departures(request: StopDeparturesRequest): Promise<TransitAnswer<Departure[]>>;
  stopsNearby(request: NearbyStopsRequest): Promise<TransitAnswer<NearbyStop[]>>;
}

/** The static transit answers, from the enabled 'transit' release; a missing one is a 503, an unknown id a 404. */
export function createTransitService(deps: ServiceDeps): TransitService {
  const withData = <T>(answer: (data: TransitData) => T): Promise<T> =>
    deps.releases.use(TRANSIT_KIND, async (data: TransitData) => answer(data));
  return {
    agencies: () => withData((data) => ({ data: data.agencies, meta: transitMeta(data, allFeeds(data)) })),
    coverage: () => deps.releases.use(TRANSIT_KIND, async (_data, { id, manifest }) => coverageOf(id, manifest)),
    stop: (id) => withData((data) => {
      const index = data.stopIndex.get(id);
      if (index === undefined) throw errors.notFound('stop not found');
      return { data: data.stops[index]!, meta: transitMeta(data, [data.stopFeed[index]!]) };
    }),
    route: (id) => withData((data) => {
      const index = data.routeIndex.get(id);
      if (index === undefined) throw errors.notFound('route not found');
      return { data: data.routes[index]!, meta: transitMeta(data, [data.routeFeed[index]!]) };
    }),
    departures: ({ stopId, at, windowMinutes, limit }) => withData((data) => {
      const stop = data.stopIndex.get(stopId);
      if (stop === undefined) throw errors.notFound('stop not found');
      const departures = findDepartures(data, { stop, at, windowSeconds: windowMinutes * 60, limit });
      return { data: departures, meta: transitMeta(data, [data.stopFeed[stop]!]) };
    }),
    stopsNearby: (request) => withData((data) => {
      const found = findNearbyStops(data, request);
      // An empty answer searched every feed; otherwise meta names the feeds of the stops found.
      return { data: found.stops, meta: transitMeta(data, found.stops.length ? found.feeds : allFeeds(data)) };
    }),
  };
}

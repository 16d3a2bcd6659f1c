/**
 * mode=transit: RAPTOR over the routable feed of the enabled transit release (TRANSIT_ROUTING_FEED,
 * else its first feed), walking along the enabled road graph's streets when there is one. No
 * transit release, or one without that feed: 503 routing temporarily unavailable; no journey: 422;
 * an unexpected engine fault: 502, never a 500.
 */
import type { RoadNetwork } from '../../engines/routing/release.ts';
import type { TransitData } from '../../engines/transit/data.ts';
import { departureInstant } from '../../engines/transit/journeys/local-time.ts';
import { planJourneys } from '../../engines/transit/journeys/plan.ts';
import { transitRouteJson } from '../../engines/transit/journeys/response.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { Refusal, errors } from '../../lib/errors.ts';
import type { Config } from '../../lib/config.ts';
import type { ReleaseStore } from '../../releases/reader.ts';
import { ReleaseUnavailableError } from '../../releases/unavailable.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { TRANSIT_KIND } from '../../schemas/transit-release.ts';
import type { ServiceLog } from '../deps.ts';

export async function transitJourneys(
  releases: ReleaseStore, routingFeed: Config['transitRoutingFeed'], log: ServiceLog, from: LngLat, to: LngLat, departAtText: string,
) {
  try {
    return await releases.use(TRANSIT_KIND, async (data: TransitData) => {
      const feedId = routingFeed ?? data.feeds[0]?.feedId;
      const feed = data.feeds.find((f) => f.feedId === feedId);
      if (!feed) {
        log.warn({ feedId, release: data.releaseId }, 'route: the enabled transit release lacks the routable feed');
        throw errors.serviceUnavailable('routing');
      }
      const departAt = departureInstant(departAtText, feed.timezone);
      const answer = async (roads: RoadNetwork | null) => {
        const journeys = planJourneys(data, feed.feedId, { from, to, departAt }, roads);
        if (journeys.length === 0) throw errors.noRoute();
        return transitRouteJson(journeys, departAt);
      };
      // Walks follow the streets while a roads release is enabled, else straight lines.
      return releases.use(ROADS_KIND, answer).catch((err: unknown) => {
        if (err instanceof ReleaseUnavailableError) return answer(null);
        throw err;
      });
    });
  } catch (err) {
    if (err instanceof ReleaseUnavailableError) throw errors.serviceUnavailable('routing');
    if (err instanceof Refusal) throw err;
    log.error({ err }, 'route: transit routing failed');
    throw errors.routingFailed();
  }
}

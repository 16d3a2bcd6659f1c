import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuckDb } from '../../lib/duckdb.ts';
import type { KindOpener } from '../../releases/reader.ts';
import type { Manifest } from '../../schemas/manifest.ts';
import { TRANSIT_DATABASE_FILE, TRANSIT_KIND } from '../../schemas/transit-release.ts';
import type { TransitData } from './data.ts';
import { loadAgencies, loadFeeds, loadRoutes, loadStops } from './load-catalog.ts';
import { loadServiceCalendar, loadStopTimes, loadTrips } from './load-schedule.ts';
import { linkStops } from './link-stops.ts';
import { transitNetwork } from './journeys/network.ts';
import { loadTransfers } from './load-transfers.ts';


/**
 * Opens a transit release for serving: reads transit.duckdb READ_ONLY once into compact
 * in-memory columns and indexes (departures and nearby stops then cost microseconds, not a
 * DuckDB query each) and closes the database again.
 */
export async function openTransitRelease(dir: string, manifest: Manifest): Promise<TransitData> {
  // A sort that spills would otherwise write transit.duckdb.tmp/ into the immutable release dir.
  const spillDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-transit-open-'));
  try {
    const { connection, close } = await openDuckDb(path.join(dir, TRANSIT_DATABASE_FILE), { readOnly: true, memoryLimit: '1GB', tempDirectory: spillDir });
    try {
      const feeds = await loadFeeds(connection);
      const agencies = await loadAgencies(connection);
      const routes = await loadRoutes(connection);
      const stops = await loadStops(connection);
      const trips = await loadTrips(connection);
      const calendar = await loadServiceCalendar(connection);
      const stopTimes = await loadStopTimes(connection, stops.length);
      const transfers = await loadTransfers(connection);
      return linkStops({
        releaseId: manifest.id,
        createdAt: manifest.created_at,
        contentHash: manifest.content_hash,
        feeds,
        agencies,
        routes,
        stops,
        trips,
        calendar,
        stopTimes,
        transfers,
      });
    } finally {
      close();
    }
  } finally {
    await rm(spillDir, { recursive: true, force: true });
  }
}

/**
 * The release-kind opener the API's release store uses for kind 'transit'. The routable feed's
 * RAPTOR network (`routingFeed`, else the release's first feed) is built while the release
 * opens, before it serves, so no request pays for it.
 */
export function transitOpener(routingFeed: string | null): KindOpener<TransitData> {
  return {
    kind: TRANSIT_KIND,
    open: async (dir, manifest) => {
      const data = await openTransitRelease(dir, manifest);
      const feedId = routingFeed ?? data.feeds[0]?.feedId;
      if (feedId !== undefined) transitNetwork(data, feedId);
      return data;
    },
    // Everything lives in memory and DuckDB is already closed: dropping the reference frees it.
    close: async (_resource: TransitData): Promise<void> => {},
  };
}

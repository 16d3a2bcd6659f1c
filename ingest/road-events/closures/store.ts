import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { recordSuccess } from '../feed-status.ts';
import { closuresFeed, type Jurisdiction } from '../../../engines/road-events/jurisdictions.ts';
import { isoUtc } from '../../../engines/road-events/publisher-time.ts';
import type { Closure } from '../../../engines/road-events/closure.ts';

const iso = (ms: number | null) => (ms === null ? null : isoUtc(ms));

function rowOf(c: Closure) {
  const content = {
    source_id: c.sourceId,
    road: c.road,
    direction: c.direction,
    description: c.description,
    windows: c.windows.map(([start, end]) => [iso(start), iso(end)]),
    geometry: c.geometry,
    minlon: c.bbox.minLon,
    minlat: c.bbox.minLat,
    maxlon: c.bbox.maxLon,
    maxlat: c.bbox.maxLat,
    source_updated_at: c.sourceUpdatedAt,
  };
  return { ...content, content_hash: createHash('sha256').update(JSON.stringify(content)).digest('hex') };
}

/**
 * Replaces a jurisdiction's closure snapshot, stamped with the fetch time, and records the
 * success, inside the caller's transaction on `client`. Returns whether anything differs from the
 * previous snapshot.
 */
export async function writeClosureSnapshot(
  client: PoolClient,
  jurisdiction: Jurisdiction,
  closures: Closure[],
  outcome: { at: Date; upstreamCount: number; note: string | null },
): Promise<{ stored: number; changed: boolean }> {
  const rows = new Map(closures.map((c) => [c.sourceId, rowOf(c)])); // a repeated ID: the last one wins
  await client.query('SELECT pg_advisory_xact_lock(4242017, hashtext($1))', [`store:${closuresFeed(jurisdiction)}`]);
  const before = await client.query<{ source_id: string; content_hash: string }>('SELECT source_id, content_hash FROM road_closures WHERE jurisdiction = $1', [jurisdiction]);
  const changed = before.rows.length !== rows.size || before.rows.some((r) => rows.get(r.source_id)?.content_hash !== r.content_hash);
  await client.query('DELETE FROM road_closures WHERE jurisdiction = $1', [jurisdiction]);
  if (rows.size) {
    await client.query(
      `INSERT INTO road_closures (jurisdiction, source_id, road, direction, description, windows, geometry, minlon, minlat, maxlon, maxlat,
         source_updated_at, content_hash, fetched_at)
       SELECT $1, t.*, $3 FROM json_to_recordset($2::json) AS t(source_id text, road text, direction text, description text, windows jsonb,
         geometry json, minlon double precision, minlat double precision, maxlon double precision, maxlat double precision,
         source_updated_at timestamptz, content_hash text)`,
      [jurisdiction, JSON.stringify([...rows.values()]), outcome.at],
    );
  }
  await recordSuccess(client, closuresFeed(jurisdiction), { changed, upstreamCount: outcome.upstreamCount, storedCount: rows.size, note: outcome.note }, outcome.at);
  return { stored: rows.size, changed };
}

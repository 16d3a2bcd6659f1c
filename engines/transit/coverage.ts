import type { Manifest } from '../../schemas/manifest.ts';
import type { CoverageResponse } from '../../schemas/transit-api.ts';

/**
 * Every feed a transit release assessed — included and refused, with its terms, reason and gap —
 * as its manifest records them (GET /coverage.json).
 */
export function coverageOf(id: string, manifest: Manifest): CoverageResponse {
  const feeds = (manifest.coverage ?? []).map((entry) => ({
    ...entry,
    feed_id: String(entry.feed_id ?? ''),
    status: String(entry.status ?? ''),
  }));
  return { release_id: id, release_created_at: manifest.created_at, feeds };
}

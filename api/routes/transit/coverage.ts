import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Manifest } from '../../../schemas/manifest.ts';
import { CoverageResponse, type CoverageResponse as Coverage, TRANSIT_ERRORS } from '../../../schemas/transit-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { TRANSIT_KIND } from '../../../schemas/transit-release.ts';

/**
 * GET /coverage.json: every feed the enabled transit release assessed — included and refused,
 * with its terms, reason and gap — as the release manifest records them.
 */
export const coverageRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/coverage.json', {
    schema: {
      tags: ['transit'],
      summary: 'Transit feeds assessed for the enabled release, included and refused',
      response: { 200: CoverageResponse, ...errorResponses(TRANSIT_ERRORS, 503) },
    },
  }, () => app.releases.use(TRANSIT_KIND, async (_data, { id, manifest }) => coverageOf(id, manifest)));
};

export function coverageOf(id: string, manifest: Manifest): Coverage {
  const feeds = (manifest.coverage ?? []).map((entry) => ({
    ...entry,
    feed_id: String(entry.feed_id ?? ''),
    status: String(entry.status ?? ''),
  }));
  return { release_id: id, release_created_at: manifest.created_at, feeds };
}

import { TRANSIT_KIND } from '../../schemas/transit-release.ts';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../../ingest/errors.ts';
import { checkFeedsList, loadFeedsList } from '../../ingest/transit/feeds-list.ts';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import { LocatedFeedsList } from '../../schemas/transit-feeds.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import type { IngestKind } from '../kind.ts';

export const TransitPayload = Type.Object(
  {
    feedsFile: Type.String({ pattern: '^/', description: 'absolute path of the feeds list the job was made from (for people; the feeds are below)' }),
    /** Each feed's source as written in the list (public) and, for a local one, its absolute location (read by the worker). */
    feeds: LocatedFeedsList,
    enable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type TransitPayload = Static<typeof TransitPayload>;

/** GTFS feeds listed in a feeds file → one transit release. */
export const transitKind: IngestKind<TransitPayload> = {
  kind: TRANSIT_KIND,
  payloadSchema: TransitPayload,
  cli: {
    usage: 'transit --feeds FILE',
    options: { feeds: { type: 'string' } },
    async toPayload(positionals, values) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; give the feeds list with --feeds FILE`);
      if (typeof values.feeds !== 'string' || !values.feeds) throw new InvalidInputError('--feeds FILE is required (a JSON feeds list)');
      const feedsFile = path.resolve(values.feeds);
      return { feedsFile, feeds: await loadFeedsList(feedsFile) };
    },
  },
  jobKey: (payload) => canonicalJson(payload.feeds),
  async prepare(payload, ctx) {
    const feeds = checkFeedsList(payload.feeds, `feeds of ${payload.feedsFile}`);
    return prepareTransitRelease(feeds, {
      workDir: ctx.workDir,
      fetchTimeoutMs: ctx.config.fetchTimeoutMs,
      maxDownloadBytes: ctx.config.maxDownloadBytes,
      onProgress: (fraction, message) => ctx.onProgress({ fraction, message }),
    });
  },
};

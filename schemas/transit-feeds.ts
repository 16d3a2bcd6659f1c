import { Type, type Static } from '@sinclair/typebox';

/** One GTFS feed of the transit feeds list (the JSON file given to the transit ingest). */
export const FeedSpec = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$', description: 'short feed id, part of every service id (svc:transit:stop:<id>:...)' }),
    source: Type.String({ minLength: 1, description: 'http(s) URL of a GTFS zip, or a local path to a zip or a directory (relative paths are resolved against the feeds list folder)' }),
    licence: Type.String({ minLength: 1, description: 'licence the publisher grants' }),
    attribution: Type.String({ minLength: 1, description: 'attribution text to show with the data' }),
    gap: Type.Optional(Type.String({ description: 'known gap in coverage, shown on /coverage.json' })),
  },
  { additionalProperties: false },
);
export type FeedSpec = Static<typeof FeedSpec>;

/** The feeds list: ids must also be unique (checked by loadFeedsList, not expressible here). */
export const FeedsList = Type.Array(FeedSpec, { minItems: 1 });
export type FeedsList = Static<typeof FeedsList>;

/**
 * A feed as the builder gets it: `source` stays as written in the feeds list (it is what
 * manifests, coverage and answers show), `location` is where it is read from.
 */
export const LocatedFeed = Type.Object(
  {
    ...FeedSpec.properties,
    location: Type.Optional(Type.String({
      minLength: 1,
      description: 'where the worker reads a local source: its absolute path, resolved against the feeds list folder (absent: read source itself)',
    })),
  },
  { additionalProperties: false },
);
export type LocatedFeed = Static<typeof LocatedFeed>;

export const LocatedFeedsList = Type.Array(LocatedFeed, { minItems: 1 });
export type LocatedFeedsList = Static<typeof LocatedFeedsList>;

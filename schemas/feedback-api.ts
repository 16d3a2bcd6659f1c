import { Type, type Static } from '@sinclair/typebox';
import { ERROR_MESSAGE_KEYWORD, Nullable, stringEnum } from './common.ts';

/**
 * Requests and responses of POST /feedback and POST /places/{id}/feedback (volume 2, "Feedback
 * report", "Feedback report status"), and the fixture file `canmap feedback export` writes.
 * The body rules are checked on the raw body by engines/feedback/report.ts (schema coercion would
 * take `"true"` for true and 42 for "42"); these schemas document them in /openapi.json.
 */

// ---- vocabulary -----------------------------------------------------------------------------

export const FEEDBACK_PRODUCTS = ['tiles', 'terrain', 'names', 'geocoding', 'places', 'routing', 'layers', 'transit', 'roads', 'ev'] as const;
export type FeedbackProduct = (typeof FEEDBACK_PRODUCTS)[number];

export const FEEDBACK_CATEGORIES = [
  'incorrect_location', 'incorrect_address', 'missing_place', 'wrong_place_name', 'wrong_category', 'bad_route',
  'missing_road_closure', 'incorrect_road_condition', 'incorrect_transit_result', 'other',
] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

/** `new` is where every report starts; the others are the review outcomes of the state table. */
export const FEEDBACK_STATUSES = ['new', 'confirmed', 'needs-source-fix', 'needs-ranking-fix', 'upstream', 'fixed', 'wont-fix'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

export const MAX_DESCRIPTION_CHARS = 2000;
/** The router's own cap on an id path segment (api/app.ts maxParamLength). */
export const MAX_RESULT_ID_CHARS = 1024;
/** "up to 4 KB encoded": the context as compact JSON, in UTF-8 bytes. */
export const MAX_CONTEXT_BYTES = 4096;
export const FEEDBACK_REPORTS_PER_DAY = 200;
/** Room for a 2,000-character description written as \u escapes plus a 4 KB context. */
export const FEEDBACK_BODY_LIMIT_BYTES = 64 * 1024;

export const FEEDBACK_ERRORS: Readonly<Record<number, string>> = {
  400: 'a body field is missing, malformed or out of bounds; error names it',
  413: 'payload_too_large: the body is over 64 KiB',
  415: 'unsupported_media_type: the body is not JSON',
  429: `rate_limited: over ${FEEDBACK_REPORTS_PER_DAY} reports for this account today (UTC); Retry-After is the seconds until the next UTC day`,
};

// ---- requests -------------------------------------------------------------------------------

const description = Type.String({
  maxLength: MAX_DESCRIPTION_CHARS,
  description: `up to ${MAX_DESCRIPTION_CHARS} characters, stored verbatim; one of description and result_id is required`,
  [ERROR_MESSAGE_KEYWORD]: `must be a string of at most ${MAX_DESCRIPTION_CHARS} characters`,
});
const includeContext = Type.Boolean({ description: 'must be true for context to be accepted' });
const context = Type.Object({}, {
  additionalProperties: true,
  description: `the request being reported, at most ${MAX_CONTEXT_BYTES} bytes as compact JSON; refused without include_context true`,
  [ERROR_MESSAGE_KEYWORD]: 'must be a JSON object',
});
const category = stringEnum(FEEDBACK_CATEGORIES, 'what is wrong');

export const FeedbackBody = Type.Object({
  product: stringEnum(FEEDBACK_PRODUCTS, 'the product the report is about'),
  category,
  description: Type.Optional(description),
  result_id: Type.Optional(Type.String({
    maxLength: MAX_RESULT_ID_CHARS,
    description: 'id of the result, where the product has stable ids; one of description and result_id is required',
  })),
  include_context: Type.Optional(includeContext),
  context: Type.Optional(context),
});
export type FeedbackBody = Static<typeof FeedbackBody>;

/** POST /places/{id}/feedback: product is places and result_id the path's id, whatever the body says. */
export const PlaceFeedbackBody = Type.Object({
  product: Type.Optional(Type.Unknown({ description: 'ignored: the product is places' })),
  category,
  description: Type.Optional(description),
  result_id: Type.Optional(Type.Unknown({ description: 'ignored: the result id is the path id' })),
  include_context: Type.Optional(includeContext),
  context: Type.Optional(context),
});
export type PlaceFeedbackBody = Static<typeof PlaceFeedbackBody>;

export const PlaceFeedbackParams = Type.Object({
  id: Type.String({ description: 'place id as /places/* returns it' }),
});

// ---- responses ------------------------------------------------------------------------------

export const FeedbackReceipt = Type.Object({
  id: Type.String({ description: 'fb_<epoch milliseconds>_<16 hex digits>' }),
  status: stringEnum(FEEDBACK_STATUSES, 'new for a report just received'),
  created_at: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
  context_stored: Type.Boolean({ description: 'whether context was kept' }),
});
export type FeedbackReceipt = Static<typeof FeedbackReceipt>;

// ---- the review fixture ---------------------------------------------------------------------

export const FEEDBACK_FIXTURE_FORMAT = 'canmap-feedback-fixture/1';

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

/**
 * A confirmed report as a test fixture: what was reported, and the request when it was kept.
 * Plain TypeBox kinds (no stringEnum), so a test can check a file with `Value.Check`.
 */
export const FeedbackFixture = Type.Object({
  format: Type.Literal(FEEDBACK_FIXTURE_FORMAT),
  id: Type.String(),
  product: literals(FEEDBACK_PRODUCTS),
  category: literals(FEEDBACK_CATEGORIES),
  description: Nullable(Type.String()),
  result_id: Nullable(Type.String()),
  context: Nullable(Type.Record(Type.String(), Type.Unknown())),
  status: Type.Literal('confirmed'),
  created_at: Type.String(),
  reviewed_at: Type.String(),
  note: Nullable(Type.String()),
  exported_at: Type.String(),
});
export type FeedbackFixture = Static<typeof FeedbackFixture>;

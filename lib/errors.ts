import { ENERGY_KIND } from '../schemas/energy-release.ts';
import { GEOCODING_KIND } from '../schemas/geocoding-release.ts';
import { PARCELS_KIND } from '../schemas/parcels-release.ts';
import type { OptimizationStatus } from '../schemas/optimization-api.ts';
import { ROADS_KIND } from '../schemas/roads-release.ts';

/**
 * The one error catalog. Every refusal a service, handler or plugin answers with is built here,
 * so status, code, headers and wording stay as the contract writes them. A Refusal knows nothing
 * of HTTP servers: the API's error handler turns it into a reply, other front doors into theirs.
 */
export interface RefusalOptions {
  code?: string;
  headers?: Record<string, string>;
  /** Plain-text body instead of JSON (tiles, glyphs, sprites, unserved paths). */
  plainText?: boolean;
  /** Extra members of the JSON body beside error and code. */
  extra?: Record<string, unknown>;
}

export class Refusal extends Error {
  readonly code?: string;
  readonly headers: Record<string, string>;
  readonly plainText: boolean;
  readonly extra: Record<string, unknown>;

  constructor(readonly statusCode: number, message: string, options: RefusalOptions = {}) {
    super(message);
    this.code = options.code;
    this.headers = options.headers ?? {};
    this.plainText = options.plainText ?? false;
    this.extra = options.extra ?? {};
  }

  body(): string | Record<string, unknown> {
    if (this.plainText) return this.message;
    return { error: this.message, ...(this.code ? { code: this.code } : {}), ...this.extra };
  }
}

/**
 * A JSON body the parser could not read as UTF-8 text (a declared charset other than UTF-8, bytes
 * that are not UTF-8): what the routing bodies answer as invalid_body. A refused content coding is
 * not one of these: it keeps its 415 and Accept-Encoding everywhere (RFC 7694).
 */
export class UnreadableBodyError extends Refusal {}

/** One entry of an Optimization error's fieldViolations. */
export interface FieldViolation {
  field: string;
  description: string;
}


function optimizationError(
  statusCode: number, status: OptimizationStatus, message: string, fieldViolations?: readonly FieldViolation[], headers?: Record<string, string>,
): Refusal {
  const extra = fieldViolations === undefined ? { status } : { status, fieldViolations: fieldViolations.map((v) => ({ ...v })) };
  return new Refusal(statusCode, message, { code: status, headers, extra });
}

/** The format's status name of an HTTP status, for errors the optimization paths share with every route. */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT', 404: 'NOT_FOUND', 413: 'INVALID_ARGUMENT', 415: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};

/**
 * An answer of an optimization path in that endpoint's shape: a shared error (bad JSON, 413, the
 * rate limit, a missing roads release) gains the format's `status` (a 400's code becomes
 * INVALID_ARGUMENT), no-store and a zero billable count. The key check's 401 and 403 stay as
 * volume 1 writes them.
 */
export function asOptimizationError(err: Refusal): Refusal {
  if (err.statusCode === 401 || err.statusCode === 403 || err.plainText) return err;
  const headers = { ...err.headers, 'cache-control': 'no-store', 'x-svc-billable-shipments': '0' };
  const status = (err.extra.status as string | undefined) ?? STATUS_NAMES[err.statusCode] ?? 'UNKNOWN';
  const code = err.extra.status === undefined && (err.statusCode === 400 || err.statusCode === 413) ? status : err.code ?? status;
  return new Refusal(err.statusCode, err.message, { code, headers, extra: { ...err.extra, status } });
}

/** How a 503 names the service of a release kind, where that is not `<kind> data`. */
/** The service a kind's absence takes down (the energy and parcel corpora answer geocoding queries). */
const SERVICE_OF_KIND: Readonly<Record<string, string>> = { [GEOCODING_KIND]: 'geocode', [ENERGY_KIND]: 'geocode', [PARCELS_KIND]: 'geocode', [ROADS_KIND]: 'routing' };

export const errors = {
  /** Data-plane 400: the message names the parameter at fault; a code only where volume 1 lists one (routing). */
  badRequest: (message: string, code?: string) => new Refusal(400, message, { code }),
  missingKey: (challenge: string) =>
    new Refusal(401, 'missing API key', { code: 'unauthorized', headers: { 'www-authenticate': challenge } }),
  invalidKey: (challenge: string) =>
    new Refusal(401, 'invalid or disabled API key', { code: 'unauthorized', headers: { 'www-authenticate': challenge } }),
  originNotAllowed: () => new Refusal(403, 'origin not allowed for this API key', { code: 'origin_not_allowed' }),
  /** Volume 1, rate_limited: over the per-key limit; Retry-After is always 60. */
  rateLimited: (limit: number, windowSeconds: number) =>
    new Refusal(429, `rate limit exceeded: ${limit} requests per ${windowSeconds} seconds per API key`, {
      code: 'rate_limited',
      headers: { 'retry-after': '60' },
    }),
  /** Volume 1 plan enforcement (api/access/block-answer.ts): verbatim messages; billing_required does not clear by waiting. */
  quotaExceeded: (dashboardUrl: string) =>
    new Refusal(429, `monthly quota exceeded: raise your spend cap or upgrade at ${dashboardUrl}/billing`, {
      code: 'quota_exceeded',
      headers: { 'retry-after': '3600' },
    }),
  spendCap: (dashboardUrl: string) =>
    new Refusal(429, `spend cap reached: raise it at ${dashboardUrl}/billing`, { code: 'spend_cap', headers: { 'retry-after': '3600' } }),
  billingRequired: (dashboardUrl: string) =>
    new Refusal(429, `payment failed: update your payment method at ${dashboardUrl}/billing`, { code: 'billing_required' }),
  notFound: (message = 'not found') => new Refusal(404, message),
  /** /places/{id}: unknown and malformed ids get this same answer, so nothing tells them apart. */
  placeNotFound: () => new Refusal(404, 'place not found'),
  /** Tile, terrain, contour, glyph and sprite routes answer their errors in plain text (volume 1 "Errors"). */
  tileBadRequest: (message: string) => new Refusal(400, message, { plainText: true }),
  tileNotFound: (message = 'not found') => new Refusal(404, message, { plainText: true }),
  /** Volume 1 "Retired overlays": 410 naming the replacement (plain text on the tile route). */
  layerRetired: (id: string, replacement: string, plainText = false) =>
    new Refusal(410, `layer ${id} is retired; use ${replacement}`, { plainText }),
  unknownLayer: (id: string) => new Refusal(404, `unknown layer ${JSON.stringify(id)}`),
  /** /data/query on a layer served as tiles only: the message lists the queryable ids. */
  tileOnlyLayer: (id: string, queryable: readonly string[]) =>
    new Refusal(501, `layer ${id} is tile-only; queryable layers: ${queryable.join(', ')}`),
  /** POST /byod refused before its body was read to the end: the connection closes after the answer, so the rest is never read. */
  uploadRefused: (message: string) => new Refusal(400, message, { headers: { connection: 'close' } }),
  /** A request body silent for BODY_IDLE_TIMEOUT_SECONDS (api/plugins/body-timeout.ts): the connection closes after it. */
  bodyTimeout: (seconds: number) =>
    new Refusal(408, `request body timed out: nothing arrived for ${seconds} s; send the body without pausing`, { headers: { connection: 'close' } }),
  /** A request body not complete BODY_TIMEOUT_SECONDS after its request began: the connection closes after it. */
  bodyTooSlow: (seconds: number) =>
    new Refusal(408, `request body timed out: it did not arrive whole within ${seconds} s; send it at a steady pace`, { headers: { connection: 'close' } }),
  /** Node's headersTimeout (api/raw-answer.ts): the request line and headers did not all arrive in time. */
  headersTimeout: () => new Refusal(408, 'request timed out: its headers did not arrive in time', { headers: { connection: 'close' } }),
  headersTooLarge: () => new Refusal(431, 'request headers too large', { headers: { connection: 'close' } }),
  /** GET /styles/{style}.json: volume 1 "Status codes" 404 body, listing every style name. */
  unknownStyle: (styles: readonly string[]) => new Refusal(404, 'unknown style', { extra: { styles: [...styles] } }),
  invalidTheme: (detail: string[]) => new Refusal(400, 'invalid theme', { code: 'invalid_theme', extra: { detail } }),
  /** A path the gateway does not serve: plain text, after authentication. */
  unservedPath: () => new Refusal(404, 'Not Found', { plainText: true }),
  payloadTooLarge: (message: string) => new Refusal(413, message, { code: 'payload_too_large' }),
  /** Bodies are JSON only (api/plugins/json-body.ts); volume 1 lists no code for 415, so this one is ours. */
  unsupportedMediaType: (mediaType: string | undefined) =>
    new Refusal(415, `${mediaType ? `unsupported content type "${mediaType}"` : 'missing content type'}: send application/json`, {
      code: 'unsupported_media_type',
    }),
  unsupportedCharset: (charset: string) =>
    new UnreadableBodyError(415, `unsupported charset "${charset}": send UTF-8 JSON`, { code: 'unsupported_media_type' }),
  bodyNotUtf8: () => new UnreadableBodyError(400, 'body is not valid UTF-8: send UTF-8 JSON'),
  /** RFC 7694: a server refusing a request's content coding names the ones it accepts. */
  unsupportedContentEncoding: (codings: string) =>
    new Refusal(415, `unsupported content encoding "${codings}": send the body uncompressed`, {
      code: 'unsupported_media_type',
      headers: { 'accept-encoding': 'identity' },
    }),
  /**
   * Volume 1 "Limits": 200 feedback reports per account per day, 429 with Retry-After. Volume 1
   * names no code of its own for it; rate_limited is its 429 for "over a limit, retry later".
   */
  feedbackLimit: (perDay: number, retryAfterSeconds: number) =>
    new Refusal(429, `feedback limit reached: ${perDay} reports per account per day; try again after 00:00 UTC`, {
      code: 'rate_limited',
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  serviceUnavailable: (service: string, retryAfterSeconds = 5) =>
    new Refusal(503, `${service} temporarily unavailable`, {
      code: 'service_unavailable',
      headers: { 'retry-after': String(retryAfterSeconds) },
      extra: { retryable: true },
    }),
  /** A release kind with nothing (valid) enabled: volume 1 names the service (geocode, transit data, ...). */
  releaseUnavailable: (kind: string) => errors.serviceUnavailable(SERVICE_OF_KIND[kind] ?? `${kind} data`),
  /** A dev-plan key using a premium capability from a production origin (volume 1, dev_only). */
  devOnly: (capability: string, addon: string, message: string) =>
    new Refusal(403, 'premium capability available from dev origins only on the dev plan', { code: 'dev_only', extra: { capability, addon, message } }),
  /** A dev-plan account past its premium calls of the month (volume 1, usage_limit_reached); core calls go on. */
  usageLimitReached: (capability: string, addon: string, message: string) =>
    new Refusal(403, 'monthly premium call limit of the dev plan reached', { code: 'usage_limit_reached', extra: { capability, addon, message } }),
  /** A valid key whose account lacks the add-on a request needs (volume 1, addon_required). */
  addonRequired: (capability: string, addon: string, message: string) =>
    new Refusal(403, `${addon} required`, { code: 'addon_required', extra: { capability, addon, message } }),
  /** Category search against a corpus built without categories: clears at the next data build. */
  categoriesUnavailable: () =>
    new Refusal(503, 'category search requires a corpus rebuilt with categories', {
      headers: { 'retry-after': '3600' },
      extra: { retryable: true },
    }),
  /**
   * /account/*: no session cookie, or its session is unknown, ended or expired (browser sessions,
   * not keys). Volume 1 lists the account API's codes; a missing or dead credential is invalid_token.
   */
  sessionRequired: () =>
    new Refusal(401, 'sign-in required: open a new login link (canmap accounts login-link)', { code: 'invalid_token' }),
  /** GET /account/login: the token is missing, unknown, expired or already used (not told apart). */
  invalidLoginToken: () =>
    new Refusal(401, 'login link is invalid, expired or already used: ask for a new one', { code: 'invalid_token' }),
  /** Account API 400: volume 1 gives every account failure a code. */
  accountBadRequest: (message: string) => new Refusal(400, message, { code: 'bad_request' }),
  internal: () => new Refusal(500, 'internal error'),
  /** Volume 1 invalid_body: a routing body missing, not JSON, or over its cap. */
  invalidBody: (message: string) => new Refusal(400, message, { code: 'invalid_body' }),
  /** Volume 3: the graph holds no answer (422) — or the engine failed otherwise (502, same body; branch on status). */
  noRoute: () => new Refusal(422, 'no route', { code: 'no_route' }),
  routingFailed: (message = 'no route') => new Refusal(502, message, { code: 'routing_failed' }),
  /**
   * Volume 1 503 variant 2, "service not wired up": no code, the endpoint's expected query shape
   * under `contract` (transit routing until the transit-routing release lands).
   */
  notWiredUp: (service: string, contract: Record<string, string>) =>
    new Refusal(503, `${service} is not wired up in this deployment`, { extra: { contract } }),
  /**
   * Optimization (volume 3): `{error, code, status, fieldViolations?}`, code and status the
   * format's status name. `field` names the one field at fault, or lists every violation (one per problem).
   */
  invalidArgument: (message: string, field?: string | readonly FieldViolation[]) =>
    optimizationError(400, 'INVALID_ARGUMENT', message, field === undefined ? undefined : typeof field === 'string' ? [{ field, description: message }] : field),
  /** Optimization: mandatory shipments that cannot all be served, or one unreachable by road. */
  failedPrecondition: (message: string) => optimizationError(400, 'FAILED_PRECONDITION', message),
  /** Optimization: a `:method` suffix other than optimizeTours on an alias path. */
  optimizationNotFound: (message = 'not found: the only method is :optimizeTours') => optimizationError(404, 'NOT_FOUND', message),
  /** Optimization rule 8: the account's solves at once are all running. */
  solveSlotsBusy: (retryAfterSeconds: number, solvesAtOnce?: number) =>
    optimizationError(429, 'RESOURCE_EXHAUSTED', solvesAtOnce === undefined
      ? 'too many concurrent solves for this account'
      : `too many concurrent solves: ${solvesAtOnce} at once per account on this plan`, undefined, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    }),
  /**
   * Optimization Billing 5: the solve's new shipments exceed the quota or spend cap. Volume 1's
   * code, message and Retry-After (as quotaExceeded / spendCap), plus the format's status.
   */
  optimizationQuota: (code: 'quota_exceeded' | 'spend_cap', dashboardUrl: string) => {
    const base = code === 'quota_exceeded' ? errors.quotaExceeded(dashboardUrl) : errors.spendCap(dashboardUrl);
    return new Refusal(429, base.message, { code: base.code, headers: base.headers, extra: { status: 'RESOURCE_EXHAUSTED' } });
  },
  /** Optimization rule 6: road travel and solver overran their shared budget. */
  deadlineExceeded: (message = 'deadline exceeded: the solve did not finish within its time budget') =>
    optimizationError(504, 'DEADLINE_EXCEEDED', message),
  /**
   * Optimization body over 4 MiB. The format has no status name of its own for 413; a body the
   * service refuses to read is an invalid argument, and a retry of the same body never succeeds.
   */
  bodyTooLarge: (limitBytes = 4 * 1024 * 1024) =>
    optimizationError(413, 'INVALID_ARGUMENT', `request body exceeds ${limitBytes / (1024 * 1024)} MiB`),
  /** Volume 1 "Errors": the one JSON error of the terrain and contour tile routes (and /elevation's 404). */
  archiveNotConfigured: (archive: 'terrain' | 'contour') => new Refusal(404, `${archive} archive not configured`),
} as const;

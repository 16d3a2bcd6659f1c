/**
 * Why a publisher's answer was not used. `reason` is one of a few fixed, generic wordings: it is
 * stored in road_feed_status.last_error, which the API shows in `meta.unavailable[].reason`, so it
 * never holds a URL (a 511 API key sits in the query string) or bytes of the answer. `message`
 * is the detail for the operator's log and the CLI, with URLs passed through redactUrl (lib/redact-url.ts).
 */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly reason: string;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  /** The URL that answered (a 429's back-off is kept for its origin). */
  readonly url: string | null;

  constructor(init: { reason: string; detail: string; retryable: boolean; retryAfterMs?: number | null; url?: string | null }) {
    super(init.detail);
    this.reason = init.reason;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.url = init.url ?? null;
  }
}

/** The public wordings (besides `upstream answered HTTP <status>`). */
export const REASONS = {
  notJson: 'upstream answer was not JSON',
  timedOut: 'timed out',
  tooLarge: 'upstream answer too large',
  notOpen511: 'upstream answer was not an Open511 events document',
  not511: 'upstream answer was not a 511 events array',
  tooManyPages: 'upstream answer had too many pages',
  refused: 'connection refused',
  reset: 'connection reset',
  hostNotFound: 'upstream host not found',
  requestFailed: 'request failed',
  /** Anything that is not an UpstreamError (a bug, an unreadable next_url, ...). */
  pollFailed: 'poll failed',
} as const;

export const httpReason = (status: number) => `upstream answered HTTP ${status}`;

/** The generic wording of a network fault, from undici's cause code. */
export function networkReason(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return REASONS.refused;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return REASONS.reset;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return REASONS.hostNotFound;
    default:
      return REASONS.requestFailed;
  }
}

/** The wording the API may show for whatever a poll threw. */
export const publicReason = (err: unknown): string => (err instanceof UpstreamError ? err.reason : REASONS.pollFailed);

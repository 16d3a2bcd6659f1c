/**
 * How a call to Valhalla failed, in the three outcomes our routing errors tell apart (volume 1):
 * `no_route` (422: Valhalla holds no answer for valid input), `failed` (502 routing_failed: our
 * request was valid, so anything else Valhalla refuses or garbles is the backend failing) and
 * `unavailable` (503 routing temporarily unavailable, Retry-After 5: it did not answer in time or
 * refused the connection). services/routing/valhalla-answer.ts maps them; engines never import api/.
 */
export type ValhallaFailureKind = 'no_route' | 'failed' | 'unavailable';

export class ValhallaFailure extends Error {
  override readonly name = 'ValhallaFailure';

  constructor(
    readonly kind: ValhallaFailureKind,
    message: string,
    /** Valhalla's own error_code and HTTP status, when it answered. */
    readonly detail: { action?: string; status?: number; errorCode?: number } = {},
  ) {
    super(message);
  }
}

/**
 * Valhalla's error codes (src/exceptions.cc) that mean "the graph holds no answer for these
 * points", answered as our 422 no route: 154 path distance over the server's limit, 170
 * unconnected regions, 171 no suitable edges near a location, 172 breakage distance exceeded for
 * every pair, 441 location unreachable, 442 no path, 443 exact route match failed, 444 map match
 * failed. Every other 4xx means Valhalla refused a request we built: the backend failed (502).
 */
export const NO_ROUTE_CODES: ReadonlySet<number> = new Set([154, 170, 171, 172, 441, 442, 443, 444]);

/** The failure of a non-2xx Valhalla answer: its status and (when JSON) `{error_code, error}`. */
export function answerFailure(action: string, status: number, body: unknown): ValhallaFailure {
  const errorCode = typeof (body as { error_code?: unknown } | null)?.error_code === 'number' ? (body as { error_code: number }).error_code : undefined;
  const message = typeof (body as { error?: unknown } | null)?.error === 'string' ? (body as { error: string }).error : `HTTP ${status}`;
  const detail = { action, status, ...(errorCode === undefined ? {} : { errorCode }) };
  if (status >= 400 && status < 500 && errorCode !== undefined && NO_ROUTE_CODES.has(errorCode)) {
    return new ValhallaFailure('no_route', `valhalla ${action}: ${message}`, detail);
  }
  return new ValhallaFailure('failed', `valhalla ${action} answered ${status}${errorCode === undefined ? '' : ` (error_code ${errorCode})`}: ${message}`, detail);
}

/** A 2xx answer whose JSON is not what the action documents. */
export const malformed = (action: string, what: string) => new ValhallaFailure('failed', `valhalla ${action}: malformed answer (${what})`, { action });

/**
 * Thrown by `ReleaseStore.use` when a kind has no servable release (none enabled, missing, or
 * failing verification). The API maps it to its 503 in api/reply-error.ts.
 */
export class ReleaseUnavailableError extends Error {
  constructor(readonly kind: string) {
    super(`${kind} data temporarily unavailable`);
    this.name = 'ReleaseUnavailableError';
  }
}

/**
 * Bad input that retrying cannot fix (a malformed feeds list, every feed refused, ...).
 * The job layer turns it into BullMQ's UnrecoverableError; any other Error is treated as
 * transient (network failure, HTTP 5xx, timeout) and retried with backoff.
 */
export class InvalidInputError extends Error {
  override readonly name = 'InvalidInputError';
}

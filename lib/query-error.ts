/**
 * A request an engine refuses for a reason only it can tell (e.g. a geocoding query made of
 * postal delivery terms alone). The API answers it as a 400 carrying this message.
 */
export class QueryError extends Error {
  override readonly name = 'QueryError';
}

/**
 * A feed that cannot be built as given (bad zip, missing file, broken reference, ...).
 * It becomes a coverage entry {status: 'refused', reason} and never fails the other feeds.
 */
export class FeedRefusedError extends Error {
  override readonly name = 'FeedRefusedError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

export function refuse(reason: string): never {
  throw new FeedRefusedError(reason);
}

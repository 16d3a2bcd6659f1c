import { QueryError } from '../../lib/query-error.ts';
import type { NtsLevel } from './nts-types.ts';

/** `reference` when the text as a whole is not an NTS reference; otherwise the part at fault. */
export type NtsPart = 'reference' | NtsLevel;

/** An NTS reference refused, naming the part at fault (a QueryError, so the API answers 400). */
export class NtsParseError extends QueryError {
  constructor(
    readonly part: NtsPart,
    message: string,
  ) {
    super(message);
  }
}

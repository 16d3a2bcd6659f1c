import { QueryError } from '../../lib/query-error.ts';

/** `description` when the text as a whole is not a DLS description; otherwise the part at fault. */
export type DlsPart = 'description' | 'lsd' | 'quarter' | 'section' | 'township' | 'range' | 'meridian';

/** A DLS description refused, naming the part at fault (a QueryError, so the API answers 400). */
export class DlsParseError extends QueryError {
  constructor(
    readonly part: DlsPart,
    message: string,
  ) {
    super(message);
  }
}

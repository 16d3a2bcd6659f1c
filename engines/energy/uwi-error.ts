import { QueryError } from '../../lib/query-error.ts';

/** `uwi` when the text as a whole is not a UWI; otherwise the part at fault. */
export type UwiPart =
  | 'uwi' | 'survey_system' | 'location_exception' | 'lsd' | 'section' | 'township' | 'range' | 'meridian'
  | 'quarter_unit' | 'unit' | 'block' | 'series' | 'map_area' | 'sheet' | 'event_sequence' | 'legal_location';

/** A Unique Well Identifier refused, naming the part at fault (a QueryError, so the API answers 400). */
export class UwiParseError extends QueryError {
  constructor(
    readonly part: UwiPart,
    message: string,
  ) {
    super(message);
  }
}

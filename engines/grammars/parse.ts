import { QueryError } from '../../lib/query-error.ts';
import { parseUwi, type Uwi } from '../energy/uwi.ts';
import { parsePid } from '../parcels/pid.ts';
import { parseDls, type DlsCell } from '../survey/dls.ts';
import { parseNts, type NtsCell } from '../survey/nts.ts';
import { detectGrammar, type Grammar } from './detect.ts';
import type { FreeText } from './free-text.ts';
import { withoutNtsPrefix } from './nts-detect.ts';

/** A query in one of the record grammars, parsed. */
export type ParsedGrammar =
  | { grammar: 'dls'; cell: DlsCell }
  | { grammar: 'nts'; cell: NtsCell }
  | { grammar: 'uwi'; uwi: Uwi }
  | { grammar: 'pid'; pid: string; formatted: string };

const NAME: Readonly<Record<Grammar, string>> = {
  dls: 'land description (DLS)',
  nts: 'NTS reference',
  uwi: 'well identifier',
  pid: 'parcel id',
};

/** A detected grammar refused: the message names the grammar, the query and the part at fault. */
export class GrammarQueryError extends QueryError {
  constructor(readonly grammar: Grammar, readonly part: string, message: string) {
    super(message);
  }
}

function parsed(grammar: Grammar, text: string): ParsedGrammar {
  switch (grammar) {
    case 'uwi': return { grammar, uwi: parseUwi(text) };
    case 'pid': return { grammar, ...parsePid(text) };
    case 'dls': return { grammar, cell: parseDls(text) };
    case 'nts': return { grammar, cell: parseNts(withoutNtsPrefix(text)) };
  }
}

/**
 * Null for civic text (the geocoder's). A detected grammar with a bad part throws
 * GrammarQueryError (a 400), e.g. `land description (DLS) "NW-37-24-1-W5": section 37 is out of
 * range (1 to 36)`: never an empty list, never a fall-through to address ranking.
 */
export function parseGrammarQuery(text: string): ParsedGrammar | null {
  return parseFreeText({ text, grammar: detectGrammar(text) });
}

/** As parseGrammarQuery, for text whose grammar was detected already (free-text.ts readFreeText). */
export function parseFreeText({ text, grammar }: FreeText): ParsedGrammar | null {
  if (grammar === null) return null;
  try {
    return parsed(grammar, text);
  } catch (err) {
    if (!(err instanceof QueryError)) throw err;
    const part = (err as QueryError & { part?: string }).part ?? grammar;
    throw new GrammarQueryError(grammar, part, `${NAME[grammar]} ${JSON.stringify(text.trim())}: ${err.message}`);
  }
}

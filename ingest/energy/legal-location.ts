import { QueryError } from '../../lib/query-error.ts';
import { parseDls } from '../../engines/survey/dls.ts';
import { parseNts } from '../../engines/survey/nts.ts';

/**
 * A facility placed by its legal location alone (the AER ST102 list gives a DLS location, not
 * coordinates): the centre of the DLS cell, or of the BC grid unit, it names. Throws a message
 * naming the part at fault when the location is neither.
 */
export function legalLocationCentre(location: string): [lng: number, lat: number] {
  try {
    return parseDls(location).centre;
  } catch (dlsError) {
    if (!(dlsError instanceof QueryError)) throw dlsError;
    try {
      const [west, south, east, north] = parseNts(location).bounds;
      return [(west + east) / 2, (south + north) / 2];
    } catch (ntsError) {
      if (!(ntsError instanceof QueryError)) throw ntsError;
      throw new QueryError(`legal location ${JSON.stringify(location)} is neither a DLS description (${dlsError.message}) nor an NTS reference`);
    }
  }
}

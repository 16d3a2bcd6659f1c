/*
 * Unique Well Identifiers of Alberta, BC and Saskatchewan wells: the 16-character form
 * (100143608517W600) and display forms (100/14-36-085-17W6/00, 200/D-096-H/094-A-15/00), any
 * case, slashes and dashes optional, leading zeros optional where separators make them so.
 */
import { checkUwi } from './uwi-check.ts';
import { UwiParseError } from './uwi-error.ts';
import { MAX_UWI_TEXT, normalizeUwiText, readUwi } from './uwi-grammar.ts';
import type { Uwi } from './uwi-types.ts';

export { UwiParseError, type UwiPart } from './uwi-error.ts';
export type { Meridian, Uwi, UwiLocation, UwiSystem } from './uwi-types.ts';

const NOT_A_UWI =
  'not a UWI: expected the 16-character form such as 100143608517W600 or a display form such as 100/14-36-085-17W6/00 or 200/D-096-H/094-A-15/00';

/**
 * Whether the text is written as a UWI, judged by its shape before any value is checked: true for
 * "100/14-37-085-17W6/00" (section 37, which parseUwi then names); false for a DLS land
 * description without the survey-system prefix (04-11-082-04W6), NTS references, PIDs, postal
 * codes and addresses.
 */
export function looksLikeUwi(text: string): boolean {
  if (typeof text !== 'string') return false;
  const raw = readUwi(normalizeUwiText(text));
  return raw !== null && (raw.eventSequence !== undefined || raw.slashAfterPrefix);
}

/** Reads a UWI in any accepted form; throws UwiParseError naming the part at fault. */
export function parseUwi(text: string): Uwi {
  if (typeof text !== 'string' || text.length > MAX_UWI_TEXT) throw new UwiParseError('uwi', NOT_A_UWI);
  const normalized = normalizeUwiText(text);
  const raw = readUwi(normalized);
  if (!raw) {
    if (/^\d[0-9A-Z]{15}$/.test(normalized)) {
      throw new UwiParseError('legal_location', `UWI legal location ${normalized.slice(3, 15)} is not a DLS, NTS, federal permit system or geodetic location`);
    }
    throw new UwiParseError('uwi', NOT_A_UWI);
  }
  return checkUwi(raw);
}

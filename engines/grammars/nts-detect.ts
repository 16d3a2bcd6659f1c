import { isNtsSeries } from '../survey/nts.ts';

/** An explicit "NTS" (or "NTS map", "NTS sheet") prefix: whatever follows is read as an NTS reference. */
export const NTS_PREFIX = /^\s*nts(?:\s+(?:map(?:\s+sheet)?|sheet|area))?\s*[:#]?\s*/i;

/** Series, map area letter, optional sheet: "93F", "093-F", "21h1", "093F10", "93F/10", "093 F 10". */
const SHEET = /^\s*(\d{1,3})\s*[-/ ]?\s*([a-p])\s*(?:[-/. ]?\s*(\d{1,2}))?\s*$/i;
/** A sheet written solid or with - or / but a letter past P ("93Q10"): an NTS reference with a bad map area, for the parser to name. */
const SHEET_ANY_LETTER = /^\s*(\d{1,3})[-/]?([a-z])[-/]?(\d{1,2})\s*$/i;
/** A BC grid reference ends in block / series map area sheet: "L/093-F-10", "001-L/093-F-10", "B-001-L/093-F-10". */
const BC_GRID = /^\s*(?:[a-d]\s*[- ]?\s*)?(?:\d{1,3}\s*[- ]?\s*)?[a-l]\s*\/\s*\d{1,3}\s*[- ]?\s*[a-p]\s*[- ]?\s*\d{1,2}\s*$/i;
/** The compact BC grid form used inside well identifiers: "D096H094A15". */
const BC_GRID_COMPACT = /^\s*[a-d]\d{3}[a-l]\d{3}[a-p]\d{2}\s*$/i;

/**
 * Whether free text has the shape of an NTS or BC grid reference (grammar detection before
 * parsing, so a bad part is named by the parser rather than searched as an address). A bare
 * series number is not enough without the NTS prefix, and the map-area form needs a real series
 * and the map area written against it ("93F", not "93 F"): "12 A" reads as a civic fragment.
 */
export function looksLikeNts(text: string): boolean {
  if (NTS_PREFIX.test(text) && /\d/.test(text.replace(NTS_PREFIX, ''))) return true;
  if (BC_GRID.test(text) || BC_GRID_COMPACT.test(text)) return true;
  const sheet = SHEET.exec(text) ?? SHEET_ANY_LETTER.exec(text);
  if (!sheet) return false;
  if (!isNtsSeries(Number(sheet[1]))) return false;
  return sheet[3] !== undefined || /^\s*\d{1,3}[-/]?[a-p]\s*$/i.test(text);
}

/** The reference without its "NTS" prefix. */
export const withoutNtsPrefix = (text: string): string => text.replace(NTS_PREFIX, '');

import { DlsParseError } from './dls-error.ts';
import { dlsCell } from './dls-grid.ts';
import { isMeridian, scanDls, SLOTS, type Scan, type Slot } from './dls-scan.ts';
import { DLS_MERIDIANS, type DlsCell, type DlsLevel, type DlsRef } from './dls-types.ts';

const NOT_A_DESCRIPTION =
  'not a DLS description: expected a form such as 04-11-082-04W6, NW-25-24-1-W5, SW 1/4 11-82-4 W6M, ' +
  'LSD 4 Sec 11 Twp 82 Rge 4 W6M or Township 82 Range 4 W6';

/** Labelled numbers first; bare numbers fill the remaining slots that end the description (…, township, range). */
function slotsOf(scan: Scan): Partial<Record<Slot, number>> {
  if (scan.repeated) throw new DlsParseError(scan.repeated, `${scan.repeated} is given twice`);
  const values = { ...scan.labelled };
  const open = SLOTS.filter((slot) => values[slot] === undefined);
  if (scan.bare.length > open.length) {
    throw new DlsParseError('description', `${NOT_A_DESCRIPTION} (too many numbers)`);
  }
  const from = open.length - scan.bare.length;
  scan.bare.forEach((value, i) => {
    values[open[from + i]!] = value;
  });
  return values;
}

/**
 * Reads a DLS description in any of its common spellings, any case, separators (space - / . ,)
 * optional where unambiguous: "04-11-082-04W6", "4-11-82-4 W6M", "NW-25-24-1-W5",
 * "N.W. 1/4 Sec. 25, Twp. 24, Rge. 1, W. 5th Mer.", "Section 11 Township 82 Range 4 West of the
 * 6th Meridian", "82-4-W6", "12-1-3 EPM". Half sections and river lots are refused, not guessed.
 * Returns the checked cell; throws DlsParseError naming the part at fault.
 */
export function parseDls(text: string): DlsCell {
  const result = scanDls(text);
  if (!result.ok) throw new DlsParseError('description', `${NOT_A_DESCRIPTION} (${result.reason})`);
  const { scan } = result;
  if (scan.riverLot) {
    throw new DlsParseError('description', 'river lots are not resolved: give the section, township, range and meridian');
  }
  if (scan.half) {
    throw new DlsParseError('quarter', `half sections (${scan.half}) are not resolved: give a quarter (NE, NW, SE, SW) or an LSD`);
  }
  if (scan.trailing > 0) throw new DlsParseError('description', `${NOT_A_DESCRIPTION} (numbers after the meridian)`);
  const values = slotsOf(scan);
  if (Object.keys(values).length === 0) throw new DlsParseError('description', NOT_A_DESCRIPTION);
  if (scan.meridian === undefined) {
    throw new DlsParseError('meridian', `meridian is missing (${DLS_MERIDIANS.join(', ')}, WPM or EPM)`);
  }
  if (!isMeridian(scan.meridian)) {
    throw new DlsParseError('meridian', `meridian ${scan.meridian} is not one of ${DLS_MERIDIANS.join(', ')}`);
  }
  if (values.township === undefined) throw new DlsParseError('township', 'township is missing (1 to 126)');
  if (values.range === undefined) throw new DlsParseError('range', 'range is missing');
  const level: DlsLevel =
    values.lsd !== undefined ? 'lsd' : scan.quarter ? 'quarter' : values.section !== undefined ? 'section' : 'township';
  if (level !== 'township' && values.section === undefined) {
    throw new DlsParseError('section', `section is missing (1 to 36): ${level === 'lsd' ? 'an LSD' : 'a quarter'} lies in a section`);
  }
  const ref: DlsRef = { level, meridian: scan.meridian, range: values.range, township: values.township };
  if (values.section !== undefined) ref.section = values.section;
  if (scan.quarter) ref.quarter = scan.quarter;
  if (values.lsd !== undefined) ref.lsd = values.lsd;
  return dlsCell(ref);
}

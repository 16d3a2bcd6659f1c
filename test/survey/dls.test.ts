import { describe, expect, it } from 'vitest';
import { QueryError } from '../../lib/query-error.ts';
import { DlsParseError, dlsCell, dlsCellAt, dlsId, looksLikeDls, parseDls, type DlsPart } from '../../engines/survey/dls.ts';

function refusal(text: string): { part: DlsPart; message: string } {
  try {
    parseDls(text);
  } catch (error) {
    expect(error).toBeInstanceOf(DlsParseError);
    expect(error).toBeInstanceOf(QueryError);
    return { part: (error as DlsParseError).part, message: (error as DlsParseError).message };
  }
  throw new Error(`${text} was accepted`);
}

/** Great-circle metres (mean radius); independent of the engine's ellipsoid code. */
function metres([lng1, lat1]: readonly number[], [lng2, lat2]: readonly number[]): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2! - lat1!) * r) / 2) ** 2 + Math.cos(lat1! * r) * Math.cos(lat2! * r) * Math.sin(((lng2! - lng1!) * r) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

describe('facts from VECTORS.md (Source A: LSD centres from its own approximate model, ~100 m tolerance)', () => {
  it('reads 04-11-082-04W6 and puts its centre near 56.08892°N 118.519379°W', () => {
    const cell = parseDls('04-11-082-04W6');
    expect(cell).toMatchObject({ level: 'lsd', lsd: 4, section: 11, township: 82, range: 4, meridian: 'W6', quarter: 'SW' });
    const vector = [-118.519378662109, 56.08892];
    // the vector is the LSD centre: 34 m from ours, while every corner is over 200 m away
    expect(metres(cell.centre, vector)).toBeLessThan(100);
    for (const corner of cell.ring) expect(metres(corner, vector)).toBeGreaterThan(200);
    expect(dlsCellAt(vector[0]!, vector[1]!, 'lsd')?.id).toBe('04-11-082-04W6');
  });

  it('puts the centre of LSD 7-6-5-4 W5 near 49.354435°N 114.524994°W', () => {
    const cell = dlsCell({ level: 'lsd', lsd: 7, section: 6, township: 5, range: 4, meridian: 'W5' });
    expect(cell.id).toBe('07-06-005-04W5');
    expect(cell.quarter).toBe('SE');
    const vector = [-114.524994, 49.354435];
    expect(metres(cell.centre, vector)).toBeLessThan(100); // 81 m
    for (const corner of cell.ring) expect(metres(corner, vector)).toBeGreaterThan(200);
    expect(dlsCellAt(vector[0]!, vector[1]!, 'lsd')?.id).toBe('07-06-005-04W5');
  });

  it('places 08-36-023-01W5 west of 05-33-023-29W4 across the 5th meridian', () => {
    const w5 = parseDls('08-36-023-01W5');
    const w4 = parseDls('05-33-023-29W4');
    expect(w5.centre[0]).toBeLessThan(-114);
    expect(w4.centre[0]).toBeGreaterThan(-114);
    expect(w5.centre[0]).toBeLessThan(w4.centre[0]);
    expect(Math.abs(w5.centre[1] - w4.centre[1])).toBeLessThan(0.01);
  });
});

describe('parsing', () => {
  const spellings: [string, string][] = [
    ['NW-25-24-1-W5', 'NW-25-024-01W5'],
    ['NW 25-24-1 W5M', 'NW-25-024-01W5'],
    ['nw 25 24 1 w5', 'NW-25-024-01W5'],
    ['04-11-082-04W6', '04-11-082-04W6'],
    ['4-11-82-4-W6', '04-11-082-04W6'],
    ['4-11-82-4 W6M', '04-11-082-04W6'],
    ['4.11.82.4.W6', '04-11-082-04W6'],
    ['LSD 4 Sec 11 Twp 82 Rge 4 W6M', '04-11-082-04W6'],
    ['L.S.D. 4-11-82-4-W6', '04-11-082-04W6'],
    ['Legal Subdivision 4 of Section 11, Township 82, Range 4, W6M', '04-11-082-04W6'],
    ['SW 4-11-82-4 W6', '04-11-082-04W6'],
    ['SW 1/4 11-82-4 W6M', 'SW-11-082-04W6'],
    ['SW1/4-11-82-4-W6', 'SW-11-082-04W6'],
    ['SW¼ 11-82-4-W6', 'SW-11-082-04W6'],
    ['N.W. 1/4 Sec. 25, Twp. 24, Rge. 1, W. 5th Mer.', 'NW-25-024-01W5'],
    ['Section 11 Township 82 Range 4 West of the 6th Meridian', '11-082-04W6'],
    ['NE 1/4 of Section 36, Township 23, Range 1, West of the 2nd Meridian', 'NE-36-023-01W2'],
    ['11-82-4-W6', '11-082-04W6'],
    ['TWP 82 RGE 4 W6M', '082-04W6'],
    ['Township 82 Range 4 W6', '082-04W6'],
    ['82-4-W6', '082-04W6'],
    ['T82 R4 W6', '082-04W6'],
    ['12-001-03E1', '12-001-03E1'],
    ['12-1-3 EPM', '12-001-03E1'],
  ];
  it.each(spellings)('reads %s as %s, and detects it', (text, id) => {
    expect(looksLikeDls(text)).toBe(true);
    expect(parseDls(text).id).toBe(id);
  });

  it.each([
    ['W5', 'W5'],
    ['W5M', 'W5'],
    ['W 5', 'W5'],
    ['W.5M.', 'W5'],
    ['W5th', 'W5'],
    ['West of 5th', 'W5'],
    ['W of the 5th Meridian', 'W5'],
    ['5th Mer', 'W5'],
    ['WPM', 'W1'],
    ['W.P.M.', 'W1'],
    ['W1', 'W1'],
    ['West of the Principal Meridian', 'W1'],
    ['EPM', 'E1'],
    ['E1', 'E1'],
    ['E1M', 'E1'],
    ['East of the Principal Meridian', 'E1'],
  ])('reads the meridian %s as %s', (meridian, expected) => {
    const text = `82-4 ${meridian}`;
    expect(looksLikeDls(text)).toBe(true);
    expect(parseDls(text)).toMatchObject({ level: 'township', meridian: expected, id: `082-04${expected}` });
  });

  it.each(['NW', 'N.W.', 'NW1/4', 'NW 1/4', 'North West Quarter', 'Northwest', 'N W 1/4', 'northwest quarter of'])(
    'reads the quarter %s',
    (quarter) => {
      const text = `${quarter} 25-24-1-W5`;
      expect(looksLikeDls(text)).toBe(true);
      expect(parseDls(text)).toMatchObject({ level: 'quarter', quarter: 'NW', id: 'NW-25-024-01W5' });
    },
  );

  it('fills the quarter holding each LSD', () => {
    const quarters = ['SE', 'SE', 'SW', 'SW', 'SW', 'SW', 'SE', 'SE', 'NE', 'NE', 'NW', 'NW', 'NW', 'NW', 'NE', 'NE'];
    quarters.forEach((quarter, i) => expect(parseDls(`${i + 1}-11-82-4-W6`).quarter).toBe(quarter));
  });

  it('round-trips ids through parseDls', () => {
    for (const id of ['04-11-082-04W6', 'SW-11-082-04W6', '11-082-04W6', '082-04W6', '16-36-126-01W4', 'NE-01-001-18E1']) {
      const cell = parseDls(id);
      expect(cell.id).toBe(id);
      expect(dlsId(cell)).toBe(id);
      expect(parseDls(cell.id)).toEqual(cell);
    }
  });
});

describe('refusals name the part at fault', () => {
  it.each<[string, DlsPart, string | RegExp]>([
    ['NW-37-24-1-W5', 'section', 'section 37 is out of range (1 to 36)'],
    ['0-82-4-W6', 'section', 'section 0 is out of range (1 to 36)'],
    ['17-11-82-4-W6', 'lsd', 'lsd 17 is out of range (1 to 16)'],
    ['NE 4-11-82-4 W6', 'quarter', 'LSD 4 lies in the SW quarter, not the NE quarter'],
    ['11-127-4-W6', 'township', 'township 127 is out of range (1 to 126)'],
    ['11-0-4-W6', 'township', 'township 0 is out of range (1 to 126)'],
    ['1-10-35-W4', 'range', 'range 35 is out of range for W4 at township 10 (1 to 30)'],
    ['1-10-0-W4', 'range', /range 0 is out of range \(1 to 30\)/],
    ['11-82-4-W7', 'meridian', /meridian W7 is not one of E1, W1/],
    ['11-82-4-E2', 'meridian', /meridian E2/],
    ['11-82-4', 'meridian', /meridian is missing/],
    ['Sec 11 Twp 82 W6', 'range', /range is missing/],
    ['NW Twp 82 Rge 4 W6', 'section', /section is missing/],
    ['N1/2-25-24-1-W5', 'quarter', /half sections \(N 1\/2\) are not resolved/],
    ['North Half 25-24-1 W5', 'quarter', /half sections/],
    ['River Lot 12 Twp 10 Rge 1 EPM', 'description', /river lots are not resolved/],
    ['RL 45', 'description', /river lots are not resolved/],
    ['123 Main St', 'description', /not a DLS description/],
    ['100/06-32-048-07W5/00', 'description', /not a DLS description/],
    ['1-2-3-4-5-W5', 'description', /too many numbers/],
    ['', 'description', /not a DLS description/],
    ['W5M', 'description', /not a DLS description/],
  ])('%s → %s', (text, part, message) => {
    const refused = refusal(text);
    expect(refused.part).toBe(part);
    if (typeof message === 'string') expect(refused.message).toBe(message);
    else expect(refused.message).toMatch(message);
  });

  it('refuses cells the next meridian cuts away', () => {
    expect(() => dlsCell({ level: 'section', meridian: 'W4', range: 30, township: 10, section: 6 })).toThrow(
      'section 6 of 010-30W4 lies beyond the 5th meridian',
    );
    expect(dlsCell({ level: 'section', meridian: 'W4', range: 30, township: 10, section: 1 }).id).toBe('01-010-30W4');
  });

  it('checks structured references', () => {
    expect(() => dlsCell({ level: 'quarter', meridian: 'W4', range: 1, township: 1, section: 1 })).toThrow(DlsParseError);
    expect(() => dlsCell({ level: 'lsd', meridian: 'W4', range: 1, township: 1, section: 1, lsd: 1.5 })).toThrow(
      'lsd 1.5 is out of range (1 to 16)',
    );
    expect(dlsCell({ level: 'quarter', meridian: 'w4' as 'W4', range: 1, township: 1, section: 1, quarter: 'ne' as 'NE' }).id).toBe(
      'NE-01-001-01W4',
    );
  });
});

describe('looksLikeDls', () => {
  it.each([
    'NW-37-24-1-W5',
    '17-11-82-4-W6',
    '11-200-4-W6',
    '11-82-4-W9',
    'Section 11 Township 82 Range 4',
    'Twp 82 Rge 4',
    'LSD 4 Sec 11 Twp 82',
    'Sec 11 82 4',
    'N1/2-25-24-1-W5',
    'RL 45',
    'SE 36-1-1 WPM',
    '1-1-1-E1',
    'se-1-1-1-w1',
  ])('%s looks like DLS', (text) => expect(looksLikeDls(text)).toBe(true));

  it.each([
    '123 Main St',
    '10-1234 Main Street',
    '4-11 Jasper Ave Edmonton',
    'T2P 1J9',
    'H3Z 2Y7',
    '93F10',
    '093F10',
    'B-001-L/093-F-10',
    '100/06-32-048-07W5/00',
    '100143608517W600',
    '1AA072209208W400',
    'Highway 16',
    'Range Road 240',
    'Township Road 530',
    '123 W 5th St',
    '12 Ave NW',
    'W5',
    '25 W5',
    'Sec 11',
    'Calgary',
    '',
    '4-11',
    '51.05, -114.07',
  ])('%s does not look like DLS', (text) => expect(looksLikeDls(text)).toBe(false));
});

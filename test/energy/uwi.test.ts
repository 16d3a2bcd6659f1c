import { describe, expect, it } from 'vitest';
import { looksLikeUwi, parseUwi, UwiParseError, type UwiPart } from '../../engines/energy/uwi.ts';
import { QueryError } from '../../lib/query-error.ts';

describe('parseUwi on the survey-grid vectors (../shared/data/survey-grids/VECTORS.md)', () => {
  it('reads DLS UWIs: LSD, section, township, range, meridian and the two-digit event sequence', () => {
    expect(parseUwi('100143608517W600')).toEqual({
      system: 'DLS', systemCode: '1', locationException: '00', eventSequence: '00',
      location: { kind: 'dls', lsd: 14, section: 36, township: 85, range: 17, meridian: 'W6' },
      canonical: '100/14-36-085-17W6/00', compact: '100143608517W600',
    });
    expect(parseUwi('100162512315W602')).toMatchObject({ eventSequence: '02', canonical: '100/16-25-123-15W6/02' });
    expect(parseUwi('1AA072209208W400')).toMatchObject({
      locationException: 'AA', location: { lsd: 7, section: 22, township: 92, range: 8, meridian: 'W4' }, canonical: '1AA/07-22-092-08W4/00',
    });
  });

  it('reads NTS, federal permit and geodetic UWIs', () => {
    expect(parseUwi('200D096H094A1500')).toMatchObject({
      system: 'NTS', systemCode: '2', eventSequence: '00',
      location: { kind: 'nts', quarterUnit: 'D', unit: 96, block: 'H', series: 94, mapArea: 'A', sheet: 15 },
      canonical: '200/D-096-H/094-A-15/00', compact: '200D096H094A1500',
    });
    expect(parseUwi('300F556220121450')).toEqual({
      system: 'FPS', systemCode: '3', locationException: '00', eventSequence: '00',
      location: { kind: 'fps', unit: 'F', section: 55, latitude: '62°20′N', longitude: '121°45′W' },
      canonical: '300/F-55-6220-12145/00', compact: '300F556220121450',
    });
    expect(parseUwi('4007999910499900')).toMatchObject({
      system: 'GEODETIC', location: { kind: 'geodetic', text: '799991049990' }, canonical: '400/799991049990/00', compact: '4007999910499900',
    });
    expect(parseUwi('200d096h094a1500').compact).toBe('200D096H094A1500');
  });
});

describe('parseUwi on display forms', () => {
  const cases: [string, string][] = [
    ['100/06-32-048-07W5/00', '100063204807W500'],
    ['1AA/07-22-092-08W4/00', '1AA072209208W400'],
    ['100/14-36-085-17W6/00', '100143608517W600'],
    ['200/D-096-H/094-A-15/00', '200D096H094A1500'],
    ['102/06-32-048-07W5/02', '102063204807W502'],
    ['100/6-32-48-7W5/0', '100063204807W500'],
    ['100 06 32 048 07 W5 00', '100063204807W500'],
    ['10006-32-048-07W500', '100063204807W500'],
    ['uwi: 100/06-32-048-07w5/00', '100063204807W500'],
    ['200/d-96-h/94-a-15/0', '200D096H094A1500'],
    ['200 D096H094A15 00', '200D096H094A1500'],
    ['300/F-55-6220-12145/00', '300F556220121450'],
    ['300/F-55-6220-12145/0', '300F556220121450'],
    ['400/799991049990/00', '4007999910499900'],
  ];
  it.each(cases)('%s → %s', (text, compact) => {
    const uwi = parseUwi(text);
    expect(uwi.compact).toBe(compact);
    expect(parseUwi(uwi.canonical)).toEqual(uwi);
    expect(parseUwi(uwi.compact)).toEqual(uwi);
  });
});

describe('parseUwi refusals name the part at fault', () => {
  const cases: [string, UwiPart, string][] = [
    ['100/14-37-085-17W6/00', 'section', 'UWI section 37 is out of range (1 to 36)'],
    ['100/17-32-048-07W5/00', 'lsd', 'UWI LSD 17 is out of range (1 to 16)'],
    ['100/06-32-127-07W5/00', 'township', 'UWI township 127 is out of range (1 to 126)'],
    ['100/06-32-048-35W5/00', 'range', 'UWI range 35 is out of range (1 to 34)'],
    ['100/06-32-048-07W7/00', 'meridian', 'UWI meridian W7 is out of range (W1 to W6)'],
    ['500/06-32-048-07W5/00', 'survey_system', 'UWI survey system 5 is not one of 1 (DLS), 2 (NTS), 3 (federal permit system) or 4 (geodetic)'],
    ['200/06-32-048-07W5/00', 'survey_system', 'UWI survey system 2 (NTS) does not match a DLS legal location'],
    ['1A#/06-32-048-07W5/00', 'location_exception', 'UWI location exception A# is not two letters or digits'],
    ['200/E-096-H/094-A-15/00', 'quarter_unit', 'UWI quarter unit E is out of range (A to D)'],
    ['200/D-101-H/094-A-15/00', 'unit', 'UWI unit 101 is out of range (1 to 100)'],
    ['200/D-096-M/094-A-15/00', 'block', 'UWI block M is out of range (A to L)'],
    ['200/D-096-H/095-A-15/00', 'series', 'UWI series 95 is not an NTS series of the BC grid (082, 083, 092, 093, 094, 102, 103, 104, 114)'],
    ['200/D-096-H/094-Q-15/00', 'map_area', 'UWI map area Q is out of range (A to P)'],
    ['200/D-096-H/094-A-17/00', 'sheet', 'UWI sheet 17 is out of range (1 to 16)'],
    ['100/06-32-048-07W5', 'event_sequence', 'UWI event sequence is missing: a UWI ends with it, e.g. /00'],
    ['300/F-55-6220-12145/12', 'event_sequence', 'UWI event sequence 12 does not fit a federal permit system UWI (one character after the 12 of the location)'],
    ['300/F-55-6270-12145/00', 'legal_location', 'UWI grid latitude 6270 is not a federal permit grid latitude (degrees 40 to 85, then minutes)'],
    ['100ABCDEFGHIJK00', 'legal_location', 'UWI legal location ABCDEFGHIJK0 is not a DLS, NTS, federal permit system or geodetic location'],
    ['04-11-082-04W6', 'uwi', 'not a UWI: expected the 16-character form such as 100143608517W600 or a display form such as 100/14-36-085-17W6/00 or 200/D-096-H/094-A-15/00'],
  ];
  it.each(cases)('%s → %s', (text, part, message) => {
    let caught: unknown;
    try {
      parseUwi(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UwiParseError);
    expect(caught).toBeInstanceOf(QueryError);
    expect(caught).toMatchObject({ part, message });
  });
});

describe('looksLikeUwi', () => {
  it('is true for UWI-shaped text, bad values included', () => {
    for (const text of ['100143608517W600', '100/06-32-048-07W5/00', '1AA/07-22-092-08W4/00', '200/D-096-H/094-A-15/00', '100/6-32-48-7W5/0',
      '300F556220121450', '4007999910499900', '100/14-37-085-17W6/00', '500/06-32-048-07W5/00', '200/D-096-H/095-A-15/00', '100/06-32-048-07W5']) {
      expect(looksLikeUwi(text), text).toBe(true);
    }
  });

  it('is false for land descriptions without the prefix, NTS references, PIDs, postal codes and addresses', () => {
    for (const text of ['04-11-082-04W6', 'NW-25-24-1-W5', '06-32-048-07W5', '93F10', 'B-001-L/093-F-10', '012-345-678', '012345678',
      'PID 012-345-678', 'T2P 1J9', 'V2S7M7', '123-456 Main St', '604-555-1234', 'Suncor Lewis', '', '100ABCDEFGHIJK00']) {
      expect(looksLikeUwi(text), text).toBe(false);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { QueryError } from '../../lib/query-error.ts';
import {
  ntsBounds,
  ntsBoundsHalfSeconds,
  ntsCell,
  ntsCellAt,
  ntsCellsInBbox,
  ntsFeature,
  NtsParseError,
  parseNts,
  type NtsCell,
  type NtsPart,
} from '../../engines/survey/nts.ts';

const idAt = (lng: number, lat: number, level: Parameters<typeof ntsCellAt>[2]) => ntsCellAt(lng, lat, level)?.id ?? null;
const contains = (cell: NtsCell, lng: number, lat: number) =>
  lng >= cell.bounds[0] && lng < cell.bounds[2] && lat >= cell.bounds[1] && lat < cell.bounds[3];

function refusal(text: string): { part: NtsPart; message: string } {
  try {
    parseNts(text);
  } catch (error) {
    expect(error).toBeInstanceOf(NtsParseError);
    expect(error).toBeInstanceOf(QueryError);
    return { part: (error as NtsParseError).part, message: (error as NtsParseError).message };
  }
  throw new Error(`${text} was accepted`);
}

describe('facts from VECTORS.md', () => {
  it('reads "21h" and "21h1"', () => {
    expect(parseNts('21h')).toMatchObject({ level: 'map_area', series: 21, mapArea: 'H', id: '021H' });
    expect(parseNts('21h1')).toMatchObject({ level: 'sheet', series: 21, mapArea: 'H', sheet: 1, id: '021H01' });
  });

  it('places points in 021H01 and 021I02', () => {
    expect(idAt(-64.32, 45.2, 'sheet')).toBe('021H01');
    expect(idAt(-64.81, 46.2, 'sheet')).toBe('021I02');
    expect(ntsBounds(parseNts('021H01'))).toEqual([-64.5, 45, -64, 45.25]);
  });

  it('finds the four sheets meeting N45.125 E-64.25 S44.875 W-64.75', () => {
    const ids = [...ntsCellsInBbox([-64.75, 44.875, -64.25, 45.125], 'sheet')].map((cell) => cell.id);
    expect(ids.sort()).toEqual(['021A15', '021A16', '021H01', '021H02']);
  });

  it('reads the BC grid reference B-001-L/093-F-10', () => {
    expect(parseNts('B-001-L/093-F-10')).toMatchObject({
      level: 'quarter_unit',
      quarterUnit: 'B',
      unit: 1,
      block: 'L',
      series: 93,
      mapArea: 'F',
      sheet: 10,
      id: 'B-001-L/093-F-10',
    });
  });

  it('puts (A, 1, J, 93, P, 8) around 55.41875°N 120.128128°W, exactly', () => {
    const ref = { level: 'quarter_unit', quarterUnit: 'A', unit: 1, block: 'J', series: 93, mapArea: 'P', sheet: 8 } as const;
    const cell = ntsCell(ref);
    expect(cell.id).toBe('A-001-J/093-P-08');
    expect(contains(cell, -120.128128, 55.41875)).toBe(true);
    // 55°25′00″–55°25′15″ N, 120°07′30″–120°07′52.5″ W in half arc-seconds
    expect(ntsBoundsHalfSeconds(ref)).toEqual({ west: -864945, south: 399000, east: -864900, north: 399030 });
    expect(idAt(-120.128128, 55.41875, 'quarter_unit')).toBe('A-001-J/093-P-08');
  });

  it('places 49.354435°N 114.524994°W in C-022-H/082-G-07', () => {
    expect(idAt(-114.524994, 49.354435, 'quarter_unit')).toBe('C-022-H/082-G-07');
    expect(idAt(-114.524994, 49.354435, 'block')).toBe('H/082-G-07');
  });
});

describe('edges', () => {
  it('gives a shared corner to the cell north-east of it', () => {
    expect(idAt(-64, 45, 'sheet')).toBe('011E04');
    expect(idAt(-64.000001, 44.999999, 'sheet')).toBe('021A16');
    expect(idAt(-64.000001, 45, 'sheet')).toBe('021H01');
    expect(idAt(-64, 44.999999, 'sheet')).toBe('011D13');
  });

  it('treats decimals naming a grid line as on it', () => {
    // 114°00′45″ W, the line between units 1 and 2, is not a double
    expect(idAt(-114.0125, 49.25, 'unit')).toBe('001-A/082-G-08');
    expect(idAt(-114.01250001, 49.25, 'unit')).toBe('002-A/082-G-08');
    // -128.05 × 7200 and (64 + 1/120) × 7200 come out just short of the unit lines they name
    expect(idAt(-128.05, 49.3, 'unit')).toBe(idAt(-128.0499, 49.3, 'unit'));
    expect(idAt(-128.0500001, 49.3, 'unit')).not.toBe(idAt(-128.05, 49.3, 'unit'));
    expect(idAt(-114.1, 64 + 1 / 120, 'unit')).toBe(idAt(-114.1, 64.0084, 'unit'));
    expect(idAt(-114.1, 64 + 1 / 120 - 1e-7, 'unit')).not.toBe(idAt(-114.1, 64 + 1 / 120, 'unit'));
  });

  it('starts each band at its south edge', () => {
    expect(idAt(-133, 68, 'series')).toBe('107');
    expect(idAt(-133, 67.99999, 'series')).toBe('106');
    expect(idAt(-80, 80, 'series')).toBe('340');
    expect(idAt(-80, 79.99999, 'series')).toBe('039');
    expect(idAt(-60, 84, 'series')).toBe('121');
    expect(idAt(-60, 83.99999, 'series')).toBe('120');
  });

  it('answers null outside the grid', () => {
    expect(ntsCellAt(-48, 50, 'series')).toBeNull();
    expect(idAt(-48.000001, 50, 'series')).toBe('002');
    expect(ntsCellAt(-145, 50, 'series')).toBeNull();
    expect(ntsCellAt(-100, 39.99, 'series')).toBeNull();
    expect(ntsCellAt(-100, 88, 'series')).toBeNull();
    expect(ntsCellAt(-140, 82, 'series')).toBeNull(); // west of 136°W beyond 80°N
    expect(ntsCellAt(-130, 85, 'series')).toBeNull(); // west of 120°W beyond 84°N
    expect(ntsCellAt(-52, 82, 'series')).toBeNull(); // east of 56°W beyond 80°N
    expect(() => ntsCellAt(Number.NaN, 50, 'series')).toThrow(RangeError);
  });
});

describe('latitude bands', () => {
  it('southern zone: 8° × 4° series, 2° × 1° map areas, 30′ × 15′ sheets', () => {
    expect(ntsBounds(parseNts('021'))).toEqual([-72, 44, -64, 48]);
    expect(ntsBounds(parseNts('021H'))).toEqual([-66, 45, -64, 46]);
    expect(ntsBounds(parseNts('082G07'))).toEqual([-115, 49.25, -114.5, 49.5]);
    expect(ntsBounds(parseNts('114'))).toEqual([-144, 56, -136, 60]);
  });

  it('arctic zone (68–80°N): map areas A–H, 4° × 1°; sheets 1° × 15′', () => {
    expect(ntsBounds(parseNts('117'))).toEqual([-144, 68, -136, 72]);
    expect(ntsBounds(parseNts('117D'))).toEqual([-140, 69, -136, 70]);
    expect(idAt(-135.03, 68.22, 'map_area')).toBe('107B'); // Aklavik
    expect(idAt(-139.1, 69.58, 'sheet')).toBe('117D12'); // Herschel Island
    expect(ntsBounds(parseNts('117D12'))).toEqual([-140, 69.5, -139, 69.75]);
    expect(refusal('117I')).toEqual({ part: 'map_area', message: 'map area letter must be A–H north of 68°N' });
  });

  it('high arctic (80–88°N): 16° series 120…910, 8° × 1° map areas, 2° × 15′ sheets', () => {
    expect(ntsBounds(parseNts('120'))).toEqual([-72, 80, -56, 84]);
    expect(ntsBounds(parseNts('340'))).toEqual([-88, 80, -72, 84]);
    expect(ntsBounds(parseNts('560'))).toEqual([-104, 80, -88, 84]);
    expect(ntsBounds(parseNts('910'))).toEqual([-136, 80, -120, 84]);
    expect(ntsBounds(parseNts('781'))).toEqual([-120, 84, -104, 88]);
    expect(idAt(-69.95, 83.11, 'map_area')).toBe('120G'); // Cape Columbia
    expect(ntsBounds(parseNts('120G'))).toEqual([-72, 83, -64, 84]);
    expect(idAt(-69.95, 83.11, 'sheet')).toBe('120G03');
    expect(ntsBounds(parseNts('120G03'))).toEqual([-70, 83, -68, 83.25]);
  });

  it('keeps the BC grid to sheets south of 68°N', () => {
    expect(ntsCellAt(-133, 69, 'block')).toBeNull();
    expect(refusal('A-001-A/107-A-01').part).toBe('block');
  });
});

describe('parsing', () => {
  it('reads common spellings of one sheet', () => {
    for (const text of ['93F/10', '093 F 10', '093-F-10', '93f10', '093F10', ' 0093f010 ', '93.F.10']) {
      expect(parseNts(text).id, text).toBe('093F10');
    }
  });

  it('reads BC grid spellings at each level', () => {
    expect(parseNts('b-1-l/93-f-10').id).toBe('B-001-L/093-F-10');
    expect(parseNts('D096H094A15').id).toBe('D-096-H/094-A-15');
    expect(parseNts('l/93f10')).toMatchObject({ level: 'block', id: 'L/093-F-10' });
    expect(parseNts('1-L/93F10')).toMatchObject({ level: 'unit', id: '001-L/093-F-10' });
    expect(parseNts('093')).toMatchObject({ level: 'series', id: '093' });
  });

  it('names the part at fault', () => {
    expect(refusal('093Q10')).toEqual({ part: 'map_area', message: 'map area letter must be A–P' });
    expect(refusal('093FF10').part).toBe('map_area');
    expect(refusal('093F17')).toEqual({ part: 'sheet', message: 'sheet must be 1–16' });
    expect(refusal('093F0').part).toBe('sheet');
    expect(refusal('M/093-F-10')).toEqual({ part: 'block', message: 'block letter must be A–L' });
    expect(refusal('101-L/093-F-10')).toEqual({ part: 'unit', message: 'unit must be 1–100' });
    expect(refusal('E-001-L/093-F-10')).toEqual({ part: 'quarter_unit', message: 'quarter unit letter must be A–D' });
    expect(refusal('130A').part).toBe('series');
    expect(refusal('hello').part).toBe('reference');
    expect(refusal('').part).toBe('reference');
    expect(refusal('093F10!')).toEqual({ part: 'reference', message: 'unexpected character "!"' });
  });

  it('checks structured references too', () => {
    expect(ntsCell({ level: 'sheet', series: 21, mapArea: 'h', sheet: 1 }).id).toBe('021H01');
    expect(() => ntsCell({ level: 'sheet', series: 21, mapArea: 'H' })).toThrow('sheet must be 1–16');
  });
});

describe('features', () => {
  it('gives a closed counter-clockwise ring on the exact bounds', () => {
    const feature = ntsFeature(parseNts('082G07'));
    expect(feature.properties).toEqual({
      id: '082G07',
      unit: '082G07',
      survey_system: 'NTS',
      level: 'sheet',
      name: '082G07',
    });
    const ring = feature.geometry.coordinates[0]!;
    expect(ring).toEqual([
      [-115, 49.25],
      [-114.5, 49.25],
      [-114.5, 49.5],
      [-115, 49.5],
      [-115, 49.25],
    ]);
    let twiceArea = 0;
    for (let i = 0; i + 1 < ring.length; i++) twiceArea += ring[i]![0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * ring[i]![1]!;
    expect(twiceArea).toBeGreaterThan(0);
  });
});

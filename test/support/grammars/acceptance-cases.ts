/*
 * The legal-land acceptance set: queries in every grammar with what they must resolve to,
 * generated from the survey models at seeded random points, from the facts of
 * ../shared/data/survey-grids/VECTORS.md and from hand-written spellings. The test runs them
 * with a 99 % gate; the benchmark times them.
 */
import { dlsCellAt, type DlsCell, type DlsLevel } from '../../../engines/survey/dls.ts';
import { ntsCellAt, type NtsCell, type NtsLevel } from '../../../engines/survey/nts.ts';
import { seededRandom } from '../../../lib/seeded-random.ts';

export interface AcceptanceCase {
  query: string;
  grammar: 'dls' | 'nts' | 'uwi' | 'pid' | null;
  /** The canonical id the query must resolve to (land descriptions, UWIs and PIDs), when one is expected. */
  canonical?: string;
  /** A point the resolved cell must hold, with how far outside it may lie (metres), for vectors. */
  near?: { lng: number; lat: number; metres: number };
  origin: 'generated' | 'vector' | 'hand';
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const ORDINAL = ['', '1st', '2nd', '3rd', '4th', '5th', '6th'];

/** The ways people write one DLS cell (every one must parse to the cell). */
export function dlsSpellings(cell: DlsCell): string[] {
  const { meridian: m, range: r, township: t, section: s, quarter: q, lsd: l } = cell;
  const west = m.startsWith('W') ? Number(m.slice(1)) : null;
  const meridianWords = west === null ? 'East of the Principal Meridian' : `West of the ${ORDINAL[west]} Meridian`;
  const mer = west === 1 && r % 2 === 0 ? 'WPM' : m;
  switch (cell.level) {
    case 'lsd':
      return [cell.id, `${l}-${s}-${t}-${r}-${m}`, `LSD ${l} Sec ${s} Twp ${t} Rge ${r} ${m}M`, `L.S.D. ${l}-${s}-${t}-${r}-${mer}`];
    case 'quarter':
      return [cell.id, `${q} ${s}-${t}-${r} ${m}M`, `${q} 1/4 ${s}-${t}-${r} ${mer}`,
        `${q![0]}.${q![1]}. 1/4 Sec. ${s}, Twp. ${t}, Rge. ${r}, ${meridianWords}`];
    case 'section':
      return [cell.id, `${s}-${t}-${r}-${m}`, `Section ${s} Township ${t} Range ${r} ${meridianWords}`];
    case 'township':
      return [cell.id, `TWP ${t} RGE ${r} ${m}M`, `Township ${t} Range ${r} ${mer}`];
  }
}

/** The ways people write one NTS or BC grid cell. */
export function ntsSpellings(cell: NtsCell): string[] {
  const series = cell.series;
  switch (cell.level) {
    case 'series': return [`NTS ${pad(series, 3)}`, `NTS ${series}`];
    case 'map_area': return [cell.id, `${series}${cell.mapArea!.toLowerCase()}`, `NTS ${series} ${cell.mapArea}`];
    case 'sheet': return [cell.id, `${series}${cell.mapArea}/${cell.sheet}`, `${pad(series, 3)} ${cell.mapArea} ${pad(cell.sheet!, 2)}`, `${series}${cell.mapArea!.toLowerCase()}${cell.sheet}`];
    case 'block': return [cell.id, `${cell.block!.toLowerCase()}/${series}-${cell.mapArea}-${cell.sheet}`];
    case 'unit': return [cell.id, `${cell.unit}-${cell.block}/${series}-${cell.mapArea}-${cell.sheet}`];
    case 'quarter_unit': return [cell.id, `${cell.quarterUnit!.toLowerCase()}-${cell.unit}-${cell.block!.toLowerCase()}/${series}-${cell.mapArea!.toLowerCase()}-${cell.sheet}`,
      `${cell.quarterUnit}${pad(cell.unit!, 3)}${cell.block}${pad(series, 3)}${cell.mapArea}${pad(cell.sheet!, 2)}`];
  }
}

const DLS_LEVELS: readonly DlsLevel[] = ['township', 'section', 'quarter', 'lsd'];
const NTS_LEVELS: readonly NtsLevel[] = ['map_area', 'sheet', 'block', 'unit', 'quarter_unit'];

/** Land descriptions generated from the models at random points of the prairies and of BC. */
export function generatedCases(count: number, seed = 15): AcceptanceCase[] {
  const random = seededRandom(seed);
  const cases: AcceptanceCase[] = [];
  while (cases.length < count) {
    const dls = random() < 0.6;
    if (dls) {
      const cell = dlsCellAt(-120 + random() * 24.5, 49 + random() * 11, DLS_LEVELS[Math.floor(random() * DLS_LEVELS.length)]!);
      if (!cell) continue;
      for (const query of dlsSpellings(cell)) cases.push({ query, grammar: 'dls', canonical: cell.id, origin: 'generated' });
    } else {
      const cell = ntsCellAt(-139 + random() * 25, 48.5 + random() * 11, NTS_LEVELS[Math.floor(random() * NTS_LEVELS.length)]!);
      if (!cell) continue;
      for (const query of ntsSpellings(cell)) cases.push({ query, grammar: 'nts', canonical: cell.id, origin: 'generated' });
    }
  }
  return cases;
}

/** Well identifiers and parcel ids generated in their compact and display forms. */
export function generatedRecordIds(count: number, seed = 16): AcceptanceCase[] {
  const random = seededRandom(seed);
  const int = (n: number) => 1 + Math.floor(random() * n);
  const cases: AcceptanceCase[] = [];
  for (let i = 0; i < count; i++) {
    const [l, s, t, r, m, e] = [int(16), int(36), int(120), int(28), 1 + int(5), Math.floor(random() * 10)];
    const canonical = `100/${pad(l, 2)}-${pad(s, 2)}-${pad(t, 3)}-${pad(r, 2)}W${m}/0${e}`;
    cases.push({ query: canonical, grammar: 'uwi', canonical, origin: 'generated' });
    cases.push({ query: `100${pad(l, 2)}${pad(s, 2)}${pad(t, 3)}${pad(r, 2)}W${m}0${e}`, grammar: 'uwi', canonical, origin: 'generated' });
    const pid = pad(Math.floor(random() * 1e9), 9);
    const formatted = `${pid.slice(0, 3)}-${pid.slice(3, 6)}-${pid.slice(6)}`;
    cases.push({ query: formatted, grammar: 'pid', canonical: formatted, origin: 'generated' });
    cases.push({ query: `PID ${pid}`, grammar: 'pid', canonical: formatted, origin: 'generated' });
  }
  return cases;
}

/** The facts of ../shared/data/survey-grids/VECTORS.md. */
export const VECTOR_CASES: readonly AcceptanceCase[] = [
  { query: '04-11-082-04W6', grammar: 'dls', canonical: '04-11-082-04W6', near: { lng: -118.519378662109, lat: 56.08892, metres: 200 }, origin: 'vector' },
  { query: '07-06-005-04W5', grammar: 'dls', canonical: '07-06-005-04W5', near: { lng: -114.524994, lat: 49.354435, metres: 200 }, origin: 'vector' },
  { query: '100143608517W600', grammar: 'uwi', canonical: '100/14-36-085-17W6/00', origin: 'vector' },
  { query: '100162512315W602', grammar: 'uwi', canonical: '100/16-25-123-15W6/02', origin: 'vector' },
  { query: '200D096H094A1500', grammar: 'uwi', canonical: '200/D-096-H/094-A-15/00', origin: 'vector' },
  { query: '1AA072209208W400', grammar: 'uwi', canonical: '1AA/07-22-092-08W4/00', origin: 'vector' },
  { query: 'B-001-L/093-F-10', grammar: 'nts', canonical: 'B-001-L/093-F-10', origin: 'vector' },
  { query: 'A-001-J/093-P-08', grammar: 'nts', canonical: 'A-001-J/093-P-08', near: { lng: -120.128128, lat: 55.41875, metres: 0 }, origin: 'vector' },
  { query: 'C-022-H/082-G-07', grammar: 'nts', canonical: 'C-022-H/082-G-07', near: { lng: -114.524994, lat: 49.354435, metres: 0 }, origin: 'vector' },
  { query: '21h', grammar: 'nts', canonical: '021H', origin: 'vector' },
  { query: '21h1', grammar: 'nts', canonical: '021H01', near: { lng: -64.32, lat: 45.2, metres: 0 }, origin: 'vector' },
  { query: '021I02', grammar: 'nts', canonical: '021I02', near: { lng: -64.81, lat: 46.2, metres: 0 }, origin: 'vector' },
];

/** Spellings from the issue and from land records, and civic text that must not be taken for a grammar. */
export const HAND_CASES: readonly AcceptanceCase[] = [
  ...([
    ['NW-25-24-1-W5', 'NW-25-024-01W5'],
    ['04-11-082-04W6', '04-11-082-04W6'],
    ['SW 1/4 11-82-4 W6M', 'SW-11-082-04W6'],
    ['NW 25-24-1 W5M', 'NW-25-024-01W5'],
    ['4-11-82-4-W6', '04-11-082-04W6'],
    ['SW1/4-11-82-4-W6', 'SW-11-082-04W6'],
    ['N.W. 1/4 Sec. 25, Twp. 24, Rge. 1, W. 5th Mer.', 'NW-25-024-01W5'],
    ['LSD 4 Sec 11 Twp 82 Rge 4 W6M', '04-11-082-04W6'],
    ['Section 11 Township 82 Range 4 West of the 6th Meridian', '11-082-04W6'],
    ['NE 1/4 of Section 36, Township 23, Range 1, West of the 2nd Meridian', 'NE-36-023-01W2'],
    ['TWP 82 RGE 4 W6M', '082-04W6'],
    ['08-36-023-01W5', '08-36-023-01W5'],
    ['05-33-023-29W4', '05-33-023-29W4'],
    ['SE-36-23-1-W2', 'SE-36-023-01W2'],
    ['ne 12-1-3 e1', 'NE-12-001-03E1'],
    ['12-10-20-WPM', '12-010-20W1'],
  ] as const).map(([query, canonical]): AcceptanceCase => ({ query, grammar: 'dls', canonical, origin: 'hand' })),
  ...([['93F10', '093F10'], ['093-F-10', '093F10'], ['NTS 82G/7', '082G07'], ['b-1-l/93-f-10', 'B-001-L/093-F-10'], ['NTS 093', '093'], ['82 G 7', '082G07']] as const)
    .map(([query, canonical]): AcceptanceCase => ({ query, grammar: 'nts', canonical, origin: 'hand' })),
  ...([['100/06-32-048-07W5/00', '100/06-32-048-07W5/00'], ['100/6-32-48-7W5/0', '100/06-32-048-07W5/00'], ['102/06-32-048-07W5/02', '102/06-32-048-07W5/02'],
    ['200/D-096-H/094-A-15/00', '200/D-096-H/094-A-15/00']] as const)
    .map(([query, canonical]): AcceptanceCase => ({ query, grammar: 'uwi', canonical, origin: 'hand' })),
  ...([['012-345-678', '012-345-678'], ['012345678', '012-345-678'], ['PID: 012-345-678', '012-345-678']] as const)
    .map(([query, canonical]): AcceptanceCase => ({ query, grammar: 'pid', canonical, origin: 'hand' })),
  ...['123 Main St', '10-1234 Main Street', '4-11 Jasper Ave Edmonton', 'T2P 1J9', 'H3Z 2Y7', 'Highway 16', '1600 Pennsylvania', 'Calgary',
    '604-555-1234', 'Apt 5 100 Queen St W Toronto', '12 A', 'Edmonton AB', 'W5 Hotel', '25 Avenue SW', 'Route 132']
    .map((query): AcceptanceCase => ({ query, grammar: null, origin: 'hand' })),
];

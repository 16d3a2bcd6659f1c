/*
 * The geometry model of the Dominion Land Survey (third system, 1881 on), computed, not surveyed:
 *
 * - Initial meridians: W1, the principal meridian, at 97°27′28.41″W; W2…W6 at 102°, 106°, 110°,
 *   114° and 118°W. Ranges are numbered west of each meridian (east of the principal one for E1).
 * - Townships are numbered north from the first base line, 49°N. Every township is 483 chains
 *   north–south (six 80-chain sections and three 1-chain east–west road allowances, on the township
 *   line and two and four miles north of it), measured along the GRS80 meridian. That leaves
 *   township 126 180 m short of 60°N; its north row of sections (the north row takes up excess)
 *   is stretched to the 60th parallel. 1 chain = 66 ft = 20.1168 m.
 * - Base lines are the south boundaries of townships 1, 5, 9, …. Along its base line every
 *   township is 486 chains east–west (six sections and six north–south road allowances), measured
 *   along the GRS80 parallel from the meridian. Range lines run from there as true meridians two
 *   townships north and two south, to the correction lines (north boundaries of townships 2, 6,
 *   10, …), where they jog. So each township is a longitude–latitude rectangle.
 * - Within a township, section lines are 81 chains apart (80-chain section plus its road
 *   allowance) measured along each section-row line from the east boundary; the westerly column
 *   of sections (6, 7, 18, 19, 30, 31) takes up the convergence of the range lines, per the Manual
 *   of Survey. Between row lines the section lines are straight in longitude–latitude. Road
 *   allowances belong to the cells beside them, so cells of one level tile the township.
 * - Quarters and LSDs split their section's quadrilateral into equal halves and quarters of its
 *   width and of its latitude span.
 * - The last range of W1…W5 is cut off by the next meridian west (the fractional township along
 *   it). E1 runs to the range holding 95.15°W (the Ontario border south of 52.8°N), W6 to the
 *   range holding 122.5°W (the Peace River Block); neither is cut.
 *
 * Not modelled: survey errors and actual monument positions (the published ATS/SGB grids follow
 * them; real lines depart from this model by up to a few hundred metres), first- and
 * second-system surveys in Manitoba, townships south of 49°N east of Lake of the Woods, and
 * where the DLS was never laid out (unsurveyed north, parks, BC outside the Railway Belt and
 * Peace River Block): the model answers a cell wherever its arithmetic reaches.
 */
import { latitudeAtArc, lngDegreesFor, meridianArc } from './dls-geodesy.ts';
import type { DlsMeridian } from './dls-types.ts';

export const CHAIN_METRES = 20.1168;
export const TOWNSHIP_HEIGHT_CHAINS = 483;
export const TOWNSHIP_WIDTH_CHAINS = 486;
/** North–south extent of the six section rows of a township, south first: allowances on rows 1, 3 and 5. */
export const ROW_CHAINS = [81, 80, 81, 80, 81, 80] as const;
/** East–west spacing of section lines from the township's east boundary. */
export const COLUMN_CHAINS = 81;
export const MAX_TOWNSHIP = 126;
export const FIRST_BASE_LINE = 49;
/** The 60th parallel, north limit of the DLS: 483 chains × 126 falls 180 m short of it on GRS80. */
export const DLS_NORTH_LIMIT = 60;

export const PRINCIPAL_MERIDIAN = -(97 + 27 / 60 + 28.41 / 3600);

/** Longitude each meridian's ranges are counted from. */
export const MERIDIAN_LNG: Readonly<Record<DlsMeridian, number>> = {
  E1: PRINCIPAL_MERIDIAN,
  W1: PRINCIPAL_MERIDIAN,
  W2: -102,
  W3: -106,
  W4: -110,
  W5: -114,
  W6: -118,
};

/** The far limit of each meridian's ranges: the next meridian (which cuts the last range) or the system's edge. */
export const SYSTEM_LIMIT: Readonly<Record<DlsMeridian, { lng: number; cuts: boolean; name: string }>> = {
  E1: { lng: -95.15, cuts: false, name: 'the Ontario border' },
  W1: { lng: -102, cuts: true, name: 'the 2nd meridian' },
  W2: { lng: -106, cuts: true, name: 'the 3rd meridian' },
  W3: { lng: -110, cuts: true, name: 'the 4th meridian' },
  W4: { lng: -114, cuts: true, name: 'the 5th meridian' },
  W5: { lng: -118, cuts: true, name: 'the 6th meridian' },
  W6: { lng: -122.5, cuts: false, name: 'the Peace River Block' },
};

/** +1 where ranges count east of the meridian, -1 where they count west. */
export const rangeDirection = (meridian: DlsMeridian): 1 | -1 => (meridian === 'E1' ? 1 : -1);

/** Latitudes of every section-row line: index (township - 1) * 6 + row, row 0…6. */
export const ROW_LINES: Float64Array = (() => {
  const lines = new Float64Array(MAX_TOWNSHIP * 6 + 1);
  const origin = meridianArc(FIRST_BASE_LINE);
  let chains = 0;
  for (let k = 0; k < lines.length; k++) {
    lines[k] = k === 0 ? FIRST_BASE_LINE : latitudeAtArc(origin + chains * CHAIN_METRES);
    chains += ROW_CHAINS[k % 6]!;
  }
  // the north row of sections takes up excess: township 126's sections 31–36 reach 60°N (+180 m)
  lines[lines.length - 1] = DLS_NORTH_LIMIT;
  return lines;
})();

export const rowLine = (township: number, row: number): number => ROW_LINES[(township - 1) * 6 + row]!;
export const DLS_SOUTH = ROW_LINES[0]!;
export const DLS_NORTH = ROW_LINES[ROW_LINES.length - 1]!;

/** The base line a township's range lines start from: the south boundary of township 1, 5, 9, … nearest it. */
export function baseLineTownship(township: number): number {
  const block = Math.floor((township - 1) / 4);
  return (township - 1) % 4 < 2 ? block * 4 + 1 : block * 4 + 5;
}

/** Degrees of longitude per range at a township (the township width along its base line). */
const RANGE_STEP: Float64Array = (() => {
  const steps = new Float64Array(MAX_TOWNSHIP + 1);
  for (let t = 1; t <= MAX_TOWNSHIP; t++) {
    steps[t] = lngDegreesFor(TOWNSHIP_WIDTH_CHAINS * CHAIN_METRES, rowLine(baseLineTownship(t), 0));
  }
  return steps;
})();

export const rangeStep = (township: number): number => RANGE_STEP[township]!;

/** How many ranges of `meridian` reach township `township`: the last one still has ground short of the limit. */
export function maxRange(meridian: DlsMeridian, township: number): number {
  const span = Math.abs(SYSTEM_LIMIT[meridian].lng - MERIDIAN_LNG[meridian]);
  return Math.ceil(span / rangeStep(township) - 1e-9);
}

/** Longitude of the range line `lines` ranges from the meridian (0 is the meridian itself). */
export const rangeLineLng = (meridian: DlsMeridian, township: number, lines: number): number =>
  MERIDIAN_LNG[meridian] + rangeDirection(meridian) * lines * rangeStep(township);

/** A township's rectangle, before any cut at the next meridian. */
export function townshipRect(meridian: DlsMeridian, range: number, township: number) {
  const a = rangeLineLng(meridian, township, range - 1);
  const b = rangeLineLng(meridian, township, range);
  return { west: Math.min(a, b), east: Math.max(a, b), south: rowLine(township, 0), north: rowLine(township, 6) };
}

/**
 * Longitude of section line `column` (0 = the township's east boundary, 6 = its west boundary)
 * on row line `row` of a township whose east and west boundaries are given.
 */
export function sectionLineLng(east: number, west: number, township: number, row: number, column: number): number {
  if (column <= 0) return east;
  if (column >= 6) return west;
  return east - lngDegreesFor(column * COLUMN_CHAINS * CHAIN_METRES, rowLine(township, row));
}

/** [west, south, east, north] holding every modelled cell: E1's last range to W6's, 49°N to township 126's north line. */
export const DLS_EXTENT: readonly [number, number, number, number] = (() => {
  let west = Infinity;
  let east = -Infinity;
  for (let t = 1; t <= MAX_TOWNSHIP; t++) {
    west = Math.min(west, rangeLineLng('W6', t, maxRange('W6', t)));
    east = Math.max(east, rangeLineLng('E1', t, maxRange('E1', t)));
  }
  return [west, DLS_SOUTH, east, DLS_NORTH];
})();

/** The model as documented in the API and the catalog's known gaps. */
export const DLS_MODEL = {
  name: 'DLS third-system model (GRS80, uniform township layout)',
  description:
    'Cells computed from the Dominion Land Survey rules, not from surveyed monuments: meridians W1 97°27′28.41″W and ' +
    '102°–118°W every 4°; townships 483 chains north–south from 49°N along the GRS80 meridian; 486 chains east–west along ' +
    'each base line (townships 1, 5, 9, …), range lines as true meridians two townships either side, jogging at the ' +
    'correction lines; sections 81 chains apart from the east boundary, the west column taking up convergence; quarters ' +
    'and LSDs as equal subdivisions. The last range of W1–W5 is cut by the next meridian; E1 reaches 95.15°W, W6 122.5°W. ' +
    'Road allowances are inside the cells; survey irregularities, first/second-system Manitoba surveys and unsurveyed land ' +
    'are not modelled.',
  accuracy:
    'LSD centres fall 34 m (04-11-082-04W6) and 81 m (07-06-005-04W5) from the two published centres of ' +
    'SurveyGridLibrary (itself an approximation, ~100 m). Not yet measured against the official ATS v4.1 / SGB grids; ' +
    'design target: township corners within 200 m of the surveyed ones where the survey followed the rules, more where ' +
    'it did not. Reverse lookup is exact within the model (every cell is found again from its centre).',
};

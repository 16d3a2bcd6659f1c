import { ticksToDegrees, type TickBox } from './half-seconds.ts';
import { NtsParseError } from './nts-error.ts';
import { ntsId } from './nts-format.ts';
import { labelRange, NTS_STEPS, stepIndex, withChild, type NtsStep } from './nts-levels.ts';
import { isNtsSeries, seriesBox, seriesZone, type NtsZone } from './nts-series.ts';
import { isNtsLevel, levelDepth, NTS_CELL_LEVELS, type NtsBounds, type NtsCell, type NtsRef } from './nts-types.ts';
import { childBox, type Subdivision } from './subdivision.ts';

const SERIES_RULE =
  'series must be an NTS series: 000–119, or north of 80°N 120, 340, 560, 780, 910, 121, 341, 561, 781';
const BC_GRID_RULE = 'blocks, units and quarter units (the BC grid) are defined only south of 68°N';

/** A checked reference (only its own parts, letters upper case) with its box and band. */
export interface ResolvedNts {
  readonly ref: NtsRef;
  readonly box: TickBox;
  readonly zone: NtsZone;
}

function rangeRule(step: NtsStep, layout: Subdivision, zone: NtsZone): string {
  const where = step.level === 'map_area' && zone !== 'southern' ? ' north of 68°N' : '';
  return `${step.noun} must be ${labelRange(step, layout)}${where}`;
}

/** Checks `ref` part by part while walking down to its box; throws NtsParseError naming the part at fault. */
export function resolveNts(ref: NtsRef): ResolvedNts {
  if (!isNtsLevel(ref.level)) throw new NtsParseError('reference', `level must be one of ${NTS_CELL_LEVELS.join(', ')}`);
  if (!isNtsSeries(ref.series)) throw new NtsParseError('series', SERIES_RULE);
  const zone = seriesZone(ref.series);
  let box = seriesBox(ref.series);
  let checked: NtsRef = { level: 'series', series: ref.series };
  for (const step of NTS_STEPS.slice(0, levelDepth(ref.level))) {
    const layout = step.layout(zone);
    if (!layout) throw new NtsParseError(step.level, BC_GRID_RULE);
    const index = stepIndex(step, layout, ref[step.key]);
    if (index === null) throw new NtsParseError(step.level, rangeRule(step, layout, zone));
    box = childBox(box, layout, index);
    checked = withChild(checked, step, index);
  }
  return { ref: checked, box, zone };
}

export const boxBounds = (box: TickBox): NtsBounds => [
  ticksToDegrees(box.west),
  ticksToDegrees(box.south),
  ticksToDegrees(box.east),
  ticksToDegrees(box.north),
];

/** A cell from an already checked reference and its box. */
export const ntsCellOf = (ref: NtsRef, box: TickBox): NtsCell => ({ ...ref, id: ntsId(ref), bounds: boxBounds(box) });

/** The cell of a reference (checked: throws NtsParseError). */
export function ntsCell(ref: NtsRef): NtsCell {
  const { ref: checked, box } = resolveNts(ref);
  return ntsCellOf(checked, box);
}

/**
 * [west, south, east, north] in degrees. Every edge is a whole number of half arc-seconds, so
 * these are the doubles nearest the exact edges; ntsBoundsHalfSeconds gives the exact integers.
 */
export const ntsBounds = (ref: NtsRef): NtsBounds => boxBounds(resolveNts(ref).box);

export const ntsBoundsHalfSeconds = (ref: NtsRef): TickBox => resolveNts(ref).box;

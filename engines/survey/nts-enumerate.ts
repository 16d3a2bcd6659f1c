import { QueryError } from '../../lib/query-error.ts';
import { tickAtOrBelow, type TickBox } from './half-seconds.ts';
import { extentSeries, type NtsExtent } from './nts-extent.ts';
import { ntsCellOf, resolveNts, type ResolvedNts } from './nts-grid.ts';
import { NTS_STEPS, withChild } from './nts-levels.ts';
import { seriesBox, seriesZone } from './nts-series.ts';
import { isNtsLevel, levelDepth, type NtsCell, type NtsLevel, type NtsRef } from './nts-types.ts';
import { boxTouches, childBox, childCount, childIndicesTouching } from './subdivision.ts';

/** The cells of depth `depth` within `from`, in label order; only those holding a point of `area` when given. */
function* descend(from: ResolvedNts, depth: number, area: TickBox | null): Generator<NtsCell> {
  const here = levelDepth(from.ref.level);
  if (here === depth) {
    yield ntsCellOf(from.ref, from.box);
    return;
  }
  const step = NTS_STEPS[here];
  const layout = step?.layout(from.zone);
  if (!step || !layout) return;
  const indices = area
    ? childIndicesTouching(from.box, layout, area)
    : Array.from({ length: childCount(layout) }, (_, index) => index);
  for (const index of indices) {
    const child = { ref: withChild(from.ref, step, index), box: childBox(from.box, layout, index), zone: from.zone };
    yield* descend(child, depth, area);
  }
}

const seriesStart = (series: number): ResolvedNts => ({
  ref: { level: 'series', series },
  box: seriesBox(series),
  zone: seriesZone(series),
});

function checkedDepth(level: NtsLevel): number {
  if (!isNtsLevel(level)) throw new QueryError(`unknown NTS level ${String(level)}`);
  return levelDepth(level);
}

/** The children of a cell, in label order (none below quarter units, nor below sheets north of 68°N). */
export function ntsChildren(ref: NtsRef): NtsCell[] {
  const from = resolveNts(ref);
  return [...descend(from, levelDepth(from.ref.level) + 1, null)];
}

/**
 * Every cell of `level` within `extent` (Canada's by default; 'grid' for every series the NTS
 * defines) holding at least one point of the closed box [west, south, east, north] in degrees,
 * under ntsCellAt's edge rule: a box reaching a cell's west or south edge takes it in, one only
 * reaching its north or east edge does not. Series in ascending order, then label order.
 */
export function* ntsCellsInBbox(
  bbox: readonly [west: number, south: number, east: number, north: number],
  level: NtsLevel,
  extent: NtsExtent = 'canada',
): Generator<NtsCell> {
  const depth = checkedDepth(level);
  const [west, south, east, north] = bbox;
  if (![west, south, east, north].every(Number.isFinite) || west > east || south > north) {
    throw new QueryError('bbox must be four finite numbers west,south,east,north with west ≤ east and south ≤ north');
  }
  const area = {
    west: tickAtOrBelow(west),
    south: tickAtOrBelow(south),
    east: tickAtOrBelow(east),
    north: tickAtOrBelow(north),
  };
  for (const series of [...extentSeries(extent)].sort((a, b) => a - b)) {
    const start = seriesStart(series);
    if (boxTouches(start.box, area)) yield* descend(start, depth, area);
  }
}

/**
 * The whole grid at `level` over an extent (nts-extent.ts), series in extent order. Blocks exist
 * south of 68°N only; at the sheet level and below there are tens to hundreds of thousands of cells.
 */
export function* ntsNationalCells(level: NtsLevel, extent: NtsExtent = 'canada'): Generator<NtsCell> {
  const depth = checkedDepth(level);
  for (const series of extentSeries(extent)) yield* descend(seriesStart(series), depth, null);
}

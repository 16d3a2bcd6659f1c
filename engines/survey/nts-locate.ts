import { tickAtOrBelow } from './half-seconds.ts';
import { NtsParseError } from './nts-error.ts';
import { ntsCellOf } from './nts-grid.ts';
import { NTS_STEPS, withChild } from './nts-levels.ts';
import { seriesAt, seriesBox, seriesZone } from './nts-series.ts';
import { isNtsLevel, levelDepth, NTS_CELL_LEVELS, type NtsCell, type NtsLevel, type NtsRef } from './nts-types.ts';
import { childBox, childIndexAt } from './subdivision.ts';

/**
 * The cell of `level` holding a point. Each cell holds its south and west edges, not its north
 * and east ones, so a point on a shared edge or corner belongs to the cell north-east of it, and
 * points on the grid's outer north and east limits (88°N, 48°W, …) to none. Coordinates within
 * 2 micrometres of a grid line count as on it (see half-seconds.ts). Null outside the grid, and
 * for the BC grid levels north of 68°N.
 */
export function ntsCellAt(lng: number, lat: number, level: NtsLevel): NtsCell | null {
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) throw new RangeError('lng and lat must be finite numbers');
  if (!isNtsLevel(level)) throw new NtsParseError('reference', `level must be one of ${NTS_CELL_LEVELS.join(', ')}`);
  const x = tickAtOrBelow(lng);
  const y = tickAtOrBelow(lat);
  const series = seriesAt(x, y);
  if (series === null) return null;
  const zone = seriesZone(series);
  let box = seriesBox(series);
  let ref: NtsRef = { level: 'series', series };
  for (const step of NTS_STEPS.slice(0, levelDepth(level))) {
    const layout = step.layout(zone);
    if (!layout) return null;
    const index = childIndexAt(box, layout, x, y);
    box = childBox(box, layout, index);
    ref = withChild(ref, step, index);
  }
  return ntsCellOf(ref, box);
}

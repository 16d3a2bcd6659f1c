import { ticksToDegrees } from './half-seconds.ts';
import { ALL_NTS_SERIES, seriesBox } from './nts-series.ts';
import type { NtsBounds } from './nts-types.ts';

/**
 * Canada's extent: the series holding Canadian land, or Hudson Bay, by row from 40°N. Left out as
 * sea or foreign land only: 000 and 050–110 (40–44°N), 061–111 (44–48°N), 112 and 113 (Pacific),
 * 004–009 (Labrador Sea, Greenland), 015, 017–019 (Davis Strait, Baffin Bay, Greenland), 028,
 * 108, 109, 118, 119 (Beaufort Sea), and beyond 80°N 780, 910 and all of 84–88°N. Two we are not
 * sure of are left out too: 051 (Canadian waters of Lake Superior may dip south of 48°N there)
 * and 029 (the Kane Basin shore of Ellesmere Island may reach east of 72°W below 80°N). 010 is
 * in: Sable Island lies just south of 44°N. Point lookups answer for every series the grid defines.
 */
export const CANADA_NTS_SERIES: readonly number[] = [
  10, 20, 30, 40, //                                        40–44°N
  1, 11, 21, 31, 41, //                                     44–48°N
  2, 12, 22, 32, 42, 52, 62, 72, 82, 92, 102, //            48–52°N
  3, 13, 23, 33, 43, 53, 63, 73, 83, 93, 103, //            52–56°N
  14, 24, 34, 44, 54, 64, 74, 84, 94, 104, 114, //          56–60°N
  25, 35, 45, 55, 65, 75, 85, 95, 105, 115, //              60–64°N
  16, 26, 36, 46, 56, 66, 76, 86, 96, 106, 116, //          64–68°N
  27, 37, 47, 57, 67, 77, 87, 97, 107, 117, //              68–72°N
  38, 48, 58, 68, 78, 88, 98, //                            72–76°N
  39, 49, 59, 69, 79, 89, 99, //                            76–80°N
  120, 340, 560, //                                         80–84°N
];

/** `canada`: the series above; `grid`: every series the NTS grid defines. */
export type NtsExtent = 'canada' | 'grid';

export const extentSeries = (extent: NtsExtent): readonly number[] =>
  extent === 'canada' ? CANADA_NTS_SERIES : ALL_NTS_SERIES;

/** [west, south, east, north] of Canada's extent, from its series: [-144, 40, -48, 84]. */
export const NTS_CANADA_BBOX: NtsBounds = (() => {
  const boxes = CANADA_NTS_SERIES.map(seriesBox);
  return [
    ticksToDegrees(Math.min(...boxes.map((box) => box.west))),
    ticksToDegrees(Math.min(...boxes.map((box) => box.south))),
    ticksToDegrees(Math.max(...boxes.map((box) => box.east))),
    ticksToDegrees(Math.max(...boxes.map((box) => box.north))),
  ];
})();

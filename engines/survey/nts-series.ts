import { degreesToTicks, type TickBox } from './half-seconds.ts';

/** Latitude bands with their own widths: 40–68°N, 68–80°N and 80–88°N. */
export type NtsZone = 'southern' | 'arctic' | 'high_arctic';

/*
 * Series (1:1,000,000). From 40°N to 80°N a series is 8° × 4° and numbered column × 10 + row: the
 * column counts westward from 48°W (0 = 48–56°W … 11 = 136–144°W), the row northward from 40°N
 * (0 = 40–44°N … 9 = 76–80°N), so 021 = 64–72°W × 44–48°N. From 80°N to 88°N series are 16°
 * wide, span two columns and are named by them plus the row: 120 (columns 1–2, 56–72°W), 340,
 * 560, 780 and 910 (columns 9–10, 120–136°W) for 80–84°N; 121, 341, 561, 781 for 84–88°N. No
 * series is defined east of 56°W or west of 136°W beyond 80°N, nor west of 120°W beyond 84°N
 * ("9101" would not fit; the sources we checked name none there).
 */
const HIGH_ARCTIC_SERIES: ReadonlyArray<{ series: number; eastDegrees: number; southDegrees: number }> = [
  { series: 120, eastDegrees: -56, southDegrees: 80 },
  { series: 340, eastDegrees: -72, southDegrees: 80 },
  { series: 560, eastDegrees: -88, southDegrees: 80 },
  { series: 780, eastDegrees: -104, southDegrees: 80 },
  { series: 910, eastDegrees: -120, southDegrees: 80 },
  { series: 121, eastDegrees: -56, southDegrees: 84 },
  { series: 341, eastDegrees: -72, southDegrees: 84 },
  { series: 561, eastDegrees: -88, southDegrees: 84 },
  { series: 781, eastDegrees: -104, southDegrees: 84 },
];

const SERIES_HEIGHT = degreesToTicks(4);
const COLUMN_WIDTH = degreesToTicks(8);
const HIGH_ARCTIC_WIDTH = degreesToTicks(16);
const GRID_EAST = degreesToTicks(-48);
const GRID_WEST = degreesToTicks(-144);
const GRID_SOUTH = degreesToTicks(40);
const HIGH_ARCTIC_SOUTH = degreesToTicks(80);
const GRID_NORTH = degreesToTicks(88);

const isLowerSeries = (series: number): boolean => Number.isInteger(series) && series >= 0 && series <= 119;
const highArctic = (series: number) => HIGH_ARCTIC_SERIES.find((entry) => entry.series === series);

/** Whether the grid defines `series`. */
export const isNtsSeries = (series: number): boolean => isLowerSeries(series) || highArctic(series) !== undefined;

/** Every series the grid defines: 000–119 (40–80°N), then the nine of 80–88°N. */
export const ALL_NTS_SERIES: readonly number[] = [
  ...Array.from({ length: 120 }, (_, series) => series),
  ...HIGH_ARCTIC_SERIES.map((entry) => entry.series),
];

export function seriesZone(series: number): NtsZone {
  if (highArctic(series)) return 'high_arctic';
  return series % 10 >= 7 ? 'arctic' : 'southern';
}

/** The box of a series the grid defines (see isNtsSeries). */
export function seriesBox(series: number): TickBox {
  const entry = highArctic(series);
  if (entry) {
    const east = degreesToTicks(entry.eastDegrees);
    const south = degreesToTicks(entry.southDegrees);
    return { west: east - HIGH_ARCTIC_WIDTH, south, east, north: south + SERIES_HEIGHT };
  }
  if (!isLowerSeries(series)) throw new RangeError(`${series} is not an NTS series`);
  const east = GRID_EAST - Math.floor(series / 10) * COLUMN_WIDTH;
  const south = GRID_SOUTH + (series % 10) * SERIES_HEIGHT;
  return { west: east - COLUMN_WIDTH, south, east, north: south + SERIES_HEIGHT };
}

/** The series holding tick point (x, y) (south and west edges inclusive), or null outside the grid. */
export function seriesAt(x: number, y: number): number | null {
  if (y < GRID_SOUTH || y >= GRID_NORTH) return null;
  if (y < HIGH_ARCTIC_SOUTH) {
    if (x < GRID_WEST || x >= GRID_EAST) return null;
    const column = Math.floor((GRID_EAST - 1 - x) / COLUMN_WIDTH);
    return column * 10 + Math.floor((y - GRID_SOUTH) / SERIES_HEIGHT);
  }
  const south = y < HIGH_ARCTIC_SOUTH + SERIES_HEIGHT ? 80 : 84;
  const entry = HIGH_ARCTIC_SERIES.find((candidate) => {
    if (candidate.southDegrees !== south) return false;
    const east = degreesToTicks(candidate.eastDegrees);
    return x < east && x >= east - HIGH_ARCTIC_WIDTH;
  });
  return entry?.series ?? null;
}

/**
 * The exact unit of NTS geometry: the half arc-second. Every NTS line, down to the BC grid's
 * quarter units (22.5″ × 15″), falls on a whole number of them, so every cell is a box of integers
 * and no boundary is ever computed in floating point.
 */
export const HALF_SECONDS_PER_DEGREE = 7200;

/** A box in half arc-seconds (west/east signed: west of Greenwich is negative). */
export interface TickBox {
  readonly west: number;
  readonly south: number;
  readonly east: number;
  readonly north: number;
}

/**
 * A coordinate this close to a tick is on it: a double cannot hold a decimal such as -114.0125
 * (a unit line) exactly, and degrees × 7200 is off by less than 1e-9 here; 1e-6 of a half-second
 * is under 2 micrometres on the ground.
 */
const ON_TICK = 1e-6;

/** The tick at or just below `degrees`: cells are placed by the tick a coordinate lies on or after. */
export function tickAtOrBelow(degrees: number): number {
  const ticks = degrees * HALF_SECONDS_PER_DEGREE;
  const nearest = Math.round(ticks);
  return Math.abs(ticks - nearest) <= ON_TICK ? nearest : Math.floor(ticks);
}

/** The double nearest to `ticks` half-seconds, in degrees. */
export const ticksToDegrees = (ticks: number): number => ticks / HALF_SECONDS_PER_DEGREE;

export const degreesToTicks = (wholeDegrees: number): number => wholeDegrees * HALF_SECONDS_PER_DEGREE;

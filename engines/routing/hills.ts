/**
 * Grades in the bicycle and pedestrian cost models, after Valhalla (src/sif/bicyclecost.cc,
 * pedestriancost.cc). A grade in percent maps to Valhalla's weighted-grade index 0..15
 * (clamped to −10..15 %, then ⌊0.6·g + 6.5⌋: −10, −8, −6.5, −5, −3, −1.5, 0, 1.5 … 15 %), which
 * picks
 * - the travel speed: bicycle × a speed factor (2.2 at −10 %, 0.3 at 15 %), pedestrian × a time
 *   factor (DIN 33466 uphill, a modified Tobler downhill: a little faster on gentle descents,
 *   slower on steep ones);
 * - the hill-avoidance strength s: cost = seconds × (1 + (1 − use_hills)·s). Steep descents are
 *   avoided too (treacherous on a bicycle, hard on the knees).
 * One deviation: Valhalla gives the flat bicycle index a strength of 0.05; here it is 0, so a
 * graph without grades (all 0) costs exactly its travel time, as before grades existed.
 */
import type { Mode } from './modes.ts';

export const DEFAULT_USE_HILLS = { bicycle: 0.25, pedestrian: 0.5 } as const;

/** edgeGrade (Int8) + GRADE_OFFSET indexes the per-model tables of GRADE_SLOTS entries. */
export const GRADE_OFFSET = 128;
export const GRADE_SLOTS = 256;

type HillMode = 'bicycle' | 'pedestrian';

/** Bicycle speed × this, by index (Valhalla's kGradeBasedSpeedFactor). */
const BICYCLE_SPEED_FACTOR = [2.2, 2.0, 1.9, 1.7, 1.4, 1.2, 1.0, 0.95, 0.85, 0.75, 0.65, 0.55, 0.5, 0.45, 0.4, 0.3];
/** Valhalla's bicycle kAvoidHillsStrength, but 0 (not 0.05) on the flat. */
const BICYCLE_HILL_STRENGTH = [2.0, 1.0, 0.5, 0.2, 0.1, 0.0, 0.0, 0.1, 0.3, 0.8, 2.0, 3.0, 4.5, 6.5, 10.0, 12.0];
/** Walking time × this, by index (Valhalla's pedestrian kGradeBasedSpeedFactor, a time factor). */
const PEDESTRIAN_TIME_FACTOR = [1.33, 1.22, 1.08, 0.97, 0.88, 0.92, 1.0, 1.1, 1.2, 1.33, 1.43, 1.57, 1.83, 2.03, 2.23, 2.5];
/** Valhalla's pedestrian kAvoidHillsStrength. */
const PEDESTRIAN_HILL_STRENGTH = [2.0, 1.0, 0.5, 0.2, 0.1, 0.0, 0.0, 0.0, 0.1, 0.3, 0.4, 0.5, 0.7, 1.0, 3.0, 5.0];

/** Valhalla's weighted-grade index 0..15 of a grade in percent. */
export function gradeIndex(percent: number): number {
  const g = Math.min(15, Math.max(-10, percent));
  return Math.floor(0.6 * g + 6.5);
}

/** Speed relative to the flat speed at a grade. */
export function gradeSpeedFactor(mode: HillMode, percent: number): number {
  const i = gradeIndex(percent);
  return mode === 'bicycle' ? BICYCLE_SPEED_FACTOR[i]! : 1 / PEDESTRIAN_TIME_FACTOR[i]!;
}

/** The cost factor of a grade for use_hills u: 1 + (1 − u)·strength. */
export function hillFactor(mode: HillMode, percent: number, useHills: number): number {
  const i = gradeIndex(percent);
  return 1 + (1 - useHills) * (mode === 'bicycle' ? BICYCLE_HILL_STRENGTH : PEDESTRIAN_HILL_STRENGTH)[i]!;
}

/** The use_hills in effect: the caller's, kept within 0..1, else the mode's default. */
export function resolveUseHills(mode: Mode, useHills: number | undefined): number {
  const fallback = mode === 'bicycle' ? DEFAULT_USE_HILLS.bicycle : DEFAULT_USE_HILLS.pedestrian;
  return useHills === undefined || !Number.isFinite(useHills) ? fallback : Math.min(1, Math.max(0, useHills));
}

const forEachGrade = (fill: (percent: number) => number): Float64Array =>
  Float64Array.from({ length: GRADE_SLOTS }, (_, slot) => fill(slot - GRADE_OFFSET));

/** Metres per second at each grade, for the mode's flat speed in m/s (exactly flatMps at 0 %). */
export function hillSpeeds(mode: Mode, flatMps: number): Float64Array {
  const hill: HillMode = mode === 'bicycle' ? 'bicycle' : 'pedestrian';
  return forEachGrade((percent) => (hill === 'bicycle' ? flatMps * BICYCLE_SPEED_FACTOR[gradeIndex(percent)]! : flatMps / PEDESTRIAN_TIME_FACTOR[gradeIndex(percent)]!));
}

/** The use_hills cost factor at each grade. */
export function hillFactors(mode: Mode, useHills: number): Float64Array {
  const hill: HillMode = mode === 'bicycle' ? 'bicycle' : 'pedestrian';
  return forEachGrade((percent) => hillFactor(hill, percent, useHills));
}

/** The largest gradeSpeedFactor over the grades whose slot is set in `present` (1 when none is). */
export function maxGradeSpeedFactor(mode: HillMode, present: ArrayLike<number>): number {
  let best = 1;
  for (let slot = 0; slot < GRADE_SLOTS; slot++) {
    if (present[slot]) best = Math.max(best, gradeSpeedFactor(mode, slot - GRADE_OFFSET));
  }
  return best;
}

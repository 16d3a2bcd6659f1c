/**
 * A GPS trace as the matcher takes it, and the matcher's parameters. Defaults follow Valhalla
 * Meili (sigma_z 4.07 m, beta 3 m, breakage_distance 2000 m, search_radius 50 m,
 * interpolation_distance 10 m) and Newson & Krumm 2009 ("Hidden Markov Map Matching Through
 * Noise and Sparseness").
 */
import { haversineMetres } from '../../../lib/geo/haversine.ts';

export interface TraceFix {
  lng: number;
  lat: number;
  /** Unix seconds, or null. */
  time: number | null;
  /** Metres (1 sigma); null: the trace's gps_accuracy. */
  accuracy: number | null;
}

export interface MatchOptions {
  /** Metres around each fix where candidates are looked for. */
  searchRadius: number;
  /** Metres: the emission sigma of a fix without its own accuracy. */
  gpsAccuracy: number;
  /** Metres: consecutive fixes farther apart, or without a route within this, break the match. */
  breakageDistance: number;
  /** Metres: the transition's exponential scale (Newson & Krumm's beta) for fixes of sigma MEILI_SIGMA_Z; scaled with noisier fixes' sigma. */
  beta: number;
  /** Metres: a fix this close to the last fix the HMM used is matched onto the chosen path afterwards. */
  interpolationDistance: number;
  /** Candidate road segments kept per fix (each gives one state per direction the mode may travel). */
  maxCandidates: number;
}

/** Meili's default GPS accuracy (sigma_z), metres: its beta of 3 m goes with it. */
export const MEILI_SIGMA_Z = 4.07;

export const MATCH_DEFAULTS: Readonly<MatchOptions> = Object.freeze({
  searchRadius: 50,
  gpsAccuracy: MEILI_SIGMA_Z,
  breakageDistance: 2000,
  beta: 3,
  interpolationDistance: 10,
  maxCandidates: 8,
});

/** Great-circle metres between two fixes. */
export const hopMetres = (a: TraceFix, b: TraceFix): number => haversineMetres(a.lng, a.lat, b.lng, b.lat);

/** Sum of the great-circle hops of a trace, metres. */
export function traceMetres(fixes: readonly { lng: number; lat: number }[]): number {
  let sum = 0;
  for (let i = 1; i < fixes.length; i++) sum += haversineMetres(fixes[i - 1]!.lng, fixes[i - 1]!.lat, fixes[i]!.lng, fixes[i]!.lat);
  return sum;
}

/**
 * How far a transition's route may run between two fixes `gap` metres apart: twice the gap plus
 * 500 m and the candidates' offsets (a block's detour around one-ways), never beyond the breakage distance.
 */
export function routeLimit(gap: number, options: MatchOptions): number {
  return Math.min(options.breakageDistance, 2 * gap + 500 + 2 * options.searchRadius);
}

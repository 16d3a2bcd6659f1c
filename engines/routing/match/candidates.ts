/**
 * The HMM's states of one fix: the fix projected onto each nearby road segment the mode may use
 * (the snapping index's candidates, nearest first, one per segment), split into one state per
 * direction the mode may travel it. The emission score is Newson & Krumm's Gaussian on the
 * distance from the fix, in log space without its constant (every state of a fix shares sigma).
 */
import type { CostModel } from '../cost-model.ts';
import type { SnapIndex } from '../snap.ts';
import type { MatchOptions, TraceFix } from './trace.ts';

export interface MatchState {
  /** A directed edge the mode may use, and the position along it (0 at its source). */
  edge: number;
  fraction: number;
  /** The projected point, degrees at six decimals. */
  lng: number;
  lat: number;
  /** Fix to projected point, metres. */
  distance: number;
  /** log of the emission probability, up to a constant shared by the fix's states. */
  emission: number;
}

/** Sigma of a fix: its own accuracy, else the trace's. */
export const sigmaOf = (fix: TraceFix, options: MatchOptions): number => Math.max(0.5, fix.accuracy ?? options.gpsAccuracy);

export function candidateStates(snap: SnapIndex, model: CostModel, fix: TraceFix, options: MatchOptions): MatchState[] {
  const sigma = sigmaOf(fix, options);
  const found = snap.candidates(fix.lng, fix.lat, model, options.searchRadius, options.maxCandidates);
  const states: MatchState[] = [];
  for (const c of found) {
    const z = c.distanceMetres / sigma;
    const emission = -0.5 * z * z;
    const base = { lng: c.lng, lat: c.lat, distance: c.distanceMetres, emission };
    states.push({ edge: c.edge, fraction: c.fraction, ...base });
    if (c.reverse !== null) states.push({ edge: c.reverse, fraction: 1 - c.fraction, ...base });
  }
  return states;
}

/**
 * Newson & Krumm's HMM decoded with Viterbi, in log space, over the trace in order. The trace
 * falls into runs: a run ends where a fix has no candidate ('unmatched'), where two consecutive
 * fixes are farther apart than the breakage distance ('gap') or where no state of a fix is
 * reachable from any state of the previous one within the route limit ('unroutable'); the next
 * run starts afresh, and nothing is ever drawn across a break. A fix within the interpolation
 * distance (or 2 sigma) of the run's last decoded fix is not a step of the HMM: the assembler
 * places it on the chosen path afterwards.
 */
import type { CostModel } from '../cost-model.ts';
import type { SnapIndex } from '../snap.ts';
import { candidateStates, sigmaOf, type MatchState } from './candidates.ts';
import { MEILI_SIGMA_Z, routeLimit, hopMetres, type MatchOptions, type TraceFix } from './trace.ts';
import { TransitionSearch, type MatchPath } from './transition-search.ts';

export type BreakReason = 'gap' | 'unroutable' | 'unmatched';

export interface MatchRun {
  /** The fixes the HMM decoded, in order, with their chosen states. */
  fixes: number[];
  states: MatchState[];
  /** paths[k]: from states[k] to states[k + 1]. */
  paths: MatchPath[];
  /** Fixes placed afterwards, each with the position in `fixes` of the decoded fix before it. */
  interpolated: { fix: number; after: number }[];
  /** Why the run ended (null for the trace's last run). */
  endedBy: BreakReason | null;
}

interface OpenRun {
  fixes: number[];
  states: MatchState[][];
  /** back[k][j]: the state of fixes[k − 1] before state j of fixes[k]. */
  back: Int32Array[];
  score: Float64Array;
  interpolated: { fix: number; after: number }[];
}

/**
 * How far back along the road a fix may project from the previous one and still read as the
 * same place (in sigmas of the fix): the difference of two along-road errors has sigma √2·σ, so
 * 4σ covers it at about 3 of its sigmas. A fix's states lie within the search radius of it, so
 * their spread is bounded by the radius however large the stated accuracy: σ counts up to the
 * radius, which keeps the backward search bounded (4 × 200 m at most).
 */
const BACK_SIGMAS = 4;
const backTolerance = (fix: TraceFix, options: MatchOptions) => BACK_SIGMAS * Math.min(sigmaOf(fix, options), options.searchRadius);

/**
 * The transition's beta between two fixes: Meili's 3 m at its sigma_z of 4.07 m, scaled with the
 * fixes' sigma. |route − great circle| carries the fixes' own noise, so a fixed 3 m beta over
 * noisier fixes makes the decoder chase the noise (zigzags through lanes whose lengths fit the
 * noisy hops).
 */
const betaOf = (a: TraceFix, b: TraceFix, options: MatchOptions) =>
  options.beta * Math.max(1, (sigmaOf(a, options) + sigmaOf(b, options)) / (2 * MEILI_SIGMA_Z));

/**
 * A first pass of each step only looks for routes whose transition costs at most this many
 * (log) units: a state reached only by a longer detour (a loop around a block to come back the
 * other way) is left out while a plausible one exists. When the pass finds no transition at
 * all, the step is searched again up to the full route limit, so the cap never breaks a match.
 */
const FIRST_PASS_PENALTY = 40;

/** One Viterbi step, capped first and then to the full limit when the cap found nothing. */
function step(
  search: TransitionSearch, from: readonly MatchState[], score: Float64Array, to: readonly MatchState[],
  gap: number, limit: number, backTol: number, beta: number,
): { bestIn: Float64Array; back: Int32Array } {
  const cap = gap + beta * FIRST_PASS_PENALTY;
  if (cap < limit) {
    const first = stepWithin(search, from, score, to, gap, cap, backTol, beta);
    if (first.bestIn.some((s) => s > -Infinity)) return first;
  }
  return stepWithin(search, from, score, to, gap, limit, backTol, beta);
}

/** One Viterbi step: the best score into each state of the next fix and the state it came from. */
function stepWithin(
  search: TransitionSearch, from: readonly MatchState[], score: Float64Array, to: readonly MatchState[],
  gap: number, limit: number, backTol: number, beta: number,
): { bestIn: Float64Array; back: Int32Array } {
  const bestIn = new Float64Array(to.length).fill(-Infinity);
  const back = new Int32Array(to.length).fill(-1);
  const order = Array.from(from.keys()).filter((i) => score[i]! > -Infinity).sort((x, y) => score[y]! - score[x]!);
  for (const i of order) {
    const vi = score[i]!;
    let worst = Infinity;
    for (let j = 0; j < to.length; j++) worst = Math.min(worst, bestIn[j]!);
    // Sources come best first: once this one cannot improve any target, none after it can.
    if (vi <= worst) break;
    const distance = search.run(from[i]!, to, limit, backTol, { score: vi, bestIn, gap, beta });
    for (let j = 0; j < to.length; j++) {
      const d = distance[j]!;
      if (d === Infinity) continue;
      const s = vi - Math.abs(d - gap) / beta;
      if (s > bestIn[j]!) {
        bestIn[j] = s;
        back[j] = i;
      }
    }
  }
  return { bestIn, back };
}

/** Decodes the trace into runs (a run of one decoded fix included: the assembler decides what it shows). */
export function decodeTrace(snap: SnapIndex, model: CostModel, fixes: readonly TraceFix[], options: MatchOptions): MatchRun[] {
  const search = new TransitionSearch(model);
  const runs: MatchRun[] = [];
  let open: OpenRun | null = null;

  const close = (endedBy: BreakReason | null) => {
    if (open) runs.push(finish(search, open, fixes, options, endedBy));
    open = null;
  };
  const start = (fix: number, states: MatchState[]) => {
    open = { fixes: [fix], states: [states], back: [new Int32Array(states.length).fill(-1)], score: Float64Array.from(states, (s) => s.emission), interpolated: [] };
  };

  for (let i = 0; i < fixes.length; i++) {
    const fix = fixes[i]!;
    const run = open as OpenRun | null;
    const last = run ? run.fixes[run.fixes.length - 1]! : -1;
    const gap = run ? hopMetres(fixes[last]!, fix) : 0;
    // Newson & Krumm drop fixes within 2 sigma of the last one: their along-road noise would read as moving backwards.
    if (run && gap < Math.max(options.interpolationDistance, 2 * sigmaOf(fix, options))) {
      run.interpolated.push({ fix: i, after: run.fixes.length - 1 });
      continue;
    }
    const states = candidateStates(snap, model, fix, options);
    if (states.length === 0) {
      close('unmatched');
      continue;
    }
    if (!run) {
      start(i, states);
      continue;
    }
    if (gap > options.breakageDistance) {
      close('gap');
      start(i, states);
      continue;
    }
    const prevStates = run.states[run.states.length - 1]!;
    const { bestIn, back } = step(search, prevStates, run.score, states, gap, routeLimit(gap, options), backTolerance(fix, options), betaOf(fixes[last]!, fix, options));
    if (!bestIn.some((s) => s > -Infinity)) {
      close('unroutable');
      start(i, states);
      continue;
    }
    run.fixes.push(i);
    run.states.push(states);
    run.back.push(back);
    run.score = Float64Array.from(states, (s, j) => bestIn[j]! + s.emission);
  }
  close(null);
  return runs;
}

/** Backtracks the run's best last state and finds the chosen transitions' paths. */
function finish(search: TransitionSearch, run: OpenRun, fixes: readonly TraceFix[], options: MatchOptions, endedBy: BreakReason | null): MatchRun {
  const n = run.fixes.length;
  let j = 0;
  for (let s = 1; s < run.score.length; s++) if (run.score[s]! > run.score[j]!) j = s;
  const chosen = new Array<MatchState>(n);
  for (let k = n - 1; k >= 0; k--) {
    chosen[k] = run.states[k]![j]!;
    j = run.back[k]![j]!;
  }
  const paths: MatchPath[] = [];
  for (let k = 0; k + 1 < n; k++) {
    const from = fixes[run.fixes[k]!]!;
    const to = fixes[run.fixes[k + 1]!]!;
    const limit = routeLimit(hopMetres(from, to), options);
    const distance = search.run(chosen[k]!, [chosen[k + 1]!], limit, backTolerance(to, options), null);
    if (distance[0] === Infinity) throw new Error('match: a chosen transition has no path on the second search');
    paths.push(search.pathTo(0));
  }
  return { fixes: run.fixes, states: chosen, paths, interpolated: run.interpolated, endedBy };
}

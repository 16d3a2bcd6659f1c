/**
 * The matcher's decoding, restated plainly over reference-transition.ts: every state of a fix to
 * every state of the next, no pruning, and the same model (Newson & Krumm emissions from the
 * engine's candidate states, |route − great circle| / beta transitions, a first pass capped at
 * FIRST_PASS_PENALTY, fixes within 2 sigma interpolated). For a trace that decodes as one run it
 * gives the best score any choice of states reaches, to compare with the score of the engine's choice.
 */
import type { CostModel } from '../../engines/routing/cost-model.ts';
import { candidateStates, sigmaOf, type MatchState } from '../../engines/routing/match/candidates.ts';
import { hopMetres, MEILI_SIGMA_Z, routeLimit, type MatchOptions, type TraceFix } from '../../engines/routing/match/trace.ts';
import type { MatchRun } from '../../engines/routing/match/viterbi.ts';
import type { SnapIndex } from '../../engines/routing/snap.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { incomingLists, referenceTransitions } from './reference-transition.ts';

const FIRST_PASS_PENALTY = 40;
export const betaOf = (a: TraceFix, b: TraceFix, o: MatchOptions) => o.beta * Math.max(1, (sigmaOf(a, o) + sigmaOf(b, o)) / (2 * MEILI_SIGMA_Z));
export const backToleranceOf = (fix: TraceFix, o: MatchOptions) => 4 * Math.min(sigmaOf(fix, o), o.searchRadius);

export interface ReferenceDecode {
  /** The decoded fixes (others interpolated). */
  fixes: number[];
  /** The best final score, or null when the trace breaks (the comparison needs one run). */
  best: number | null;
}

export function referenceDecode(snap: SnapIndex, model: CostModel, trace: readonly TraceFix[], options: MatchOptions): ReferenceDecode {
  const rule = graphTurnRule(model.graph, model.mode);
  const incoming = incomingLists(model);
  const fixes = [0];
  let states = candidateStates(snap, model, trace[0]!, options);
  let score = states.map((s) => s.emission);
  for (let i = 1; i < trace.length; i++) {
    const fix = trace[i]!;
    const last = trace[fixes[fixes.length - 1]!]!;
    const gap = hopMetres(last, fix);
    if (gap < Math.max(options.interpolationDistance, 2 * sigmaOf(fix, options))) continue;
    const next = candidateStates(snap, model, fix, options);
    if (next.length === 0 || gap > options.breakageDistance) return { fixes, best: null };
    const limit = routeLimit(gap, options);
    const beta = betaOf(last, fix, options);
    const raws = states.map((s: MatchState) => referenceTransitions(model, rule, incoming, s, next, limit, backToleranceOf(fix, options)));
    const pass = (cap: number) => next.map((t, j) => {
      let best = -Infinity;
      raws.forEach((row, k) => {
        const r = row[j]!;
        if (r.metres === Infinity || r.raw > cap || score[k] === -Infinity) return;
        best = Math.max(best, score[k]! - Math.abs(r.metres - gap) / beta);
      });
      return best;
    });
    const cap = gap + beta * FIRST_PASS_PENALTY;
    let bestIn = cap < limit ? pass(cap) : [];
    if (!bestIn.some((s) => s > -Infinity)) bestIn = pass(limit);
    if (!bestIn.some((s) => s > -Infinity)) return { fixes, best: null };
    fixes.push(i);
    states = next;
    score = next.map((t, j) => bestIn[j]! + t.emission);
  }
  return { fixes, best: Math.max(...score) };
}

/** The score of the states and paths the engine chose for one run. */
export function runScore(run: MatchRun, trace: readonly TraceFix[], options: MatchOptions): number {
  let score = run.states.reduce((s, x) => s + x.emission, 0);
  run.paths.forEach((path, k) => {
    const from = trace[run.fixes[k]!]!;
    const to = trace[run.fixes[k + 1]!]!;
    score -= Math.abs(path.metres - hopMetres(from, to)) / betaOf(from, to, options);
  });
  return score;
}

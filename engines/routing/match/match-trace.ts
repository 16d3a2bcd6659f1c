/**
 * Map matching (POST /match): a GPS trace onto the road graph by Newson & Krumm's hidden Markov
 * model (candidates.ts: states and emissions; transition-search.ts: route distances, one bounded
 * search per state; viterbi.ts: decoding and breaks; assemble.ts: segments, lines, positions).
 */
import type { CostModel } from '../cost-model.ts';
import type { RoadNetwork } from '../release.ts';
import { assembleMatch, type TraceMatch } from './assemble.ts';
import { MATCH_DEFAULTS, type MatchOptions, type TraceFix } from './trace.ts';
import { decodeTrace } from './viterbi.ts';

export type { TraceMatch, MatchSegment, MatchedFix, MatchBreak } from './assemble.ts';
export { MATCH_DEFAULTS, traceMetres, type MatchOptions, type TraceFix } from './trace.ts';

/** The match of a trace; segments is empty when no two consecutive fixes connect (the API's 422). */
export function matchTrace(network: Pick<RoadNetwork, 'snap'>, model: CostModel, fixes: readonly TraceFix[], options: Partial<MatchOptions> = {}): TraceMatch {
  const resolved: MatchOptions = { ...MATCH_DEFAULTS, ...options };
  return assembleMatch(model, decodeTrace(network.snap, model, fixes, resolved), fixes);
}

/** The printed section of one graph in the engine benchmark. */
import type { BenchNetwork } from './bench-network.ts';
import { COST_TOLERANCE, type PeerEngine } from './engine-peer.ts';
import type { OursEngine } from './engine-ours.ts';
import { ms, ratio, summarize, type Timings } from './timing.ts';

/** OSRM's published figure for one contraction-hierarchy query. */
const OSRM_CH_QUERY_MS = 0.1;
/** The issue's target for ours on the 5M-node graph. */
export const TARGET_P50_MS = 1;

export interface GraphRun {
  net: BenchNetwork;
  pairs: number;
  redraws: number;
  seed: number;
  ours: OursEngine;
  peer: PeerEngine | null;
}

const row = (label: string, t: Timings, extra = '') =>
  `| ${label} | ${t.n} | ${ms(t.p50)} | ${ms(t.p95)} | ${ms(t.mean)} | ${ms(t.max)} | ${extra} |`;

export function graphSection(run: GraphRun, checkTarget: boolean): string[] {
  const { net, ours, peer } = run;
  const g = net.graph;
  const oursOnPeerPairs = peer ? summarize(ours.chMs.slice(0, peer.full.n)) : null;
  const lines = [
    `${net.label}: ${g.nodeCount.toLocaleString('en-CA')} nodes, ${g.edgeCount.toLocaleString('en-CA')} directed edges, `
      + `${(net.hierarchy.upArcs + net.hierarchy.downArcs).toLocaleString('en-CA')} hierarchy arcs (graph + hierarchy ready in ${net.seconds.toFixed(1)} s);`,
    `  ${run.pairs} random node pairs (seed ${run.seed}, ${run.redraws} unconnected draws redrawn); mean auto trip ${(ours.meanTripSeconds / 60).toFixed(1)} min`,
    '',
    '| engine, one query at a time | pairs | p50 | p95 | mean | max | |',
    '|---|---|---|---|---|---|---|',
    row('ours: chRoute (CH query + unpacking, metric)', ours.ch),
    row('ours: shortestPath auto (the API\'s facade)', ours.facade, `${ours.fallbacks} fell back to A* with CH-potentials${ours.unroutable ? `; ${ours.unroutable} unroutable for auto` : ''}`),
  ];
  if (ours.astar) lines.push(row('ours: plain A* auto (reference)', ours.astar, `max cost difference to the facade ${ours.astarMaxRelDiff!.toExponential(1)}`));
  if (peer && oursOnPeerPairs) {
    lines.push(
      row(`pgRouting ${peer.version} pgr_bdDijkstra, whole table`, peer.full, `${ratio(peer.full.p50, oursOnPeerPairs.p50)} ours (chRoute p50 ${ms(oursOnPeerPairs.p50)} on these pairs)`),
      row(`pgr_bdDijkstra, edges in the pairs' box + ${(peer.boxMargin * 100).toFixed(0)} %`, peer.box,
        `${ratio(peer.box.p50, oursOnPeerPairs.p50)} ours; ${peer.boxExact}/${peer.box.n} found the optimum`),
      '',
      `  pgRouting: ${peer.rows.toLocaleString('en-CA')} edge rows loaded (COPY, GiST index, VACUUM ANALYZE) in ${peer.loadSeconds.toFixed(1)} s;`
        + ` agg_cost vs the hierarchy's distance: ${peer.full.n - peer.peerSuboptimal - peer.disagreements}/${peer.full.n} agree`
        + ` (max relative difference ${peer.maxRelDiff.toExponential(1)}, tolerance ${COST_TOLERANCE})`
        + `${peer.peerSuboptimal ? `; on ${peer.peerSuboptimal} pgr_bdDijkstra returned a costlier path, where pgr_dijkstra finds ours` : ''}`
        + `${peer.disagreements ? `; ${peer.disagreements} DISAGREE with pgr_dijkstra too` : ''}`,
    );
  } else lines.push('', '  pgRouting not run');
  if (checkTarget) {
    lines.push(`  target ours p50 ≤ ${TARGET_P50_MS} ms: ${ours.ch.p50 <= TARGET_P50_MS ? 'met' : 'NOT met'} by chRoute (${ms(ours.ch.p50)}),`
      + ` ${ours.facade.p50 <= TARGET_P50_MS ? 'met' : 'NOT met'} by shortestPath (${ms(ours.facade.p50)});`
      + ` OSRM publishes ~${OSRM_CH_QUERY_MS} ms per CH query: chRoute p50 is ${ratio(ours.ch.p50, OSRM_CH_QUERY_MS)} that`);
  }
  return lines;
}
